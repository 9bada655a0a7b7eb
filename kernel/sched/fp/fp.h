/* Fixed-priority preemptive policy (kernel/sched/fp/fp.c); the ops table is pt_sched_fp_ops. */
#ifndef PARTITA_SCHED_FP_H
#define PARTITA_SCHED_FP_H

#include <stdint.h>

/* Index of the lowest set bit of x (x != 0), constant time without libgcc. */
unsigned pt_fp_ctz64(uint64_t x);

#endif
