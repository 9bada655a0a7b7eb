/*
 * The measured operations. Each run_* function is called by the driver (priority
 * BENCH_PRIO) with the filler threads already present, repeats its operation
 * BENCH_WARMUP + BENCH_REPS times and leaves no thread of its own behind.
 *
 * Where the operation dispatches another thread, the sample is taken by that thread: its first
 * instruction after the switch (the return from the call it was blocked, preempted or
 * suspended in, or its entry when it is new) is bench_stop().
 */
#include "bench.h"

#define REPS (BENCH_WARMUP + BENCH_REPS)

static int spawn(void (*entry)(void *), uint16_t prio, void *arg)
{
	struct pt_thread_attr a = {
		.name = "bench_peer", .entry = entry, .arg = arg, .priority = prio,
		.cpu = -1, .sched = -1, .kind = 0, .stack_bytes = 4096,
	};
	int tid = pt_thread_create(&a);
	if (tid <= 0)
		pt_usay("BENCH-ERROR peer create failed\n");
	return tid;
}

static void park(void *arg)
{
	(void)arg;
	for (;;)
		pt_thread_suspend(0);
}

/* ---- yield: two threads at the same priority hand the cpu to each other ---- */

static void yield_peer(void *arg)
{
	(void)arg;
	bench_stop(OP_YIELD); /* first run: a warm-up sample */
	for (;;) {
		bench_start();
		pt_thread_yield();
		bench_stop(OP_YIELD); /* the same code after the call as the driver's */
	}
}

static void run_yield(void)
{
	int tid = spawn(yield_peer, BENCH_PRIO, 0);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_yield();
		bench_stop(OP_YIELD);
	}
	pt_thread_delete(tid);
}

/* ---- create / delete without dispatch: a lower-priority thread that never runs ---- */

static void run_create_delete(void)
{
	struct pt_thread_attr a = {
		.name = "bench_new", .entry = park, .arg = 0, .priority = BENCH_PRIO_LOW,
		.cpu = -1, .sched = -1, .kind = 0, .stack_bytes = 4096,
	};
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		int tid = pt_thread_create(&a);
		bench_stop(OP_CREATE);
		bench_settle();
		bench_start();
		pt_thread_delete(tid);
		bench_stop(OP_DELETE);
	}
}

/* ---- create with dispatch (to the new thread's first instruction), and delete of the
 * running thread itself (to the first instruction the driver runs afterwards) ---- */

static void created_high(void *arg)
{
	(void)arg;
	bench_stop(OP_CREATE_D);
	bench_start();
	pt_thread_delete(0);
}

static void run_create_delete_dispatch(void)
{
	struct pt_thread_attr a = {
		.name = "bench_new", .entry = created_high, .arg = 0,
		.priority = BENCH_PRIO_HIGH, .cpu = -1, .sched = -1, .kind = 0,
		.stack_bytes = 4096,
	};
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_create(&a);
		bench_stop(OP_DELETE_D);
	}
}

/* ---- suspend / resume of a lower-priority ready thread: no dispatch ---- */

static void run_suspend_resume(void)
{
	int tid = spawn(park, BENCH_PRIO_LOW, 0);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_suspend(tid);
		bench_stop(OP_SUSPEND);
		bench_settle();
		bench_start();
		pt_thread_resume(tid);
		bench_stop(OP_RESUME);
	}
	pt_thread_delete(tid);
}

/* ---- suspend self (to the next thread) / resume a higher-priority thread (to it) ---- */

static void resume_peer(void *arg)
{
	int driver = (int)(uintptr_t)arg;
	for (;;) {
		bench_stop(OP_SUSPEND_D);
		bench_start();
		pt_thread_resume(driver);
	}
}

static void run_suspend_resume_dispatch(void)
{
	int tid = spawn(resume_peer, BENCH_PRIO_LOW, (void *)(uintptr_t)bench.driver_tid);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_suspend(0);
		bench_stop(OP_RESUME_D);
	}
	pt_thread_delete(tid);
}

/* ---- set-priority of a lower-priority ready thread, staying below the caller ---- */

static void run_setprio(void)
{
	int tid = spawn(park, BENCH_PRIO_LOW, 0);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_set_priority(tid, BENCH_PRIO_LOW + 1);
		bench_stop(OP_SETPRIO);
		bench_settle();
		bench_start();
		pt_thread_set_priority(tid, BENCH_PRIO_LOW);
		bench_stop(OP_SETPRIO);
	}
	pt_thread_delete(tid);
}

/* ---- set-priority raising a ready thread above the caller (to it); it then lowers itself
 * below the caller again (set_priority_self, to the caller) ---- */

static void prio_peer(void *arg)
{
	(void)arg;
	for (;;) {
		bench_stop(OP_SETPRIO_D);
		bench_start();
		pt_thread_set_priority(0, BENCH_PRIO_LOW);
	}
}

