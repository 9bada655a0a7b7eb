/* Benchmark plumbing: samples, console lines, filler threads, the drivers' entry points. */
#include "bench.h"
#include <partita/coproc.h>

/* The coprocessors of an image that has them (subsys/coproc); weak: most images do not. */
#pragma weak pt_coprocs
#pragma weak pt_ncoprocs

/* Cycles the coprocessor harts have been awake so far (kernel variant only: the counters
 * are kernel memory). Under QEMU's icount the harts take turns, so this is the share of a
 * measured window that the application hart spent waiting for a coprocessor. */
uint64_t bench_coproc_busy(void)
{
	if (bench.variant_user || !&pt_ncoprocs || !pt_coprocs)
		return 0;
	uint64_t b = 0;
	for (uint32_t i = 0; i < pt_ncoprocs; i++)
		b += __atomic_load_n(&pt_coprocs[i]->busy_cycles, __ATOMIC_RELAXED);
	return b;
}

struct bench_shared bench;

static const char *const op_names[OP_COUNT] = {
	[OP_YIELD] = "yield",
	[OP_CREATE] = "create", [OP_CREATE_D] = "create",
	[OP_DELETE] = "delete", [OP_DELETE_D] = "delete",
	[OP_SUSPEND] = "suspend", [OP_SUSPEND_D] = "suspend",
	[OP_RESUME] = "resume", [OP_RESUME_D] = "resume",
	[OP_SETPRIO] = "set_priority", [OP_SETPRIO_D] = "set_priority",
	[OP_SETPRIO_SELF_D] = "set_priority_self",
	[OP_SEM_D] = "sem_give_wake",
	[OP_MQ_D] = "mq_send_wake",
	[OP_TIMER] = "timer_to_thread",
	[OP_IPI] = "ipi_wake",
};

static const uint8_t op_dispatch[OP_COUNT] = {
	[OP_YIELD] = 1, [OP_CREATE_D] = 1, [OP_DELETE_D] = 1, [OP_SUSPEND_D] = 1,
	[OP_RESUME_D] = 1, [OP_SETPRIO_D] = 1, [OP_SETPRIO_SELF_D] = 1, [OP_SEM_D] = 1,
	[OP_MQ_D] = 1, [OP_TIMER] = 1, [OP_IPI] = 1,
};

void bench_record(enum bench_op op, uint64_t t1)
{
	struct bench_stat *s = &bench.stat[op];
	/* the timer sample is relative to the armed time, with no start reading to remove */
	uint64_t d = op == OP_TIMER ? t1 - bench.t0 : t1 - bench.t0 - bench.overhead;
	if (s->skip) {
		s->skip--;
		return;
	}
	if (!s->n || d < s->min)
		s->min = d;
	if (!s->n || d > s->max)
		s->max = d;
	s->n++;
	s->sum += d;
	s->sumsq += d * d;
	s->cp_sum += bench_coproc_busy() - bench.cp0;
}

void bench_reset(void)
{
	for (int i = 0; i < OP_COUNT; i++) {
		bench.stat[i].n = 0;
		bench.stat[i].min = bench.stat[i].max = 0;
		bench.stat[i].sum = bench.stat[i].sumsq = bench.stat[i].cp_sum = 0;
		bench.stat[i].skip = BENCH_WARMUP;
	}
}

void bench_settle(void)
{
	/* Spin until the timer horizon interrupt has passed (a jump in the cycle counter far
	 * larger than one turn of this loop); the next one is then 50 us away. Spinning, not
	 * sleeping: a sleep would let the helper threads run and change their state. */
	uint64_t prev = bench_now();
	for (;;) {
		uint64_t now = bench_now();
		if (now - prev > 100)
			return;
		prev = now;
	}
}

void bench_settle_sleep(void)
{
	pt_sleep_ns(2000);
}

