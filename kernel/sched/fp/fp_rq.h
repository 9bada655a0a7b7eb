/*
 * Fixed-priority ready queue operations, inline: kernel/sched/fp/fp.c wraps them in the ops
 * table, and the scheduler core calls them directly for an FP instance (sched->fp), which
 * saves an indirect call and a frame per operation on every switch.
 *
 * Ready structure (struct pt_fp_rq): one FIFO list per level plus a two-level bitmap.
 * Invariants, kept by every operation:
 *   - bit p of bitmap[p / 64] is set  <=>  level[p] is non-empty;
 *   - bit w of top is set             <=>  bitmap[w] != 0;
 *   - a queued entity's fp_level is the level list it is on.
 * So the best level is ctz(bitmap[ctz(top)]) + 64 * ctz(top): peek, enqueue and dequeue are
 * constant time, with no loop over levels or threads.
 */
#ifndef PARTITA_SCHED_FP_RQ_H
#define PARTITA_SCHED_FP_RQ_H

#include "../sched.h"

/* The FP ready structure (invariants above). */
struct pt_fp_rq {
	/* bit p set iff level[p] is non-empty; the extra last word is a constant 1, a sentinel
	 * "level PT_PRIO_LEVELS" that makes the best level branch-free */
	uint64_t bitmap[PT_PRIO_LEVELS / 64 + 1];
	uint64_t top;                         /* bit w set iff bitmap[w] != 0 */
	struct pt_list level[PT_PRIO_LEVELS];
};

/* An FP instance's context: the ready structure, then the round-robin quantum state (an FP
 * instance owns one cpu). */
struct pt_fp_ctx {
	struct pt_fp_rq rq;
	uint64_t slice_end_cycles; /* end of the running entity's quantum; UINT64_MAX: none */
};
PT_SCHED_CTX_FITS(struct pt_fp_ctx);

static inline struct pt_fp_rq *pt_fp_rq_of(struct pt_sched *s)
{
	return &PT_SCHED_CTX(s, struct pt_fp_ctx)->rq;
}

#if defined(__riscv_zbb)
/* One instruction (Zbb `ctz`): mk/kernel.mk builds the kernel with Zbb. */
static inline unsigned pt_fp_ctz(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
#else
/* Without Zbb (host unit tests, the freestanding check): a de Bruijn multiply, not a libgcc
 * call, so the cost is the same instruction count for every level. x != 0. */
extern const uint8_t pt_fp_debruijn64[64];
static inline unsigned pt_fp_ctz(uint64_t x)
{
	return pt_fp_debruijn64[((x & -x) * 0x022fdd63cc95386dull) >> 58];
}
#endif

static inline unsigned pt_fp_level_of(const struct pt_sched_entity *e)
{
	/* Priorities above the last level are treated as the lowest. */
	return e->prio < PT_PRIO_LEVELS ? e->prio : PT_PRIO_LEVELS - 1;
}

static inline void pt_fp_mark(struct pt_fp_rq *rq, unsigned p)
{
	rq->bitmap[p >> 6] |= 1ull << (p & 63);
	rq->top |= 1ull << (p >> 6);
}

/* e becomes ready: tail of its level (FIFO among equals). */
static inline void pt_fp_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(s);
	unsigned p = pt_fp_level_of(e);

	e->seq = s->next_seq++;
	e->fp_level = (uint8_t)p;
	pt_list_add_tail(&rq->level[p], &e->node);
	e->on_rq = 1;
	pt_fp_mark(rq, p);
}

/* e was preempted: head of its level (it keeps its place). */
static inline void pt_fp_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(s);
	unsigned p = pt_fp_level_of(e);

	e->fp_level = (uint8_t)p;
	pt_list_add_head(&rq->level[p], &e->node);
	e->on_rq = 1;
	pt_fp_mark(rq, p);
}

/* The level comes from fp_level, recorded at enqueue: the core may already have changed the
 * priority (key_changed) when it removes the entity. */
static inline void pt_fp_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(s);
	unsigned p = e->fp_level;

	if (!e->on_rq)
		return;
	pt_list_del(&e->node);
	e->on_rq = 0;
	if (pt_list_empty(&rq->level[p])) {
		rq->bitmap[p >> 6] &= ~(1ull << (p & 63));
		if (rq->bitmap[p >> 6] == 0)
			rq->top &= ~(1ull << (p >> 6));
	}
}

static inline struct pt_sched_entity *pt_fp_peek(struct pt_sched *s)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(s);

	if (rq->top == 0)
		return 0;
	unsigned w = pt_fp_ctz(rq->top);
	unsigned p = (w << 6) + pt_fp_ctz(rq->bitmap[w]);
	return pt_container_of(rq->level[p].next, struct pt_sched_entity, node);
}

/* The best queued level, PT_PRIO_LEVELS if the queue is empty: the same instructions either
 * way (the sentinel word bitmap[PT_PRIO_LEVELS / 64] == 1), so a decision taken on it costs
 * the same with 1 or 64 threads present. */
static inline unsigned pt_fp_best_level(const struct pt_fp_rq *rq)
{
	unsigned w = pt_fp_ctz(rq->top | (1ull << (PT_PRIO_LEVELS / 64)));
	return (w << 6) + pt_fp_ctz(rq->bitmap[w]);
}

static inline bool pt_fp_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return pt_fp_level_of(a) < pt_fp_level_of(b);
}

#endif
