/*
 * The port: the world's start-up thread, critical sections, yield, the assert hook, the heap
 * and tick time. A FreeRTOS application runs as the thread whose entry is
 * freertos_main_entry (docs/compat.md, "Configuration"): it raises itself to the world's
 * ceiling, calls the application's main(), and main's vTaskStartScheduler lets the tasks run.
 */
#include <partita/heap.h>
#include "fr_internal.h"
#include "lib/ufmt.h"

struct fr_world fr_world;

/* Task records by thread slot: a tid is slot + 1 + PT_MAX_THREADS * generation, so the
 * record of the calling thread is one load and one compare away. */
static TaskHandle_t by_slot[PT_MAX_THREADS];

/* The start-up thread's record: it is no FreeRTOS task, but main() may call the API. */
static struct tskTaskControlBlock main_rec;

int main(void);

void fr_register(TaskHandle_t t)
{
	by_slot[(uint32_t)(t->tid - 1) % PT_MAX_THREADS] = t;
}

void fr_unregister(TaskHandle_t t)
{
	uint32_t s = (uint32_t)(t->tid - 1) % PT_MAX_THREADS;
	if (by_slot[s] == t)
		by_slot[s] = 0;
}

TaskHandle_t fr_current(void)
{
	int tid = pt_thread_self();
	TaskHandle_t t = by_slot[(uint32_t)(tid - 1) % PT_MAX_THREADS];
	return t && t->tid == tid ? t : 0;
}

TaskHandle_t fr_registered(int slot)
{
	return by_slot[slot];
}

void fr_apply_priority(TaskHandle_t t)
{
	unsigned p = t->crit_nest ? fr_world.ceiling : fr_native_prio(t->priority);
	pt_thread_set_priority(t == fr_current() ? 0 : t->tid, p);
}

void fr_world_init(uint32_t ceiling)
{
	uint64_t tick_ns = 1000000000ull / (configTICK_RATE_HZ);
	unsigned shift = pt_time_shift();
	fr_world.ceiling = ceiling;
	fr_world.tick_cycles = tick_ns >> shift;
	fr_world.epoch_cycles = pt_time_cycles();
	fr_world.ready = 1;
	/* a tick must be a whole number of cycles, or tick time would drift from the clock */
	configASSERT(fr_world.tick_cycles > 0 && (fr_world.tick_cycles << shift) == tick_ns);
	configASSERT(ceiling + (configMAX_PRIORITIES) < PT_PRIO_LEVELS);
}

uint64_t fr_ticks64(void)
{
	return (pt_time_cycles() - fr_world.epoch_cycles) / fr_world.tick_cycles;
}

static uint64_t tick_start_cycles(uint64_t tick)
{
	return fr_world.epoch_cycles + tick * fr_world.tick_cycles;
}

uint64_t fr_timeout_ns(TickType_t ticks)
{
	if (ticks == portMAX_DELAY)
		return PT_WAIT_FOREVER;
	if (ticks == 0)
		return PT_NO_WAIT;
	uint64_t now = pt_time_cycles();
	uint64_t until = tick_start_cycles((now - fr_world.epoch_cycles) / fr_world.tick_cycles + ticks);
	return (until - now) << pt_time_shift(); /* > 0: `until` is past the current tick */
}

void fr_sleep_until_tick(uint64_t tick)
{
	pt_sleep_until(tick_start_cycles(tick));
}

void vPortEnterCritical(void)
{
	TaskHandle_t t = fr_current();
	configASSERT(t);
	if (t->crit_nest++ == 0)
		pt_thread_set_priority(0, fr_world.ceiling);
}

void vPortExitCritical(void)
{
	TaskHandle_t t = fr_current();
	configASSERT(t && t->crit_nest > 0);
	if (--t->crit_nest == 0)
		fr_apply_priority(t);
}

void vPortYield(void)
{
	pt_thread_yield();
}

static void put(char *b, int *k, const char *s)
{
	while (*s && *k < 200)
		b[(*k)++] = *s++;
}

