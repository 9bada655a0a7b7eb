/*
 * Wake-up on another core (two harts, one FP instance per hart). The driver on cpu 0 gives a
 * semaphore a higher-priority thread on cpu 1 waits on; the sample is that thread's first
 * instruction after its take returns. cpu 1 is never idle (a filler spins there), so the
 * inter-processor interrupt always preempts a running thread. Cycles here are virtual time
 * (ns at shift 0) read on two harts with one time base, not one hart's instruction count.
 */
#include "bench.h"

#define REPS (BENCH_WARMUP + BENCH_REPS)
#define REMOTE_SCHED 1 /* the second scheduler instance of the configuration: cpu 1 */
#define REMOTE_CPU 1

static void ipi_peer(void *arg)
{
	(void)arg;
	for (;;) {
		pt_sem_take(bench.sem, PT_WAIT_FOREVER);
		bench_stop(OP_IPI);
		pt_sem_give(bench.sem_reply);
	}
}

/* arg 0 = kernel variant, 1 = user variant (label only; the partition decides). */
void bench_ipi_main(void *arg)
{
	bench.variant_user = arg != 0;
	bench.driver_tid = pt_thread_self();
	bench.sem = pt_sem_create(0, 1);
	bench.sem_reply = pt_sem_create(0, 1);
	if (bench.sem < 0 || bench.sem_reply < 0)
		pt_usay("BENCH-ERROR object create failed\n");
	bench_measure_overhead();
	for (unsigned i = 0; i < BENCH_NCOUNTS; i++) {
		bench_fillers_grow(bench_thread_counts[i], REMOTE_SCHED, REMOTE_CPU);
		bench_reset();
		struct pt_thread_attr a = {
			.name = "bench_ipi", .entry = ipi_peer, .arg = 0,
			.priority = BENCH_PRIO_HIGH, .cpu = REMOTE_CPU, .sched = REMOTE_SCHED,
			.kind = 0, .stack_bytes = 4096,
		};
		int tid = pt_thread_create(&a);
		if (tid <= 0)
			pt_usay("BENCH-ERROR peer create failed\n");
		pt_sleep_ns(100000); /* let it reach its first take */
		for (int r = 0; r < REPS; r++) {
			bench_settle_sleep();
			bench_start();
			pt_sem_give(bench.sem);
			pt_sem_take(bench.sem_reply, PT_WAIT_FOREVER);
		}
		pt_thread_delete(tid);
		bench_report(OP_IPI, bench_thread_counts[i]);
	}
	bench_fillers_clear();
	pt_usay("BENCH-END\n");
}
