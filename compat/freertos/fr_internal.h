/*
 * Internal to compat/freertos: the task record behind a TaskHandle_t, the world's state and
 * the tick arithmetic shared by tasks.c, queue.c and port.c.
 */
#ifndef FR_INTERNAL_H
#define FR_INTERNAL_H

#include <stdbool.h>
#include <partita/api.h>
#include "FreeRTOS.h"
#include "task.h"

#define FR_TASK_MAGIC 0x46525453u /* "FRTS": a live task record */

struct tskTaskControlBlock {
	uint32_t magic;        /* FR_TASK_MAGIC while the task exists; 0 after vTaskDelete */
	int32_t tid;           /* the Partita thread */
	UBaseType_t priority;  /* FreeRTOS base priority, 0 .. configMAX_PRIORITIES - 1 */
	uint32_t crit_nest;    /* critical sections + scheduler suspensions held (at the ceiling) */
	uint8_t suspended;     /* vTaskSuspend'ed and not resumed since */
	uint8_t from_pool;     /* the record is a slot of the layer's pool */
	uint8_t stopped;       /* configASSERT failed in it: never runs again */
	TaskFunction_t code;
	void *params;
	char name[configMAX_TASK_NAME_LEN];
};

_Static_assert(sizeof(struct tskTaskControlBlock) <= sizeof(StaticTask_t),
	       "StaticTask_t must hold the layer's task record");

/* The world: one per image for now (docs/compat.md). */
struct fr_world {
	uint64_t epoch_cycles;     /* tick 0: vTaskStartScheduler (until then, the boot) */
	uint64_t tick_cycles;      /* one tick in cycles */
	uint32_t ceiling;          /* native priority of critical sections and of main() */
	uint32_t susp_nest;        /* vTaskSuspendAll depth (its holder runs at the ceiling) */
	uint8_t started;           /* vTaskStartScheduler was called */
	uint8_t ready;             /* fr_world_init ran */
};
extern struct fr_world fr_world;

void fr_world_init(uint32_t ceiling);
/* FreeRTOS priority -> native level (0 = highest): higher FreeRTOS number, smaller level. */
static inline unsigned fr_native_prio(UBaseType_t p)
{
	return fr_world.ceiling + (unsigned)configMAX_PRIORITIES - (unsigned)p;
}
/* The calling task's record (the startup thread has one too, named "main"). */
TaskHandle_t fr_current(void);
void fr_register(TaskHandle_t t);
void fr_unregister(TaskHandle_t t);
TaskHandle_t fr_registered(int slot); /* by thread slot, 0 .. PT_MAX_THREADS - 1 */
/* Apply t's priority (or the ceiling while it holds a critical section) to its thread. */
void fr_apply_priority(TaskHandle_t t);

/* Ticks: tick n begins at epoch + n * tick_cycles; the 64-bit count never wraps. */
uint64_t fr_ticks64(void);
/* Relative timeout in ns for a wait of `ticks` FreeRTOS ticks: it ends when the tick count
 * has advanced by `ticks` (at a tick boundary), portMAX_DELAY waits forever, 0 never waits. */
uint64_t fr_timeout_ns(TickType_t ticks);
/* Sleep until the 64-bit tick count reaches `tick`. */
void fr_sleep_until_tick(uint64_t tick);

#endif
