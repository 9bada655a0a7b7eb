/*
 * EDF on one cpu (P-EDF is this policy on each cpu plus off-line partitioning in
 * `partita config`). Ready structure: the red-black tree of edf_rq.c, the
 * instance's whole context (struct pt_edf_rq in s->ctx).
 *   enqueue/dequeue/key_changed O(log n), peek O(1) (cached minimum).
 * Preemption needs a strictly earlier deadline: equal deadlines never preempt each other,
 * they run in FIFO order (seq), ties broken by tid.
 */
#include "edf_rq.h"

PT_SCHED_CTX_FITS(struct pt_edf_rq);
#define RQ(s) PT_SCHED_CTX(s, struct pt_edf_rq)

static void edf_init(struct pt_sched *s)
{
	pt_edf_rq_init(RQ(s));
}

static void edf_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	e->seq = s->next_seq++;
	pt_edf_rq_insert(RQ(s), e);
}

/* A preempted entity keeps its seq, hence its place before equals enqueued after it. */
static void edf_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	pt_edf_rq_insert(RQ(s), e);
}

static void edf_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (e->on_rq)
		pt_edf_rq_remove(RQ(s), e);
}

static struct pt_sched_entity *edf_peek(struct pt_sched *s, uint32_t cpu)
{
	(void)cpu;
	return pt_edf_rq_first(RQ(s));
}

static int edf_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return a->abs_deadline < b->abs_deadline ? -1 : a->abs_deadline > b->abs_deadline;
}

/* A job's key is its absolute deadline; every job is ready at its release. */
static bool edf_on_release(struct pt_sched *s, struct pt_sched_entity *e, uint64_t release,
			   uint64_t deadline)
{
	(void)s, (void)release;
	e->abs_deadline = deadline;
	return true;
}

static bool edf_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return a->abs_deadline < b->abs_deadline;
}

static int edf_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	return pt_edf_preempt_cpu(s, e, false);
}

/* New deadline of a queued entity: re-insert behind its new equals (as FP does). */
static void edf_key_changed(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (!e->on_rq)
		return;
	pt_edf_rq_remove(RQ(s), e);
	edf_enqueue(s, e);
}

const struct pt_sched_ops pt_sched_edf_ops = {
	.name = "edf",
	.init = edf_init,
	.enqueue = edf_enqueue,
	.enqueue_head = edf_enqueue_head,
	.dequeue = edf_dequeue,
	.peek = edf_peek,
	.preempts = edf_preempts,
	.preempt_cpu = edf_preempt_cpu,
	.key_changed = edf_key_changed,
	.key_cmp = edf_key_cmp,
	.on_release = edf_on_release,
};
