/*
 * Kernel micro-benchmarks (`make bench`, docs/benchmarks.md). The same code runs as kernel
 * threads (S-mode, direct calls) and as user threads (U-mode, every call an `ecall`): the
 * variant is the partition of the driver thread named in the configuration.
 *
 * Method (the one the FreeRTOS reference used): read the cycle counter just before the call
 * (bench_start), read it again at the first instruction of the thread that runs afterwards,
 * or right after the call returns when nothing is dispatched (bench_stop), and subtract the
 * cost of the reading itself, measured back to back (bench_overhead). Under icount shift 0 on
 * one hart, cycles are instructions, so the minimum and the maximum over the repetitions
 * must be equal; both are reported.
 *
 * Results leave the guest as console lines, one per (operation, thread count):
 *   BENCH <op> <variant> threads=<N> dispatch=<0|1> min=<c> max=<c> n=<reps>
 * plus `BENCH-OVERHEAD <c>` and `BENCH-END` (parsed by tools/partita/bench/bench.py); the timer
 * benchmark also leaves trace marks (below).
 */
#ifndef APPS_BENCH_H
#define APPS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <partita/api.h>
#include <partita/sync.h>

#include "../lib/ufmt.h"

/* Priorities (FP, 0 highest). The driver runs at BENCH_PRIO; helpers above or below it;
 * the filler threads (the "threads present") below every thread taking part. */
#define BENCH_PRIO 50
#define BENCH_PRIO_HIGH 40
#define BENCH_PRIO_LOW 60
#define BENCH_PRIO_FILLER 100 /* fillers use 100 .. 100 + BENCH_MAX_FILLERS - 1 */

#define BENCH_MAX_FILLERS 64
#define BENCH_REPS 16   /* measured repetitions per (operation, thread count) */
#define BENCH_WARMUP 2  /* first samples dropped: first run of a thread takes another path */

/* Trace marks (pt_trace_mark a0): BENCH_MARK_TIMER carries the armed wake-up time in a1,
 * so the host can find the timer interrupt's IRQ_ENTER record that follows it. */
#define BENCH_MARK_TIMER 0xbe4c0000u /* + thread count; a1 = wake-up time T */
#define BENCH_MARK_WAKE 0xbe4d0000u  /* + thread count; a1 = driver's wake-up minus T */
#define BENCH_MARK_CAL 0xbe4e0000u   /* calibration samples (+ 0x10000 after the wake-up) */

enum bench_op {
	OP_YIELD,
	OP_CREATE, OP_CREATE_D,
	OP_DELETE, OP_DELETE_D,
	OP_SUSPEND, OP_SUSPEND_D,
	OP_RESUME, OP_RESUME_D,
	OP_SETPRIO, OP_SETPRIO_D, OP_SETPRIO_SELF_D,
	OP_SEM_D,
	OP_MQ_D,
	OP_TIMER,
	OP_IPI,
	OP_COUNT
};

struct bench_stat {
	uint64_t min, max;
	uint32_t n, skip;
	/* mean and standard deviation on the host; cp_sum: cycles the coprocessor harts were
	 * awake during the samples (0 without a scheduler coprocessor, docs/offload.md) */
	uint64_t sum, sumsq, cp_sum;
};

/* Shared by every benchmark thread (user window data: same pages in every partition). */
struct bench_shared {
	volatile uint64_t t0;       /* written by bench_start */
	uint64_t overhead;          /* cost of bench_start + bench_stop back to back */
	struct bench_stat stat[OP_COUNT];
	int driver_tid;
	int sem, sem_reply, mq;     /* object ids, created once per boot */
	int variant_user;           /* 0 kernel, 1 user, 2 the FreeRTOS API (compat/bench/freertos) */
	uint64_t cp0;               /* coprocessor harts' awake cycles at the last settle */
};
extern struct bench_shared bench;

static inline __attribute__((always_inline)) uint64_t bench_now(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c)::"memory");
	return c;
}

uint64_t bench_coproc_busy(void);

/* Timestamp just before the measured call: read and publish in two instructions (the
 * coprocessor counter before it, outside the window). */
static inline __attribute__((always_inline)) void bench_start(void)
{
	uint64_t c;
	bench.cp0 = bench_coproc_busy();
	__asm__ volatile("rdcycle %0\n\tsd %0, 0(%1)" : "=&r"(c) : "r"(&bench.t0) : "memory");
}

/* Sample of `op`: now minus the published start, minus the reading cost. */
void bench_record(enum bench_op op, uint64_t t1);
static inline __attribute__((always_inline)) void bench_stop(enum bench_op op)
{
	bench_record(op, bench_now());
}

void bench_reset(void);
/* Before each repetition: wait until the hart's timer horizon interrupt has passed
 * (arch/riscv64/hal.c arms the timer at most 50 us ahead and re-arms it on every expiry and
 * every switch), so that no horizon interrupt lands inside the measured window. */
void bench_settle(void);
/* The same by a 2 us sleep (re-arms the horizon by switching away and back); only where no
 * helper thread could run meanwhile (the IPI benchmark's cpu 0). */
void bench_settle_sleep(void);
void bench_report(enum bench_op op, unsigned threads);
void bench_measure_overhead(void);

/* The "threads present" of every measurement (the issue asks for 1, 8, 32 and 64). */
#define BENCH_NCOUNTS 4
extern const unsigned bench_thread_counts[BENCH_NCOUNTS];

/* Filler threads: the "threads present" that take no part in the operation. */
void bench_fillers_grow(unsigned n, int16_t sched, int16_t cpu);
void bench_fillers_clear(void);

/* The single-core operations (bench_ops.c), each run BENCH_WARMUP + BENCH_REPS times. */
void bench_run_core_ops(unsigned threads);
void bench_run_timer(unsigned threads);

#endif
