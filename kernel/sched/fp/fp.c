/*
 * Fixed-priority preemptive policy: 256 levels (0 highest), FIFO among equals.
 *
 * Ready structure (struct pt_fp_rq): one FIFO list per level plus a two-level bitmap.
 * Invariants, kept by every operation:
 *   - bit p of bitmap[p / 64] is set  <=>  level[p] is non-empty;
 *   - bit w of top is set             <=>  bitmap[w] != 0.
 * So the best level is ctz(bitmap[ctz(top)]) + 64 * ctz(top): peek, enqueue and dequeue are
 * constant time, with no loop over levels or threads. ctz is a de Bruijn multiply, not a
 * libgcc call, so the cost is the same instruction count on every hart and for every level.
 *
 * The round-robin slice (s->rr_slice_cycles) is accounted by the core: when a slice expires
 * it calls dequeue + enqueue (tail of the level); a preempted thread comes back by
 * enqueue_head and keeps its place.
 */
#include "../sched.h"
#include "fp.h"

static const uint8_t debruijn64_index[64] = {
	0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
	62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
	63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
	51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};

/* Index of the lowest set bit of x; x != 0. */
static inline unsigned ctz64(uint64_t x)
{
	return debruijn64_index[((x & -x) * 0x022fdd63cc95386dull) >> 58];
}

unsigned pt_fp_ctz64(uint64_t x) { return ctz64(x); }

static inline unsigned fp_level(const struct pt_sched_entity *e)
{
	/* Priorities above the last level are treated as the lowest. */
	return e->prio < PT_PRIO_LEVELS ? e->prio : PT_PRIO_LEVELS - 1;
}

static void fp_init(struct pt_sched *s)
{
	struct pt_fp_rq *rq = &s->rq.fp;

	for (unsigned w = 0; w < PT_PRIO_LEVELS / 64; w++)
		rq->bitmap[w] = 0;
	rq->top = 0;
	for (unsigned p = 0; p < PT_PRIO_LEVELS; p++)
		pt_list_init(&rq->level[p]);
}

static inline void fp_mark(struct pt_fp_rq *rq, unsigned p)
{
	rq->bitmap[p >> 6] |= 1ull << (p & 63);
	rq->top |= 1ull << (p >> 6);
}

static void fp_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = &s->rq.fp;
	unsigned p = fp_level(e);

	e->seq = s->next_seq++;
	pt_list_add_tail(&rq->level[p], &e->node);
	e->on_rq = 1;
	fp_mark(rq, p);
}

static void fp_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = &s->rq.fp;
	unsigned p = fp_level(e);

	pt_list_add_head(&rq->level[p], &e->node);
	e->on_rq = 1;
	fp_mark(rq, p);
}

/* The level list a node's neighbour belongs to, if that neighbour is a list head. */
static inline int fp_head_index(const struct pt_fp_rq *rq, const struct pt_list *n)
{
	uintptr_t a = (uintptr_t)n, lo = (uintptr_t)&rq->level[0];
	uintptr_t hi = (uintptr_t)&rq->level[PT_PRIO_LEVELS];

	if (a < lo || a >= hi)
		return -1;
	return (int)((a - lo) / sizeof(struct pt_list));
}

static void fp_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = &s->rq.fp;
	struct pt_list *prev;
	int p;

	if (!e->on_rq)
		return;
	/*
	 * Find the level from the list itself, not from e->prio: the core may already have
	 * changed the priority (key_changed) when it removes the entity. If e was alone on
	 * its level, its predecessor is the level head.
	 */
	prev = e->node.prev;
	pt_list_del(&e->node);
	e->on_rq = 0;
	p = fp_head_index(rq, prev);
	if (p >= 0 && pt_list_empty(&rq->level[p])) {
		rq->bitmap[p >> 6] &= ~(1ull << (p & 63));
		if (rq->bitmap[p >> 6] == 0)
			rq->top &= ~(1ull << (p >> 6));
	}
}

static struct pt_sched_entity *fp_peek(struct pt_sched *s, uint32_t cpu)
{
	struct pt_fp_rq *rq = &s->rq.fp;
	unsigned w, p;

	(void)cpu; /* an FP instance owns one cpu */
	if (rq->top == 0)
		return 0;
	w = ctz64(rq->top);
	p = (w << 6) + ctz64(rq->bitmap[w]);
	return pt_container_of(rq->level[p].next, struct pt_sched_entity, node);
}

static bool fp_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return fp_level(a) < fp_level(b);
}

static int fp_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	const struct pt_sched_entity *r;
	int cpu;

	if (s->cpu_mask == 0)
		return -1;
	cpu = (int)ctz64(s->cpu_mask);
	r = s->running[cpu];
	if (r == 0 || fp_preempts(e, r))
		return cpu;
	return -1;
}

/* New priority: a queued entity moves to the tail of its new level (POSIX set-priority). */
static void fp_key_changed(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (!e->on_rq)
		return;
	fp_dequeue(s, e);
	fp_enqueue(s, e);
}

const struct pt_sched_ops pt_sched_fp_ops = {
	.name = "fp",
	.init = fp_init,
	.enqueue = fp_enqueue,
	.enqueue_head = fp_enqueue_head,
	.dequeue = fp_dequeue,
	.peek = fp_peek,
	.preempts = fp_preempts,
	.preempt_cpu = fp_preempt_cpu,
	.key_changed = fp_key_changed,
};
