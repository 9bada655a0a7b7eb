/*
 * Fixed-priority preemptive policy: 256 levels (0 highest), FIFO among equals.
 *
 * The ready structure and its operations are inline in fp_rq.h (the core calls them directly
 * for FP instances); this file is the ops table over them. ctz is Zbb's instruction in the
 * kernel image, a de Bruijn multiply elsewhere (never a libgcc call): the same instruction
 * count on every hart and for every level.
 *
 * Round-robin among equals (s->quantum_cycles != 0) is this policy's timed event: next_event
 * keeps the running entity's quantum (what is left of it travels with the entity while it is
 * preempted), on_event asks the core to rotate it behind its equals when it ends; a preempted
 * thread comes back by enqueue_head and keeps its place.
 */
#include "../sched.h"
#include "fp.h"
#include "fp_rq.h"

const uint8_t pt_fp_debruijn64[64] = {
	0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
	62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
	63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
	51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};

unsigned pt_fp_ctz64(uint64_t x) { return pt_fp_ctz(x); }

static void fp_init(struct pt_sched *s)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(s);

	for (unsigned w = 0; w < PT_PRIO_LEVELS / 64; w++)
		rq->bitmap[w] = 0;
	rq->bitmap[PT_PRIO_LEVELS / 64] = 1; /* sentinel: pt_fp_best_level of an empty queue */
	rq->top = 0;
	for (unsigned p = 0; p < PT_PRIO_LEVELS; p++)
		pt_list_init(&rq->level[p]);
	PT_SCHED_CTX(s, struct pt_fp_ctx)->slice_end_cycles = UINT64_MAX;
	s->timed = s->quantum_cycles != 0;
}

static void fp_enqueue(struct pt_sched *s, struct pt_sched_entity *e) { pt_fp_enqueue(s, e); }

static void fp_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	pt_fp_enqueue_head(s, e);
}

static void fp_dequeue(struct pt_sched *s, struct pt_sched_entity *e) { pt_fp_dequeue(s, e); }

static struct pt_sched_entity *fp_peek(struct pt_sched *s, uint32_t cpu)
{
	(void)cpu; /* an FP instance owns one cpu */
	return pt_fp_peek(s);
}

static bool fp_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return pt_fp_preempts(a, b);
}

static int fp_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	const struct pt_sched_entity *r;
	int cpu;

	if (s->cpu_mask == 0)
		return -1;
	cpu = (int)pt_fp_ctz(s->cpu_mask);
	r = s->running[cpu];
	if (r == 0 || pt_fp_preempts(e, r))
		return cpu;
	return -1;
}

/* New priority: a queued entity moves to the tail of its new level (POSIX set-priority). */
static void fp_key_changed(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (!e->on_rq)
		return;
	pt_fp_dequeue(s, e);
	pt_fp_enqueue(s, e);
}

static int fp_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	unsigned la = pt_fp_level_of(a), lb = pt_fp_level_of(b);
	return la < lb ? -1 : la > lb;
}

/*
 * The quantum of the entity that runs now (round-robin instances only). prev, switched out,
 * keeps what is left of its quantum (nothing if it ended: rotated or yielded); next continues
 * its quantum, or starts a full one; idle has none.
 */
static uint64_t fp_next_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *prev,
			      struct pt_sched_entity *next, uint32_t flags, uint64_t now)
{
	(void)cpu;
	struct pt_fp_ctx *x = PT_SCHED_CTX(s, struct pt_fp_ctx);
	return pt_sched_rr_switch(s, &x->slice_end_cycles, prev, next, flags, now);
}

/* The running entity's quantum is over: it goes behind its equals (if one is ready). */
static int fp_on_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *running,
		       uint64_t now)
{
	(void)s, (void)cpu, (void)now;
	return running ? PT_SCHED_EV_ROTATE : PT_SCHED_EV_NONE;
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
	.key_cmp = fp_key_cmp,
	.next_event = fp_next_event,
	.on_event = fp_on_event,
};
