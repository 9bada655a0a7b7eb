/*
 * Global EDF over a cluster of cpus: one ready queue for the whole instance, jobs migrate
 * to whichever cpu the core dispatches them on. The ordered structure is the EDF red-black
 * tree (../edf/edf_rq.c), used here twice over:
 *   - ctx->global     entities that may run on any cpu of the cluster;
 *   - ctx->pinned[c]  entities with pinned_cpu == c (c in the instance).
 * peek(cpu) = earlier of global.first and pinned[cpu].first: O(1) regardless of how many
 * entities are pinned elsewhere. enqueue/dequeue/key_changed O(log n).
 * preempt_cpu: lowest-index idle allowed cpu, else the allowed cpu whose running entity is
 * last in (abs_deadline, seq, tid) order, if the new deadline is strictly earlier; on equal
 * running keys the lower cpu index wins. The core sends the IPI.
 */
#include "gedf.h"

#define CTX(s) PT_SCHED_CTX(s, struct pt_gedf_ctx)

static struct pt_edf_rq *gedf_tree_for(struct pt_sched *s, const struct pt_sched_entity *e)
{
	int16_t c = e->pinned_cpu;

	if (c >= 0 && c < PT_MAX_CPUS && (s->cpu_mask >> c & 1))
		return &CTX(s)->pinned[c];
	return &CTX(s)->global; /* unpinned, or pinned outside the instance: any cpu */
}

/* The tree e is in, found from the tree itself (e->pinned_cpu may have changed since). */
static struct pt_edf_rq *gedf_tree_holding(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_sched_entity *root = pt_edf_rq_root_of(e);

	if (CTX(s)->global.root == root)
		return &CTX(s)->global;
	for (int c = 0; c < PT_MAX_CPUS; c++)
		if (CTX(s)->pinned[c].root == root)
			return &CTX(s)->pinned[c];
	return 0;
}

static void gedf_init(struct pt_sched *s)
{
	pt_edf_rq_init(&CTX(s)->global);
	for (int c = 0; c < PT_MAX_CPUS; c++)
		pt_edf_rq_init(&CTX(s)->pinned[c]);
}

static void gedf_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	e->seq = s->next_seq++;
	pt_edf_rq_insert(gedf_tree_for(s, e), e);
}

static void gedf_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	pt_edf_rq_insert(gedf_tree_for(s, e), e);
}

static void gedf_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_edf_rq *rq;

	if (!e->on_rq)
		return;
	rq = gedf_tree_holding(s, e);
	if (rq)
		pt_edf_rq_remove(rq, e);
}

static struct pt_sched_entity *gedf_peek(struct pt_sched *s, uint32_t cpu)
{
	struct pt_sched_entity *g = pt_edf_rq_first(&CTX(s)->global), *p;

	if (cpu >= PT_MAX_CPUS)
		return g;
	p = pt_edf_rq_first(&CTX(s)->pinned[cpu]);
	if (!g)
		return p;
	if (!p)
		return g;
	return pt_edf_key_cmp(p, g) < 0 ? p : g;
}

static int gedf_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return a->abs_deadline < b->abs_deadline ? -1 : a->abs_deadline > b->abs_deadline;
}

/* A job's key is its absolute deadline; every job is ready at its release. */
static bool gedf_on_release(struct pt_sched *s, struct pt_sched_entity *e, uint64_t release,
			   uint64_t deadline)
{
	(void)s, (void)release;
	e->abs_deadline = deadline;
	return true;
}

static bool gedf_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return a->abs_deadline < b->abs_deadline;
}

static int gedf_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	return pt_edf_preempt_cpu(s, e, true);
}

static void gedf_key_changed(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (!e->on_rq)
		return;
	gedf_dequeue(s, e);
	gedf_enqueue(s, e);
}

const struct pt_sched_ops pt_sched_gedf_ops = {
	.name = "gedf",
	.init = gedf_init,
	.enqueue = gedf_enqueue,
	.enqueue_head = gedf_enqueue_head,
	.dequeue = gedf_dequeue,
	.peek = gedf_peek,
	.preempts = gedf_preempts,
	.preempt_cpu = gedf_preempt_cpu,
	.key_changed = gedf_key_changed,
	.key_cmp = gedf_key_cmp,
	.on_release = gedf_on_release,
};