void bench_measure_overhead(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a, b;
		/* exactly bench_start() followed by bench_stop()'s reading */
		__asm__ volatile("rdcycle %0\n\tsd %0, 0(%2)\n\trdcycle %1"
				 : "=&r"(a), "=&r"(b)
				 : "r"(&bench.t0)
				 : "memory");
		if (b - a < best)
			best = b - a;
	}
	bench.overhead = best;
	char buf[48];
	int n = 0;
	pt_ufmt_str(buf, &n, "BENCH-OVERHEAD ");
	pt_ufmt_u64(buf, &n, best);
	buf[n++] = '\n';
	pt_console_write(buf, (size_t)n);
}

void bench_report(enum bench_op op, unsigned threads)
{
	const struct bench_stat *s = &bench.stat[op];
	char b[224];
	int n = 0;
	pt_ufmt_str(b, &n, "BENCH ");
	pt_ufmt_str(b, &n, op_names[op]);
	pt_ufmt_str(b, &n, bench.variant_user == 2 ? " freertos threads="
			   : bench.variant_user ? " user threads=" : " kernel threads=");
	pt_ufmt_u64(b, &n, threads);
	pt_ufmt_str(b, &n, op_dispatch[op] ? " dispatch=1 min=" : " dispatch=0 min=");
	pt_ufmt_u64(b, &n, s->min);
	pt_ufmt_str(b, &n, " max=");
	pt_ufmt_u64(b, &n, s->max);
	pt_ufmt_str(b, &n, " n=");
	pt_ufmt_u64(b, &n, s->n);
	pt_ufmt_str(b, &n, " sum=");
	pt_ufmt_u64(b, &n, s->sum);
	pt_ufmt_str(b, &n, " sumsq=");
	pt_ufmt_u64(b, &n, s->sumsq);
	pt_ufmt_str(b, &n, " cp=");
	pt_ufmt_u64(b, &n, s->cp_sum);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

/* ---- fillers: even ones ready (spinning, so a timer or IPI always interrupts a running
 * thread), odd ones suspended; each at its own level below every thread taking part ---- */

static int fillers[BENCH_MAX_FILLERS];
static unsigned nfillers;

static void filler_spin(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

void bench_fillers_grow(unsigned n, int16_t sched, int16_t cpu)
{
	while (nfillers < n && nfillers < BENCH_MAX_FILLERS) {
		struct pt_thread_attr a = {
			.name = "filler", .entry = filler_spin, .arg = 0,
			.priority = (uint16_t)(BENCH_PRIO_FILLER + nfillers),
			.cpu = cpu, .sched = sched, .kind = 0, .stack_bytes = 4096,
		};
		int tid = pt_thread_create(&a);
		if (tid <= 0) {
			pt_usay("BENCH-ERROR filler create failed\n");
			return;
		}
		if (nfillers & 1)
			pt_thread_suspend(tid);
		fillers[nfillers++] = tid;
	}
}

void bench_fillers_clear(void)
{
	while (nfillers)
		pt_thread_delete(fillers[--nfillers]);
}

/* ---- drivers ---- */

const unsigned bench_thread_counts[BENCH_NCOUNTS] = { 1, 8, 32, 64 };

/* Single-core driver (one hart): arg 0 = kernel variant, 1 = user variant (must match the
 * partition it runs in; the label only). */
void bench_main(void *arg)
{
	bench.variant_user = arg != 0;
	bench.driver_tid = pt_thread_self();
	bench.sem = pt_sem_create(0, 1);
	bench.mq = pt_mq_create(8, 4);
	if (bench.sem < 0 || bench.mq < 0)
		pt_usay("BENCH-ERROR object create failed\n");
	bench_measure_overhead();
	for (unsigned i = 0; i < BENCH_NCOUNTS; i++) {
		bench_fillers_grow(bench_thread_counts[i], -1, -1);
		bench_reset();
		bench_run_core_ops(bench_thread_counts[i]);
		bench_run_timer(bench_thread_counts[i]);
	}
	bench_fillers_clear();
	pt_usay("BENCH-END\n");
}
