/*
 * Host harness of the kernel-core tests: the real scheduler core, job, time, sync and trace
 * code over the fake HAL. A context switch is recorded in `sw_log` ("from>to ") and returns at
 * once, so a test "is" the current thread when it calls a kernel entry point on its behalf.
 */
#ifndef PARTITA_TESTS_CORE_HARNESS_H
#define PARTITA_TESTS_CORE_HARNESS_H
#include "core/kernel.h"
#include "fake_hal.h"

extern struct pt_cpu *C;     /* the cpu under test (cpu 0) */
extern struct pt_sched *S;   /* its scheduler instance */
extern struct pt_sched_cfg sched_cfg[1];
extern char sw_log[512];     /* "from>to " per context switch */
extern int stops, restarts;  /* pt_thread_stop / pt_thread_restart_ctx calls */

/* A thread in pool slot `slot` on S (SUSPENDED; periodic() adds period, deadline, wcet). */
struct pt_thread *thread(int slot, const char *name, uint16_t prio, uint8_t kind);
struct pt_thread *periodic(int slot, const char *name, uint16_t prio, uint64_t period,
			   uint64_t deadline, uint64_t wcet);
/* Reset everything; cpu 0 runs its idle thread on one instance of `policy` (quantum in
 * cycles, FP only). */
void boot(uint8_t policy, uint64_t quantum);
void at(uint64_t cycles);              /* set the clock */
void wake(struct pt_thread *t);        /* make t ready, then the preemption point */
void tick(uint64_t cycles);            /* the timer interrupt at `cycles` and its exit */
/* arg0 of the trace records of `type`, in order (at most max); returns how many there are. */
int trace_args(uint16_t type, uint64_t *arg0, int max);

#endif
