/* The offloaded fixed-priority policy (kernel/sched/offload/offload.c); its ops table is
 * pt_sched_offload_ops, its coprocessor's service pt_schedsvc (schedsvc.h). */
#ifndef PARTITA_SCHED_OFFLOAD_H
#define PARTITA_SCHED_OFFLOAD_H

#include <stdint.h>

struct pt_sched;

/* Commands the instance has posted to its coprocessor (benchmark figures). */
uint64_t pt_offload_commands(struct pt_sched *s);

/* The image's priority order for offload instances: 1 = 255 is the highest. */
extern uint8_t pt_offload_high_first;

#endif
