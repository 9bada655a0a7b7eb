/*
 * The port: the world's start-up thread, critical sections, yield, the assert hook, the heap
 * and tick time. A FreeRTOS application runs as the thread whose entry is
 * freertos_main_entry (docs/compat.md, "Configuration"): it raises itself to the world's
 * ceiling, calls the application's main(), and main's vTaskStartScheduler lets the tasks run.
 */
#include <partita/config.h> /* PT_KIND_APERIODIC */
#include <partita/heap.h>
#include <partita/sync.h>
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

TaskHandle_t fr_idle_task(void)
{
	return &main_rec;
}

TaskHandle_t fr_registered(int slot)
{
	return by_slot[slot];
}

void fr_apply_priority(TaskHandle_t t)
{
	unsigned p = t->crit_nest ? fr_world.ceiling
		   : t->isr	  ? fr_world.ceiling + FR_ISR_OFFSET
		   : t->susp_nest ? fr_world.ceiling + FR_SUSPEND_OFFSET
				  : fr_native_prio(t->priority);
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
	configASSERT(ceiling + FR_SUSPEND_OFFSET + (configMAX_PRIORITIES) < PT_PRIO_LEVELS);
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
	if (ticks != 0) {
		/* a blocking call: never from the interrupt context (FreeRTOS: undefined; here
		 * an assert), and the point where FreeRTOS checks the stack of a task leaving */
		configASSERT(!fr_in_isr());
		fr_stack_check();
	}
	if (ticks == portMAX_DELAY)
		return PT_WAIT_FOREVER;
	if (ticks == 0)
		return PT_NO_WAIT;
	uint64_t now = pt_time_cycles();
	uint64_t until = tick_start_cycles((now - fr_world.epoch_cycles) / fr_world.tick_cycles + ticks);
	return (until - now) << pt_time_shift(); /* > 0: `until` is past the current tick */
}

uint64_t fr_deadline_cycles(TickType_t ticks)
{
	uint64_t ns = fr_timeout_ns(ticks);
	if (ns == PT_WAIT_FOREVER)
		return UINT64_MAX;
	return pt_time_cycles() + (ns >> pt_time_shift());
}

uint64_t fr_remaining_ns(uint64_t deadline_cycles)
{
	if (deadline_cycles == UINT64_MAX)
		return PT_WAIT_FOREVER;
	uint64_t now = pt_time_cycles();
	return deadline_cycles > now ? (deadline_cycles - now) << pt_time_shift() : PT_NO_WAIT;
}

bool fr_wait_prepare(TaskHandle_t t)
{
	if (t->wait_sem <= 0) {
		int id = pt_sem_create(0, 1);
		if (id < 0) {
#if configUSE_MALLOC_FAILED_HOOK
			vApplicationMallocFailedHook();
#endif
			return false;
		}
		t->wait_sem = id;
	}
	while (pt_sem_take(t->wait_sem, PT_NO_WAIT) == PT_OK) /* a stale wake */
		;
	return true;
}

int fr_wait(TaskHandle_t t, uint64_t timeout_ns)
{
	return pt_sem_take(t->wait_sem, timeout_ns);
}

void fr_wake(TaskHandle_t t)
{
	if (t && t->wait_sem > 0)
		pt_sem_give(t->wait_sem);
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
	fr_stack_check();
	pt_thread_yield();
}

/* taskENTER_CRITICAL_FROM_ISR: the interrupt context masks "interrupts" as a task does, by
 * the ceiling; the returned mask is unused (nesting is counted). */
UBaseType_t uxPortSetInterruptMaskFromISR(void)
{
	vPortEnterCritical();
	return 0;
}

void vPortClearInterruptMaskFromISR(UBaseType_t x)
{
	(void)x;
	vPortExitCritical();
}

bool fr_in_isr(void)
{
	TaskHandle_t t = fr_current();
	return t && t->isr;
}

#if configCHECK_FOR_STACK_OVERFLOW
/* The last FR_STACK_ZONE (1 KiB) of every task's stack: method 1 reports a stack pointer
 * inside them, method 2 also a change of the pattern painted there at the task's start
 * (tasks.c). Below them is the guard page, which stops the thread at a real overflow whatever
 * the method; the hook sees a task that came within 1 KiB of it. */
void fr_stack_check(void)
{
	TaskHandle_t t = fr_current();
	if (!t || !t->stack_limit)
		return;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	bool over = sp < t->stack_limit + FR_STACK_ZONE;
#if configCHECK_FOR_STACK_OVERFLOW > 1
	/* the zone's top 16 words: a stack growing into the zone writes them first */
	const uint64_t *w = (const uint64_t *)(t->stack_limit + FR_STACK_ZONE) - 16;
	for (unsigned i = 0; i < 16 && !over; i++)
		over = w[i] != FR_STACK_PAINT;
#endif
	if (over)
		vApplicationStackOverflowHook(t, t->name);
}
#endif

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

