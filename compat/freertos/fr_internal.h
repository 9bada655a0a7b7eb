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
	uint8_t isr;           /* the world's interrupt context (the tick hook thread), no task */
	uint32_t susp_nest;    /* vTaskSuspendAll held by this task (it runs at the suspension level) */
	int32_t notify_sem;    /* native semaphore its notification waits block on; 0 = none yet */
	int32_t wait_sem;      /* the same for the layer's own waits (event groups, buffers) */
	struct fr_waiter *waiter; /* its entry in an event group's wait list, while it waits */
	uint32_t notify_value[configTASK_NOTIFICATION_ARRAY_ENTRIES];
	uint8_t notify_state[configTASK_NOTIFICATION_ARRAY_ENTRIES]; /* FR_NOTIFY_* */
	uint32_t stack_bytes;  /* its thread's stack */
	uintptr_t stack_limit; /* lowest address of its stack, set when it starts; 0 before */
	TaskFunction_t code;
	void *params;
	char name[configMAX_TASK_NAME_LEN];
};

enum { FR_NOTIFY_NONE = 0, FR_NOTIFY_WAITING = 1, FR_NOTIFY_RECEIVED = 2 };

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
/* Native levels of a world (0 = highest), from its ceiling down:
 *   ceiling      critical sections (they mask the world's interrupt context too)
 *   ceiling + 1  the interrupt context (tick hook thread): above every task
 *   ceiling + 2  a task holding vTaskSuspendAll: above every other task, below interrupts
 *   ceiling + 2 + configMAX_PRIORITIES - p   FreeRTOS priority p */
#define FR_ISR_OFFSET 1u
#define FR_SUSPEND_OFFSET 2u
static inline unsigned fr_native_prio(UBaseType_t p)
{
	return fr_world.ceiling + FR_SUSPEND_OFFSET + (unsigned)configMAX_PRIORITIES - (unsigned)p;
}
/* The caller is the world's interrupt context (FromISR semantics, no blocking). */
bool fr_in_isr(void);
/* configCHECK_FOR_STACK_OVERFLOW: called where FreeRTOS checks (a task leaving its cpu). */
/* The bytes at a stack's end the check watches: the room a trap needs (its frame and
 * handler run on a kernel thread's own stack), so a task is reported while it can still be. */
#define FR_STACK_ZONE 1024u
#define FR_STACK_PAINT 0xa5a5a5a5a5a5a5a5ull /* their pattern (method 2) */
#if configCHECK_FOR_STACK_OVERFLOW
void fr_stack_check(void);
#else
static inline void fr_stack_check(void)
{
}
#endif
/* The calling task's record (the startup thread has one too, named "main"). */
TaskHandle_t fr_current(void);
void fr_register(TaskHandle_t t);
void fr_unregister(TaskHandle_t t);
TaskHandle_t fr_registered(int slot); /* by thread slot, 0 .. PT_MAX_THREADS - 1 */
TaskHandle_t fr_idle_task(void);      /* the idle task's record (main()'s thread) */
/* Apply t's priority (or the ceiling while it holds a critical section) to its thread. */
void fr_apply_priority(TaskHandle_t t);

/* Ticks: tick n begins at epoch + n * tick_cycles; the 64-bit count never wraps. */
uint64_t fr_ticks64(void);
/* Relative timeout in ns for a wait of `ticks` FreeRTOS ticks: it ends when the tick count
 * has advanced by `ticks` (at a tick boundary), portMAX_DELAY waits forever, 0 never waits. */
uint64_t fr_timeout_ns(TickType_t ticks);
/* Sleep until the 64-bit tick count reaches `tick`. */
void fr_sleep_until_tick(uint64_t tick);
/* The tick count as TickType_t (wraps as FreeRTOS's). */
static inline TickType_t fr_ticks(void)
{
	return (TickType_t)fr_ticks64();
}
#if configUSE_TIMERS
void fr_timers_start(void); /* timers.c: the timer service task */
#endif

/* The layer's own blocking (event groups, stream buffers): inside a critical section the
 * waiter calls fr_wait_prepare (its semaphore, created at the first wait, emptied of stale
 * gives) and records itself where a waker finds it; outside, fr_wait blocks until fr_wake
 * (called by a waker inside a critical section), the timeout or an abort. The waiter then
 * re-reads the state it waits for in a critical section: a wake is a hint, never a result. */
struct fr_waiter {
	struct fr_waiter *next, **pprev;
	TaskHandle_t task;
	uint64_t bits, result;
	uint32_t flags;
	uint8_t done;
};
static inline void fr_waiter_link(struct fr_waiter **head, struct fr_waiter *w)
{
	while (*head) /* FIFO */
		head = &(*head)->next;
	w->next = 0;
	w->pprev = head;
	*head = w;
	w->task->waiter = w;
}
static inline void fr_waiter_unlink(struct fr_waiter *w)
{
	if (w->pprev) {
		*w->pprev = w->next;
		if (w->next)
			w->next->pprev = w->pprev;
		w->pprev = 0;
	}
	w->task->waiter = 0;
}
bool fr_wait_prepare(TaskHandle_t t);
int fr_wait(TaskHandle_t t, uint64_t timeout_ns);
void fr_wake(TaskHandle_t t);
/* Absolute end of a wait of `ticks`, for waits that loop: fr_remaining_ns gives what is left
 * (PT_WAIT_FOREVER for portMAX_DELAY, 0 once passed). */
uint64_t fr_deadline_cycles(TickType_t ticks);
uint64_t fr_remaining_ns(uint64_t deadline_cycles);

#endif
