/*
 * The offloaded fixed-priority policy (brief 2, RT-SHADOWS): the ready structure lives in the
 * scheduler coprocessor (schedsvc.c behind <partita/coproc.h>); every operation of the ops
 * table posts a command to it and the pick reads its published "next thread" word.
 *
 * Same semantics as in-line FP (fp/): 256 levels, FIFO among equals, a preempted thread back at
 * the head of its level, set-priority moves a queued thread to the tail of its new level,
 * round robin among equals on next_event / on_event (the same quantum bookkeeping). The one
 * addition is the priority order, the coprocessor's `priority_order`: low_first (0 highest,
 * Partita's native order) or high_first (255 highest).
 *
 * Execution model: parallel non-blocking. enqueue / dequeue / key_changed post commands
 * without a reply and return; peek first waits until the coprocessor has served every command
 * this instance posted (the `done` word of its slot), then reads the published word. The
 * instance's lock (held by the core around every call) makes its slot single-producer.
 *
 * Threads are named by handle = tid slot ((tid - 1) % PT_MAX_THREADS), unique among live
 * threads. A handle is CREATEd in the coprocessor on the first enqueue of its thread (with
 * the thread's priority, ready); a slot reused by a new thread is DELETEd and re-created.
 * The priority the coprocessor holds is refreshed lazily: key_changed of a thread that is not
 * queued posts nothing, its next enqueue sends the new priority first.
 */
#include "../sched.h"
#include "offload.h"
#include "schedsvc.h"
#include <partita/limits.h>

/* subsys/coproc provides these; it is linked when the configuration has a `coproc:` section,
 * which `partita config` requires for policy offload. Weak, so that every other image links
 * without it (init refuses to run without them). */
#pragma weak pt_coproc_post_wait
#pragma weak pt_coproc_sync
#pragma weak pt_coproc_sched_binding

/* kernel/core/printk.c (declared here rather than including the core's private header) */
_Noreturn void pt_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

_Static_assert(PT_MAX_THREADS <= PT_SCHEDSVC_MAX_THREADS,
	       "a thread slot must be a scheduler-coprocessor handle");

struct pt_offload_ctx {
	struct pt_coproc *cp;
	uint32_t client;
	uint8_t high_first;
	uint64_t slice_end_cycles; /* end of the running entity's quantum; UINT64_MAX: none */
	/* what the coprocessor knows, by handle: the thread (tid, 0 = none) and its priority */
	uint32_t tid[PT_MAX_THREADS];
	uint8_t prio[PT_MAX_THREADS];
	struct pt_sched_entity *ent[PT_MAX_THREADS];
	uint64_t commands; /* posted, for the benchmark */
};
PT_SCHED_CTX_FITS(struct pt_offload_ctx);

/* preempts / key_cmp have no instance argument, so the order is a property of the image: the
 * configuration has one priority order for all offload instances (partita config checks). */
uint8_t pt_offload_high_first;

static inline struct pt_offload_ctx *ctx_of(struct pt_sched *s)
{
	return PT_SCHED_CTX(s, struct pt_offload_ctx);
}

static inline uint32_t handle_of(const struct pt_sched_entity *e)
{
	return (e->tid - 1) % PT_MAX_THREADS;
}

static inline uint8_t prio_of(const struct pt_sched_entity *e)
{
	/* priorities above the last level are the lowest, as in fp_rq.h */
	return e->prio < PT_PRIO_LEVELS ? (uint8_t)e->prio : PT_PRIO_LEVELS - 1;
}

/* The urgency under the configured order: 0 = most urgent. */
static inline unsigned level_of(uint8_t high_first, const struct pt_sched_entity *e)
{
	unsigned p = prio_of(e);
	return high_first ? PT_PRIO_LEVELS - 1 - p : p;
}

static void post(struct pt_offload_ctx *x, uint16_t op, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3)
{
	struct pt_coproc_req q; /* field by field: no memset in a freestanding kernel */
	q.op = op;
	q.flags = PT_COPROC_F_NOREPLY;
	q.args[0] = a0;
	q.args[1] = a1;
	q.args[2] = a2;
	q.args[3] = a3;
	q.args[4] = 0;
	pt_coproc_post_wait(x->cp, x->client, &q);
	x->commands++;
}

/* Make e ready in the coprocessor: behind its equals, or ahead of them (preempted). */
static void make_ready(struct pt_sched *s, struct pt_sched_entity *e, int at_head)
{
	struct pt_offload_ctx *x = ctx_of(s);
	uint32_t h = handle_of(e);
	uint8_t p = prio_of(e);

	if (x->tid[h] != e->tid) {
		if (x->tid[h])
			post(x, PT_SCHEDSVC_DELETE, h, 0, 0, 0);
		x->tid[h] = e->tid;
		x->ent[h] = e;
		x->prio[h] = p;
		post(x, PT_SCHEDSVC_CREATE, h, p, PT_SCHEDSVC_READY, e->tid);
		/* at the tail: a thread the coprocessor never saw was never preempted */
	} else {
		x->ent[h] = e;
		if (x->prio[h] != p) {
			x->prio[h] = p;
			post(x, PT_SCHEDSVC_SET_PRIO, h, p, 0, 0);
		}
		post(x, at_head ? PT_SCHEDSVC_RESUME_HEAD : PT_SCHEDSVC_RESUME, h, 0, 0, 0);
	}
	e->seq = s->next_seq++;
	e->on_rq = 1;
}