/* configASSERT's hook: one console line naming the task, its thread, the file and the line;
 * then the calling thread stops for good (it stays suspended, holding what it holds, as a
 * FreeRTOS task spinning in its assert would). */
void vPartitaAssertFailed(const char *file, int line)
{
	TaskHandle_t t = fr_current();
	char b[240];
	int k = 0;
	put(b, &k, "freertos: assert failed: task ");
	put(b, &k, t ? t->name : "?");
	put(b, &k, " (tid ");
	pt_ufmt_i64(b, &k, pt_thread_self());
	put(b, &k, ") at ");
	put(b, &k, file);
	put(b, &k, ":");
	pt_ufmt_i64(b, &k, line);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	if (t)
		t->stopped = 1;
	for (;;)
		pt_thread_suspend(0);
}

void *pvPortMalloc(size_t xWantedSize)
{
	void *p = pt_malloc(xWantedSize);
#if configUSE_MALLOC_FAILED_HOOK
	if (!p)
		vApplicationMallocFailedHook();
#endif
	return p;
}

void vPortFree(void *pv)
{
	pt_free(pv);
}

/* The entry of the world's start-up thread (the system configuration's `entry:`). Its `arg`,
 * when nonzero, is the world's ceiling priority. */
void freertos_main_entry(void *arg)
{
	uint32_t ceiling = arg ? (uint32_t)(uintptr_t)arg : (configPARTITA_PRIORITY_CEILING);
	main_rec.magic = FR_TASK_MAGIC;
	main_rec.tid = pt_thread_self();
	main_rec.priority = (configMAX_PRIORITIES) - 1;
	main_rec.crit_nest = 1; /* main() runs at the ceiling: no task runs before the start */
	main_rec.name[0] = 'm', main_rec.name[1] = 'a', main_rec.name[2] = 'i', main_rec.name[3] = 'n';
	fr_register(&main_rec);
	fr_world_init(ceiling);
	pt_thread_set_priority(0, ceiling);
	main();
	/* FreeRTOS's main never returns from vTaskStartScheduler; one that returns early did not
	 * start the scheduler (e.g. no memory for the idle task) */
	configASSERT(fr_world.started);
	pt_thread_exit();
}

/* vTaskStartScheduler: tick 0 is now; the start-up thread leaves the ceiling and becomes the
 * idle task (priority 0, calling the idle hook) or, without an idle hook, ends. */
void vTaskStartScheduler(void)
{
	TaskHandle_t me = fr_current();
	configASSERT(me == &main_rec && !fr_world.started);
	/* time slicing is the core's round-robin, set in the system configuration: it must be
	 * one tick with configUSE_TIME_SLICING, and off without */
	int64_t want = (configUSE_TIME_SLICING) ? (int64_t)(1000000000ull / (configTICK_RATE_HZ)) : 0;
	int64_t slice = pt_sched_rr_slice_ns();
	if (slice != want) {
		char b[200];
		int k = 0;
		put(b, &k, "freertos: configUSE_TIME_SLICING needs the world's fp scheduler to have "
			   "rr_slice_ns: ");
		pt_ufmt_i64(b, &k, want);
		put(b, &k, " (it has ");
		pt_ufmt_i64(b, &k, slice);
		put(b, &k, ")\n");
		pt_console_write(b, (size_t)k);
		configASSERT(slice == want);
	}
	fr_world.epoch_cycles = pt_time_cycles();
	fr_world.started = 1;
	main_rec.priority = tskIDLE_PRIORITY;
	main_rec.name[0] = 'I', main_rec.name[1] = 'D', main_rec.name[2] = 'L', main_rec.name[3] = 'E';
#if configUSE_IDLE_HOOK
	main_rec.crit_nest = 0;
	fr_apply_priority(&main_rec);
	for (;;) {
		vApplicationIdleHook();
		pt_thread_yield(); /* configIDLE_SHOULD_YIELD: share priority 0 with the tasks */
	}
#else
	main_rec.magic = 0;
	fr_unregister(&main_rec);
	pt_thread_exit();
#endif
}
