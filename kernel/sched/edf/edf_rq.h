/*
 * The EDF ready structure, shared by the EDF and G-EDF policies: an intrusive red-black tree
 * over pt_sched_entity.{left,right,parent,rb_color}, ordered by the key (abs_deadline, seq, tid),
 * with the minimum cached in `first`.
 *
 *   insert, remove: O(log n) (one descent + at most 3 rotations / O(log n) recolourings);
 *   first:          O(1);
 * The key is a total order (tid is unique), so the tree has no duplicates and every choice
 * among equal deadlines is deterministic: earlier seq (enqueued earlier) first, then lower tid.
 */
#ifndef PARTITA_SCHED_EDF_RQ_H
#define PARTITA_SCHED_EDF_RQ_H

#include <stdint.h>
#include <stdbool.h>
#include "../sched.h"

struct pt_edf_rq {
	struct pt_sched_entity *root;  /* ordered by (abs_deadline, seq, tid) */
	struct pt_sched_entity *first; /* cached minimum: peek is O(1) */
	uint32_t count;
};

/* <0, 0, >0 as a is before, the same as, after b in (abs_deadline, seq, tid) order. */
static inline int pt_edf_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	if (a->abs_deadline != b->abs_deadline)
		return a->abs_deadline < b->abs_deadline ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return 0;
}

void pt_edf_rq_init(struct pt_edf_rq *rq);
void pt_edf_rq_insert(struct pt_edf_rq *rq, struct pt_sched_entity *e);
void pt_edf_rq_remove(struct pt_edf_rq *rq, struct pt_sched_entity *e);
static inline struct pt_sched_entity *pt_edf_rq_first(const struct pt_edf_rq *rq)
{
	return rq->first;
}
/* In-order successor; NULL after the last. */
struct pt_sched_entity *pt_edf_rq_next(const struct pt_sched_entity *e);
/* Root of the tree that holds e (walks parent links; O(log n)). */
struct pt_sched_entity *pt_edf_rq_root_of(struct pt_sched_entity *e);

/*
 * The EDF preemption rule shared by EDF and G-EDF: the lowest-index idle cpu of the instance
 * (among e's allowed cpus); else the cpu whose running entity is last in key order, if e's
 * deadline is strictly earlier than that entity's; else -1. `honour_pin`: restrict to
 * e->pinned_cpu when it is set (G-EDF); a one-cpu EDF instance ignores pinning.
 */
int pt_edf_preempt_cpu(const struct pt_sched *s, const struct pt_sched_entity *e, bool honour_pin);

/*
 * Unit tests define PT_SCHED_COUNT_STEPS to count loop iterations (descent, fix-up, successor)
 * and check the O(log n) shape; the kernel build does not.
 */
#ifdef PT_SCHED_COUNT_STEPS
extern uint64_t pt_edf_steps;
#endif

#endif
