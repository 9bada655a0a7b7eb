/*
 * The scheduler coprocessor's service (schedsvc.c): a struct pt_coproc_service over the
 * commands of <partita/coproc_sched.h>. Pure C (stdint only, no kernel header beyond the two
 * protocol headers), so the same file runs on a service hart, inline, on the host (unit and
 * property tests) and inside QEMU's device model.
 */
#ifndef PARTITA_SCHED_OFFLOAD_SCHEDSVC_H
#define PARTITA_SCHED_OFFLOAD_SCHEDSVC_H

#include <stdint.h>
#include <partita/coproc.h>
#include <partita/coproc_sched.h>

/* One thread record of a slot. */
struct pt_schedsvc_thread {
	uint16_t next, prev; /* FIFO links of its level (handles), PT_SCHEDSVC_NONE at the ends */
	uint8_t state;       /* enum pt_schedsvc_thread_state */
	uint8_t prio;        /* configured priority */
	uint8_t level;       /* prio in the coprocessor's order: 0 = most urgent */
	uint8_t pad;
	uint64_t tag;
};

/* One client slot's ready structure. Invariants (kept by every command):
 *   - bit l of bitmap[l / 64] set  <=>  level l's FIFO is non-empty;
 *   - bit w of top set             <=>  bitmap[w] != 0;
 *   - a thread is on its level's FIFO  <=>  its state is READY; nready counts them. */
struct pt_schedsvc_slot {
	uint64_t bitmap[PT_SCHEDSVC_LEVELS / 64];
	uint64_t top;
	uint32_t nready;
	uint32_t pad;
	uint16_t head[PT_SCHEDSVC_LEVELS], tail[PT_SCHEDSVC_LEVELS];
	struct pt_schedsvc_thread t[PT_SCHEDSVC_MAX_THREADS];
};

struct pt_schedsvc_state {
	uint32_t nclients;
	uint8_t high_first;
	struct pt_schedsvc_slot slot[PT_COPROC_MAX_CLIENTS];
};

extern const struct pt_coproc_service pt_schedsvc;

/* The best ready handle of a slot (PT_SCHEDSVC_NONE if none): the published "next". */
uint32_t pt_schedsvc_next(const struct pt_schedsvc_state *st, uint32_t client);

#endif
