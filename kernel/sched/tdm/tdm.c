/*
 * Two-level TDM policy (brief 4; CompOSe, the paper's §3): composable scheduling of
 * applications on one cpu.
 *
 * Level 1, between applications: a wheel of entries, each an RTOS slot of constant length
 * followed by one application's slot of constant length (struct pt_tdm_cfg). The wheel starts
 * at cycle 0 and repeats, whatever runs: the slot boundaries are fixed in time. In the RTOS
 * slot the policy decides which task of the entry's application runs in its slot, then the
 * cpu idles to the slot's end, so the decision's cost (which depends on the application's
 * FIFOs) never shifts the application slot and one application's timing never depends on
 * another's. At the end of an application slot the running task is evicted (EV_EVICT).
 *
 * Level 2, inside an application: StS takes the next task of its static table and idles the
 * slot if that task is not eligible (the table waits on it); DyS tries the tasks in round-robin
 * order from after the last one chosen until one is eligible. Eligible = READY (or the one
 * being evicted) and, if hooks are installed, eligible by the task-status manager
 * (<partita/tdm.h>).
 *
 * One firing per slot: a chosen task that leaves the cpu and becomes ready again (it blocked
 * or slept after its firing: enqueue, not enqueue_head) has used its slot; the rest idles.
 * Instances own one cpu (partita config checks it).
 */
#include "../sched.h"
#include <partita/hal.h>
#include <partita/tdm.h>

/* An application slot's timer event comes this early (at most half the RTOS slot); on_event
 * then waits with hal_spin_until for the boundary itself, so the slot starts a constant time
 * after it whatever the interrupt's latency (which depends on what ran before). */
#define PT_TDM_ALIGN_CYCLES 1000u

struct pt_tdm_ctx {
	const struct pt_tdm_cfg *cfg;
	uint64_t period_cycles;                   /* sum of every entry's RTOS + app slot */
	uint64_t align_cycles;                    /* application-slot events come this early */
	uint64_t entry_off[PT_TDM_MAX_SLOTS];     /* entry start within the period */
	uint64_t ready;                           /* task indices queued (READY, not running) */
	struct pt_sched_entity *ent[PT_TDM_MAX_TASKS]; /* seen by enqueue */
	uint8_t index_of[PT_MAX_THREADS];         /* tid % PT_MAX_THREADS -> task index + 1: the
						   * cost of every operation is the same for every
						   * task (no search in the table) */
	uint16_t pos[PT_TDM_MAX_APPS];            /* StS: table index; DyS: ring index to try first */
	int32_t chosen;                           /* task of the current application slot, -1: idle */
	int32_t pending;                          /* decided in the RTOS slot, -1: idle */
	uint8_t in_app;                           /* the current slot is an application slot */
	uint64_t done_boundary;                   /* boundaries handled: 2 per entry, from 1 */
	uint8_t started;                          /* next_event asked once: the wheel's timer runs */
	uint8_t asked;                            /* the core was asked to call next_event */
	uint8_t decide_pending;                   /* an RTOS slot began: decide for decide_app */
	uint32_t decide_app;
	uint64_t decide_event;                    /* when that RTOS slot's event was taken */
};
PT_SCHED_CTX_FITS(struct pt_tdm_ctx);

static const struct pt_tdm_hooks *hooks;

void pt_tdm_set_hooks(const struct pt_tdm_hooks *h) { hooks = h; }

static struct pt_tdm_ctx *ctx_of(struct pt_sched *s) { return PT_SCHED_CTX(s, struct pt_tdm_ctx); }

static int32_t task_of(const struct pt_tdm_ctx *x, const struct pt_sched_entity *e)
{
	uint32_t k = x->index_of[e->tid % PT_MAX_THREADS];
	/* a thread created later in the slot of a task's thread has another tid */
	if (!k || x->cfg->task_tid[k - 1] != e->tid)
		return -1;
	return (int32_t)k - 1;
}