static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static void offload_init(struct pt_sched *s)
{
	struct pt_offload_ctx *x = ctx_of(s);
	const struct pt_coproc_binding *b = 0;
	const char *me = s->id < pt_config.nscheds ? pt_config.scheds[s->id].name : "?";
	if (pt_coproc_sched_binding && pt_coproc_post_wait && pt_coproc_sync)
		for (const struct pt_coproc_binding *i = pt_coproc_sched_binding; i->cp; i++)
			if (same_name(i->sched, me))
				b = i;
	if (!b) /* partita config never builds such an image */
		pt_panic("scheduler %s: policy offload without a scheduler coprocessor (coproc:)\n",
			 me);
	x->cp = b->cp;
	x->client = b->client;
	const struct pt_schedsvc_cfg *cfg = x->cp->svc_cfg;
	x->high_first = cfg ? cfg->high_first : 0;
	pt_offload_high_first = x->high_first; /* one order per image (partita config) */
	for (uint32_t h = 0; h < PT_MAX_THREADS; h++) {
		x->tid[h] = 0;
		x->prio[h] = 0;
		x->ent[h] = 0;
	}
	x->commands = 0;
	x->slice_end_cycles = UINT64_MAX;
	/* the kernel creates threads before the subsystems boot: the rings must exist now */
	if (!__atomic_load_n(&x->cp->booted, __ATOMIC_ACQUIRE)) {
		x->cp->be->boot(x->cp);
		__atomic_store_n(&x->cp->booted, 1, __ATOMIC_RELEASE);
	}
	s->timed = s->quantum_cycles != 0;
}

static void offload_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	make_ready(s, e, 0);
}

static void offload_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	make_ready(s, e, 1);
}

static void offload_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (!e->on_rq)
		return;
	post(ctx_of(s), PT_SCHEDSVC_SUSPEND, handle_of(e), 0, 0, 0);
	e->on_rq = 0;
}

/* The coprocessor's answer once it has served every command of this instance. */
static struct pt_sched_entity *offload_peek(struct pt_sched *s, uint32_t cpu)
{
	(void)cpu; /* an offload instance owns one cpu */
	struct pt_offload_ctx *x = ctx_of(s);
	pt_coproc_sync(x->cp, x->client);
	uint64_t h = x->cp->be->read(x->cp, x->client, PT_SCHEDSVC_PUB_NEXT);
	return h < PT_MAX_THREADS ? x->ent[h] : 0;
}

static bool offload_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b);

static int offload_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	if (s->cpu_mask == 0)
		return -1;
	int cpu = s->fp_cpu; /* the lowest cpu of the mask, set by the core */
	const struct pt_sched_entity *r = s->running[cpu];
	if (r == 0 || level_of(ctx_of(s)->high_first, e) < level_of(ctx_of(s)->high_first, r))
		return cpu;
	return -1;
}

/* New priority: a queued thread goes behind its new equals (the service's SET_PRIO), also
 * when the priority is the same one (as fp_key_changed: the property test holds us to it). */
static void offload_key_changed(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_offload_ctx *x = ctx_of(s);
	uint32_t h = handle_of(e);
	if (!e->on_rq || x->tid[h] != e->tid)
		return;
	x->prio[h] = prio_of(e);
	post(x, PT_SCHEDSVC_SET_PRIO, h, x->prio[h], 0, 0);
	e->seq = s->next_seq++;
}


static bool offload_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return level_of(pt_offload_high_first, a) < level_of(pt_offload_high_first, b);
}

static int offload_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	unsigned la = level_of(pt_offload_high_first, a), lb = level_of(pt_offload_high_first, b);
	return la < lb ? -1 : la > lb;
}

/* Round robin among equals: FP's quantum bookkeeping (fp/fp.c), unchanged. */
static uint64_t offload_next_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *prev,
				   struct pt_sched_entity *next, uint32_t flags, uint64_t now)
{
	(void)cpu;
	struct pt_offload_ctx *x = ctx_of(s);
	return pt_sched_rr_switch(s, &x->slice_end_cycles, prev, next, flags, now);
}

static int offload_on_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *running,
			    uint64_t now)
{
	(void)s, (void)cpu, (void)now;
	return running ? PT_SCHED_EV_ROTATE : PT_SCHED_EV_NONE;
}

uint64_t pt_offload_commands(struct pt_sched *s)
{
	return ctx_of(s)->commands;
}

const struct pt_sched_ops pt_sched_offload_ops = {
	.name = "offload",
	.init = offload_init,
	.enqueue = offload_enqueue,
	.enqueue_head = offload_enqueue_head,
	.dequeue = offload_dequeue,
	.peek = offload_peek,
	.preempts = offload_preempts,
	.preempt_cpu = offload_preempt_cpu,
	.key_changed = offload_key_changed,
	.key_cmp = offload_key_cmp,
	.next_event = offload_next_event,
	.on_event = offload_on_event,
};