/* The heap: blocks of the partition's colored heap (pt_malloc), within a budget of
 * configTOTAL_HEAP_SIZE bytes as FreeRTOS's heap_4 has: each block carries a 16-byte header
 * with its size, so xPortGetFreeHeapSize is exact for what the application allocated. */
#define FR_HEAP_HDR 16u
static size_t heap_used, heap_min_free = (configTOTAL_HEAP_SIZE);

void *pvPortMalloc(size_t xWantedSize)
{
	void *p = 0;
	size_t need = xWantedSize + FR_HEAP_HDR;
	vPortEnterCritical();
	if (xWantedSize > 0 && need > xWantedSize && need <= (configTOTAL_HEAP_SIZE) - heap_used) {
		uint64_t *h = pt_malloc(need);
		if (h) {
			h[0] = need;
			heap_used += need;
			if ((configTOTAL_HEAP_SIZE) - heap_used < heap_min_free)
				heap_min_free = (configTOTAL_HEAP_SIZE) - heap_used;
			p = (uint8_t *)h + FR_HEAP_HDR;
		}
	}
	vPortExitCritical();
#if configUSE_MALLOC_FAILED_HOOK
	if (!p && xWantedSize > 0)
		vApplicationMallocFailedHook();
#endif
	return p;
}

void vPortFree(void *pv)
{
	if (!pv)
		return;
	uint64_t *h = (uint64_t *)(void *)((uint8_t *)pv - FR_HEAP_HDR);
	vPortEnterCritical();
	configASSERT(h[0] >= FR_HEAP_HDR && h[0] <= heap_used);
	heap_used -= h[0];
	h[0] = 0; /* a second free of the block fails the assert above */
	vPortExitCritical();
	pt_free(h);
}

size_t xPortGetFreeHeapSize(void)
{
	return (configTOTAL_HEAP_SIZE) - heap_used;
}

size_t xPortGetMinimumEverFreeHeapSize(void)
{
	return heap_min_free;
}

void vPortInitialiseBlocks(void)
{
}

#if configUSE_TICK_HOOK
/* The world's interrupt context: one thread above every task of the world (and below its
 * critical sections), created by vTaskStartScheduler. Its only interrupt is the tick: at
 * every tick boundary it calls vApplicationTickHook, which may call the FromISR API; a late
 * wake-up (a long critical section) calls the hook once per tick missed, as FreeRTOS's
 * pended ticks do. It exists only with configUSE_TICK_HOOK: a world without a tick hook has
 * no periodic wake-up at all. */
static struct tskTaskControlBlock isr_rec;

static void isr_thread(void *arg)
{
	(void)arg;
	uint64_t next = fr_ticks64() + 1;
	for (;;) {
		fr_sleep_until_tick(next);
		while (fr_ticks64() >= next) {
			vApplicationTickHook();
			next++;
		}
	}
}

static void start_isr_context(void)
{
	isr_rec.magic = FR_TASK_MAGIC;
	isr_rec.isr = 1;
	isr_rec.priority = (configMAX_PRIORITIES) - 1;
	isr_rec.name[0] = 'I', isr_rec.name[1] = 'S', isr_rec.name[2] = 'R';
	struct pt_thread_attr a = {
		.name = "ISR", .entry = isr_thread, .arg = 0,
		.priority = (uint16_t)(fr_world.ceiling + FR_ISR_OFFSET), .cpu = -1, .sched = -1,
		.kind = PT_KIND_APERIODIC, .stack_bytes = 16384,
	};
	int tid = pt_thread_create(&a);
	configASSERT(tid > 0);
	isr_rec.tid = tid;
	fr_register(&isr_rec);
}
#endif

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
#if configSUPPORT_STATIC_ALLOCATION
	/* FreeRTOS asks the application for its idle task's memory, as there; the buffers are
	 * checked, not used: the idle task is this thread (its own stack, the layer's record) */
	StaticTask_t *idle_tcb = 0;
	StackType_t *idle_stack = 0;
	configSTACK_DEPTH_TYPE idle_depth = 0;
	vApplicationGetIdleTaskMemory(&idle_tcb, &idle_stack, &idle_depth);
	configASSERT(idle_tcb && idle_stack && idle_depth > 0);
#endif
#if configUSE_TIMERS
	fr_timers_start(); /* the timer service task, as FreeRTOS creates it here */
#endif
#if configUSE_TICK_HOOK
	start_isr_context();
#endif
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