static void tdm_init(struct pt_sched *s)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	const struct pt_tdm_cfg *c = s->policy_cfg;
	uint64_t off = 0;

	/* field by field: a compound literal would be a memset call (no libc here) */
	x->cfg = c;
	x->ready = 0;
	x->chosen = x->pending = -1;
	x->in_app = 0;
	x->done_boundary = 0;
	x->started = 0;
	x->asked = 0;
	x->decide_pending = 0;
	for (uint32_t i = 0; i < PT_TDM_MAX_TASKS; i++)
		x->ent[i] = 0;
	for (uint32_t i = 0; i < PT_TDM_MAX_APPS; i++)
		x->pos[i] = 0;
	for (uint32_t i = 0; i < PT_MAX_THREADS; i++)
		x->index_of[i] = 0;
	if (c && (c->nslots > PT_TDM_MAX_SLOTS || c->napps > PT_TDM_MAX_APPS ||
		  c->ntasks > PT_TDM_MAX_TASKS))
		x->cfg = c = 0; /* partita config never generates it: no wheel, the cpu idles */
	for (uint32_t k = 0; c && k < c->ntasks; k++)
		x->index_of[c->task_tid[k] % PT_MAX_THREADS] = (uint8_t)(k + 1);
	for (uint32_t i = 0; c && i < c->nslots; i++) {
		x->entry_off[i] = off;
		off += c->rtos_slot_cycles + c->slot_cycles[i];
	}
	x->period_cycles = off;
	x->align_cycles = c && c->rtos_slot_cycles / 2 < PT_TDM_ALIGN_CYCLES
				  ? c->rtos_slot_cycles / 2 : PT_TDM_ALIGN_CYCLES;
	s->timed = 1;
}

static void tdm_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	int32_t k = task_of(x, e);
	e->on_rq = 1;
	if (!x->started && !x->asked && x->cfg) {
		/* the first ready task (at boot): an idle cpu has made no dispatch decision, so
		 * nothing asked next_event yet and no timer drives the wheel: ask for it */
		x->asked = 1;
		pt_sched_events_changed(s);
	}
	if (k < 0)
		return; /* not in the table: never runs (partita config rejects it) */
	x->ent[k] = e;
	x->ready |= 1ull << k;
	if (k == x->chosen)
		x->chosen = -1; /* it left the cpu after its firing: its slot is used */
}

static void tdm_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	int32_t k = task_of(x, e);
	e->on_rq = 1;
	if (k >= 0) {
		x->ent[k] = e;
		x->ready |= 1ull << k; /* preempted or evicted: keeps its turn */
	}
}

static void tdm_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	int32_t k = task_of(x, e);
	e->on_rq = 0;
	if (k >= 0)
		x->ready &= ~(1ull << k);
}

static struct pt_sched_entity *tdm_peek(struct pt_sched *s, uint32_t cpu)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	(void)cpu;
	if (!x->in_app || x->chosen < 0 || !((x->ready >> x->chosen) & 1u))
		return 0;
	return x->ent[x->chosen];
}

/* Inside a slot only the chosen task runs: nothing preempts anything. */
static bool tdm_preempts(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	(void)a, (void)b;
	return false;
}

static int tdm_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	int cpu = 0;
	while (cpu < 31 && !((s->cpu_mask >> cpu) & 1u)) /* its one cpu (no libgcc ctz) */
		cpu++;
	if (x->in_app && x->chosen >= 0 && task_of(x, e) == x->chosen && !s->running[cpu])
		return cpu;
	return -1;
}

static void tdm_key_changed(struct pt_sched *s, struct pt_sched_entity *e) { (void)s, (void)e; }

/* Wait queues: by tid (the policy has no priorities). */
static int tdm_key_cmp(const struct pt_sched_entity *a, const struct pt_sched_entity *b)
{
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* Boundary b (from 1): entry (b - 1) / 2 of the wheel's (b - 1) / (2 n)-th turn; odd b
 * starts the entry's RTOS slot, even b its application slot. */
static uint64_t boundary_time(const struct pt_tdm_ctx *x, uint64_t b)
{
	uint64_t n = x->cfg->nslots, e = (b - 1) / 2;
	uint64_t t = (e / n) * x->period_cycles + x->entry_off[e % n];
	return (b & 1u) ? t : t + x->cfg->rtos_slot_cycles;
}

/* The last boundary at or before now (0: none yet). */
static uint64_t boundary_at(const struct pt_tdm_ctx *x, uint64_t now)
{
	uint64_t n = x->cfg->nslots, turn = now / x->period_cycles;
	uint64_t in = now % x->period_cycles, b = turn * 2 * n;
	for (uint64_t e = 0; e < n; e++) {
		if (in >= x->entry_off[e])
			b = turn * 2 * n + 2 * e + 1;
		if (in >= x->entry_off[e] + x->cfg->rtos_slot_cycles)
			b = turn * 2 * n + 2 * e + 2;
	}
	return b;
}

static void take_decision(struct pt_tdm_ctx *x, uint32_t cpu,
			  const struct pt_sched_entity *running);

static uint64_t tdm_next_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *prev,
			       struct pt_sched_entity *next, uint32_t flags, uint64_t now)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	(void)prev, (void)next, (void)flags;
	if (!x->cfg || !x->period_cycles)
		return UINT64_MAX;
	take_decision(x, cpu, 0);
	uint64_t b = boundary_at(x, now);
	if (!x->started) {
		/* the wheel's first look (boot): no catching up on boundaries before now. In an
		 * RTOS slot (b odd) its decision is still due; in an application slot the next
		 * RTOS slot is the first */
		x->started = 1;
		x->done_boundary = (b & 1u) ? b - 1 : b;
	}
	uint64_t nb = x->done_boundary + 1; /* <= b: late, due at once */
	return boundary_time(x, nb) - ((nb & 1u) ? 0 : x->align_cycles);
}