static void run_setprio_dispatch(void)
{
	int tid = spawn(prio_peer, BENCH_PRIO_LOW, 0);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_thread_set_priority(tid, BENCH_PRIO_HIGH);
		bench_stop(OP_SETPRIO_SELF_D);
	}
	pt_thread_delete(tid);
}

/* ---- semaphore give that wakes a higher-priority waiter ---- */

static void sem_peer(void *arg)
{
	(void)arg;
	for (;;) {
		pt_sem_take(bench.sem, PT_WAIT_FOREVER);
		bench_stop(OP_SEM_D);
	}
}

static void run_sem(void)
{
	int tid = spawn(sem_peer, BENCH_PRIO_HIGH, 0); /* runs at once and blocks */
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		pt_sem_give(bench.sem);
	}
	pt_thread_delete(tid);
}

/* ---- queue send that wakes a higher-priority receiver (8-byte messages) ---- */

static void mq_peer(void *arg)
{
	(void)arg;
	uint64_t m;
	for (;;) {
		pt_mq_recv(bench.mq, &m, PT_WAIT_FOREVER);
		bench_stop(OP_MQ_D);
	}
}

static void run_mq(void)
{
	int tid = spawn(mq_peer, BENCH_PRIO_HIGH, 0);
	for (int i = 0; i < REPS; i++) {
		uint64_t m = (uint64_t)i;
		bench_settle();
		bench_start();
		pt_mq_send(bench.mq, &m, PT_WAIT_FOREVER);
	}
	pt_thread_delete(tid);
}

void bench_run_core_ops(unsigned threads)
{
	run_yield();
	bench_report(OP_YIELD, threads);
	run_create_delete();
	bench_report(OP_CREATE, threads);
	bench_report(OP_DELETE, threads);
	run_create_delete_dispatch();
	bench_report(OP_CREATE_D, threads);
	bench_report(OP_DELETE_D, threads);
	run_suspend_resume();
	bench_report(OP_SUSPEND, threads);
	bench_report(OP_RESUME, threads);
	run_suspend_resume_dispatch();
	bench_report(OP_SUSPEND_D, threads);
	bench_report(OP_RESUME_D, threads);
	run_setprio();
	bench_report(OP_SETPRIO, threads);
	run_setprio_dispatch();
	bench_report(OP_SETPRIO_D, threads);
	bench_report(OP_SETPRIO_SELF_D, threads);
	run_sem();
	bench_report(OP_SEM_D, threads);
	run_mq();
	bench_report(OP_MQ_D, threads);
}

/*
 * Timer interrupt: sleep until T, a multiple of the 100-cycle CLINT tick, while a filler
 * spins; the sample is the driver's first instruction after the wake-up minus T.
 *
 * QEMU 7.2's CLINT turns mtimecmp into a deadline relative to the *unrounded* current time,
 * so the interrupt comes (w mod 100) cycles after T, w = the time of the mtimecmp write. To
 * remove that emulation artefact, each sample starts when the cycle counter is exactly x
 * (mod 100) -- a 3-instruction loop visits every residue -- so w mod 100 is the same for
 * every sample; a calibration pass over x = 0..99 finds the x where it is 0 (the smallest
 * latency), and the measured samples all use that x.
 * The console line (bench_record) is the figure, with tracing on or compiled out; the trace
 * marks let the host also read T to the kernel's timer handler (IRQ_ENTER) when tracing is on.
 */
/* noinline: calibration and measurement must run the very same instructions */
static __attribute__((noinline)) uint64_t timer_sample(uint64_t x, uint64_t mark_base,
						     unsigned threads)
{
	uint64_t c, r, hundred = 100;
	__asm__ volatile("1: rdcycle %0\n\tremu %1, %0, %3\n\tbne %1, %2, 1b"
			 : "=&r"(c), "=&r"(r)
			 : "r"(x), "r"(hundred)
			 : "memory");
	uint64_t t = (c / 100 + 200) * 100;
	bench.t0 = t;
	pt_trace_mark(mark_base + threads, t);
	pt_sleep_until(t);
	uint64_t t1 = bench_now();
	pt_trace_mark(mark_base + 0x10000u + threads, t1 - t);
	return t1 - t;
}

void bench_run_timer(unsigned threads)
{
	uint64_t best = UINT64_MAX, best_x = 0;
	for (uint64_t x = 0; x < 100; x++) {
		uint64_t d = timer_sample(x, BENCH_MARK_CAL, threads);
		if (d < best)
			best = d, best_x = x;
	}
	for (int i = 0; i < REPS; i++) {
		/* the sample first: it writes bench.t0 (T), which bench_record subtracts again.
		 * (One expression `bench.t0 + timer_sample(...)` may read t0 before the call.) */
		uint64_t d = timer_sample(best_x, BENCH_MARK_TIMER, threads);
		bench_record(OP_TIMER, bench.t0 + d);
	}
	bench_report(OP_TIMER, threads);
}