static bool may_run(const struct pt_tdm_ctx *x, uint32_t k, const struct pt_sched_entity *running)
{
	bool ready = ((x->ready >> k) & 1u) || (running && x->ent[k] == running);
	return ready && (!hooks || !hooks->eligible || hooks->eligible(x->cfg->task_tid[k]));
}

/* The RTOS slot's decision for application `app`. */
static int32_t decide(struct pt_tdm_ctx *x, uint32_t app, const struct pt_sched_entity *running)
{
	const struct pt_tdm_app_cfg *a = &x->cfg->apps[app];
	uint32_t n = a->norder, p = x->pos[app];
	if (!n)
		return -1;
	if (a->mode == PT_TDM_STS) {
		uint32_t k = a->order[p];
		if (!may_run(x, k, running))
			return -1; /* the table waits on it: the slot idles */
		x->pos[app] = (uint16_t)((p + 1) % n);
		return (int32_t)k;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t q = (p + i) % n, k = a->order[q];
		if (may_run(x, k, running)) {
			x->pos[app] = (uint16_t)((q + 1) % n);
			return (int32_t)k;
		}
	}
	return -1;
}

/* The pending RTOS-slot decision, once the evicted task is back in the ready structure (from
 * next_event, after the core's switch): so the eviction's records and timing are the same
 * whatever the decision costs, which depends on the next application. */
static void take_decision(struct pt_tdm_ctx *x, uint32_t cpu,
			  const struct pt_sched_entity *running)
{
	if (!x->decide_pending)
		return;
	x->decide_pending = 0;
	x->pending = decide(x, x->decide_app, running);
	if (hooks && hooks->decided)
		hooks->decided(cpu, x->decide_app,
			       x->pending < 0 ? 0 : x->cfg->task_tid[x->pending], x->decide_event);
}

static int tdm_on_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *running,
			uint64_t now)
{
	struct pt_tdm_ctx *x = ctx_of(s);
	int action = PT_SCHED_EV_NONE;
	if (!x->cfg || !x->period_cycles || !x->started)
		return action;
	uint64_t b = boundary_at(x, now);
	uint64_t nb = x->done_boundary + 1;
	if (b < nb && !(nb & 1u) && boundary_time(x, nb) - now <= x->align_cycles) {
		/* the early event of an application slot: start it on the boundary exactly */
		hal_spin_until(boundary_time(x, nb));
		b = nb;
	}
	while (x->done_boundary < b) { /* late: every boundary in order, none skipped */
		uint64_t d = ++x->done_boundary;
		uint32_t entry = (uint32_t)(((d - 1) / 2) % x->cfg->nslots);
		uint32_t app = x->cfg->slot_app[entry];
		if (d & 1u) { /* RTOS slot: the application slot is over; decide the next one */
			x->in_app = 0;
			x->chosen = -1;
			if (running)
				action = PT_SCHED_EV_EVICT;
			x->pending = -1;
			x->decide_pending = 1;
			x->decide_app = app;
			x->decide_event = now;
		} else { /* application slot: the decided task runs */
			/* late (no dispatch decision since the RTOS slot began): the task to
			 * evict still runs, and counts as ready */
			take_decision(x, cpu, running);
			x->in_app = 1;
			x->chosen = x->pending;
			x->pending = -1;
		}
	}
	return action;
}

const struct pt_sched_ops pt_sched_tdm_ops = {
	.name = "tdm",
	.init = tdm_init,
	.enqueue = tdm_enqueue,
	.enqueue_head = tdm_enqueue_head,
	.dequeue = tdm_dequeue,
	.peek = tdm_peek,
	.preempts = tdm_preempts,
	.preempt_cpu = tdm_preempt_cpu,
	.key_changed = tdm_key_changed,
	.key_cmp = tdm_key_cmp,
	.next_event = tdm_next_event,
	.on_event = tdm_on_event,
};
