/*
 * Scheduler core: the policy-independent half of scheduling. Every application cpu belongs to
 * one struct pt_sched instance (configuration); the policy is reached only through its ops
 * table, always with the instance lock held and interrupts masked.
 *
 * Lock hand-off across a switch: the outgoing thread takes its instance lock, picks the next
 * thread and switches with the lock held; whatever runs next on this cpu releases it
 * (pt_finish_switch). So no other cpu of a G-EDF cluster can pick a preempted thread before its
 * registers are saved. Lock order: sync lock -> instance lock -> alarm-queue lock.
 */
#include "kernel.h"
#include "sched/fp/fp_rq.h"

PT_KDATA struct pt_sched pt_scheds[PT_MAX_SCHEDS];

/*
 * The ready-queue operations of instance s. An FP instance (s->fp) is served inline from
 * sched/fp/fp_rq.h: no indirect call, no frame, and the one-cpu preempt test without a ctz
 * over the mask. Every other policy goes through its ops table. s locked.
 */
/* Other policies, out of line: the FP paths then need no frame for the indirect calls. */
static __attribute__((noinline)) void ops_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	s->ops->enqueue(s, e);
}
static __attribute__((noinline)) void ops_enqueue_head(struct pt_sched *s,
						       struct pt_sched_entity *e)
{
	s->ops->enqueue_head(s, e);
}
static __attribute__((noinline)) void ops_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	s->ops->dequeue(s, e);
}

static inline void rq_enqueue(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (__builtin_expect(s->fp, 1))
		pt_fp_enqueue(s, e);
	else
		ops_enqueue(s, e);
}
static inline void rq_enqueue_head(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (__builtin_expect(s->fp, 1))
		pt_fp_enqueue_head(s, e);
	else
		ops_enqueue_head(s, e);
}
static inline void rq_dequeue(struct pt_sched *s, struct pt_sched_entity *e)
{
	if (__builtin_expect(s->fp, 1))
		pt_fp_dequeue(s, e);
	else
		ops_dequeue(s, e);
}
static inline struct pt_sched_entity *rq_peek(struct pt_sched *s, uint32_t cpu)
{
	return __builtin_expect(s->fp, 1) ? pt_fp_peek(s) : s->ops->peek(s, cpu);
}
static inline bool rq_preempts(struct pt_sched *s, const struct pt_sched_entity *a,
			       const struct pt_sched_entity *b)
{
	return __builtin_expect(s->fp, 1) ? pt_fp_preempts(a, b) : s->ops->preempts(a, b);
}
static inline int rq_preempt_cpu(struct pt_sched *s, const struct pt_sched_entity *e)
{
	if (s->fp && s->one_cpu) {
		/* the instance's only cpu (s->fp_cpu), if e beats what runs there */
		const struct pt_sched_entity *r = s->running[s->fp_cpu];
		return r == 0 || pt_fp_preempts(e, r) ? (int)s->fp_cpu : -1;
	}
	return s->ops->preempt_cpu(s, e);
}

/*
 * Direct hand-off (one-cpu FP instance, woken on its own cpu). A thread woken by pt_ready_locked
 * that beats the running thread and every queued one is not queued: it is left in s->handoff
 * (READY, on_rq == 0) and the preemption point that follows the wake (pt_schedule) switches to
 * it without the enqueue / peek / dequeue round trip. Anything else that looks at the ready
 * set first puts it back with handoff_flush(), at the head of its level: every thread queued at
 * that level since was woken after it, so FIFO order is kept. It is only valid while still
 * READY and off the queue (another hart may suspend or delete it meanwhile: then it is
 * dropped, as the dequeue of a queued thread would have done). s locked.
 */
static inline struct pt_sched_entity *handoff_take(struct pt_sched *s)
{
	struct pt_sched_entity *h = s->handoff;
	if (!h)
		return 0;
	s->handoff = 0;
	if (pt_thread_of(h)->state != PT_TS_READY || h->on_rq)
		return 0;
	return h;
}
static inline void handoff_flush(struct pt_sched *s)
{
	struct pt_sched_entity *h = handoff_take(s);
	if (h)
		rq_enqueue_head(s, h);
}

void pt_sched_init(void)
{
	for (uint32_t i = 0; i < pt_config.nscheds && i < PT_MAX_SCHEDS; i++) {
		const struct pt_sched_cfg *sc = &pt_config.scheds[i];
		struct pt_sched *s = &pt_scheds[i];
		s->ops = pt_sched_ops_for(sc->policy);
		if (!s->ops)
			pt_panic("scheduler %s: unknown policy %u", sc->name, sc->policy);
		s->id = i;
		s->cpu_mask = sc->cpu_mask;
		s->quantum_cycles = pt_ns_to_cycles(sc->rr_slice_ns);
		s->policy_cfg = sc->policy_cfg;
		s->fp = s->ops == &pt_sched_fp_ops;
		s->one_cpu = s->cpu_mask && !(s->cpu_mask & (s->cpu_mask - 1));
		s->fp_cpu = s->cpu_mask ? (uint8_t)__builtin_ctz(s->cpu_mask) : 0;
		s->ops->init(s);
		PT_ASSERT(!s->timed || (s->ops->next_event && s->ops->on_event));
		s->lean = s->fp && s->one_cpu && !s->timed;
	}
	for (uint32_t c = 0; c < pt_config.ncpus; c++) {
		int16_t si = pt_config.cpus[c].sched;
		if (pt_config.cpus[c].role == PT_ROLE_APP && si >= 0 && (uint32_t)si < pt_config.nscheds)
			pt_cpus[c].sched = &pt_scheds[si];
	}
}

/* A subsystem's dispatch hook runs in switch_general only: no instance stays lean. (The same
 * holds for the PLIC threshold of a cpu with handler threads: pt_irq_boot clears lean.) */
void pt_sched_subsys_hooks(void)
{
	if (!(pt_subsys_hooks & PT_SUBSYS_HOOK_DISPATCH))
		return;
	for (uint32_t i = 0; i < pt_config.nscheds && i < PT_MAX_SCHEDS; i++)
		pt_scheds[i].lean = 0;
}

/* Ask `cpu` to reschedule: a flag for this cpu, or flag + IPI (sent by pt_flush_deferred,
 * outside the locks) for another. Inline and call-free for the callers' fast paths. */
static inline void kick_cpu(uint32_t cpu)
{
	struct pt_cpu *me = pt_this_cpu();
	if (cpu == me->id) {
		me->need_resched = 1;
		return;
	}
	pt_cpus[cpu].need_resched = 1;
	hal_fence();
	me->ipi_mask |= 1u << cpu;
}

void pt_kick_cpu(uint32_t cpu)
{
	kick_cpu(cpu);
}

void pt_sched_events_changed(struct pt_sched *s)
{
	for (uint32_t m = s->cpu_mask, cpu = 0; m; cpu++, m >>= 1)
		if (m & 1) {
			pt_cpus[cpu].sched_event_stale = 1;
			kick_cpu(cpu);
		}
}

void pt_sched_release_held(struct pt_sched *s, struct pt_sched_entity *e)
{
	struct pt_thread *t = pt_thread_of(e);
	PT_ASSERT(t->sched == s);
	if (t->held && t->state == PT_TS_WAIT_PERIOD) {
		t->held = 0;
		pt_ready_locked(t);
	}
}

static __attribute__((noinline)) void ready_general(struct pt_sched *s, struct pt_thread *t)
{
	rq_enqueue(s, &t->se);
	int cpu = rq_preempt_cpu(s, &t->se);
	if (cpu >= 0)
		kick_cpu((uint32_t)cpu);
}

/* t becomes runnable (t->sched locked). A pending suspension takes effect instead. The FP
 * one-cpu case is call-free: a direct hand-off, or enqueue and kick. */
void pt_ready_locked(struct pt_thread *t)
{
	struct pt_sched *s = t->sched;
	if (t->suspend_pending) {
		t->suspend_pending = 0;
		t->state = PT_TS_SUSPENDED;
		return;
	}
	PT_ASSERT(!t->se.on_rq && t->state != PT_TS_READY && t->state != PT_TS_RUNNING);
	t->state = PT_TS_READY;
	if (!(s->fp && s->one_cpu)) {
		ready_general(s, t);
		return;
	}
	const struct pt_sched_entity *r = s->running[s->fp_cpu];
	if (r && !pt_fp_preempts(&t->se, r)) {
		pt_fp_enqueue(s, &t->se); /* just waits */
		return;
	}
	struct pt_cpu *c = pt_this_cpu();
	if (!s->handoff && s->fp_cpu == c->id &&
	    pt_fp_level_of(&t->se) < pt_fp_best_level(pt_fp_rq_of(s))) {
		s->handoff = &t->se; /* direct hand-off: see handoff_take */
		c->need_resched = 1;
		return;
	}
	pt_fp_enqueue(s, &t->se);
	kick_cpu(s->fp_cpu);
}

static __attribute__((noinline)) void set_prio_general(struct pt_sched *s, struct pt_thread *t)
{
	s->ops->key_changed(s, &t->se);
	int cpu = rq_preempt_cpu(s, &t->se);
	if (cpu >= 0)
		kick_cpu((uint32_t)cpu);
}

/* Effective deadline change (EDF / G-EDF deadline inheritance). t->sched locked. FP
 * instances ignore deadlines. */
void pt_set_deadline_locked(struct pt_thread *t, uint64_t abs_deadline)
{
	struct pt_sched *s = t->sched;
	if (t->se.abs_deadline == abs_deadline)
		return;
	bool later = abs_deadline > t->se.abs_deadline;
	t->se.abs_deadline = abs_deadline;
	if (s->fp)
		return;
	if (!t->se.on_rq) {
		if (t->state == PT_TS_RUNNING && later)
			kick_cpu((uint32_t)t->se.cpu); /* something ready may now beat it */
		return;
	}
	set_prio_general(s, t);
}

/* Effective priority change (set-priority, inheritance). t->sched locked. A queued thread of
 * a one-cpu FP instance moves to the tail of its new level, or, raised above everything on
 * this cpu, becomes the direct hand-off candidate (call-free, like pt_ready_locked). */
void pt_set_prio_locked(struct pt_thread *t, uint16_t prio)
{
	struct pt_sched *s = t->sched;
	if (t->se.prio == prio)
		return;
	bool lowered = prio > t->se.prio;
	t->se.prio = prio;
	if (!t->se.on_rq) {
		if (t->state == PT_TS_RUNNING && lowered)
			kick_cpu((uint32_t)t->se.cpu); /* something ready may now beat it */
		return;
	}
	if (!(s->fp && s->one_cpu)) {
		set_prio_general(s, t);
		return;
	}
	pt_fp_dequeue(s, &t->se);
	const struct pt_sched_entity *r = s->running[s->fp_cpu];
	if (r && !pt_fp_preempts(&t->se, r)) {
		pt_fp_enqueue(s, &t->se); /* to the tail of its new level; it still waits */
		return;
	}
	struct pt_cpu *c = pt_this_cpu();
	if (!s->handoff && s->fp_cpu == c->id &&
	    pt_fp_level_of(&t->se) < pt_fp_best_level(pt_fp_rq_of(s))) {
		s->handoff = &t->se; /* raised above everything here: direct hand-off */
		c->need_resched = 1;
		return;
	}
	pt_fp_enqueue(s, &t->se);
	kick_cpu(s->fp_cpu);
}

/*
 * The cpu's timer deadlines that follow a dispatch decision (prev ran, t runs now; t == prev:
 * it goes on): the policy's next timed event (next_event, e.g. the end of a round-robin
 * quantum) and the end of t's job budget (job.c). Re-programs the timer only if one moved.
 */
static __attribute__((noinline)) void program_timers_slow(struct pt_cpu *c, struct pt_sched *s,
							  struct pt_thread *prev,
							  struct pt_thread *t, uint32_t flags,
							  uint64_t now)
{
	uint64_t ev = c->sched_event_cycles, budget = c->budget_end_cycles;
	c->sched_event_cycles = UINT64_MAX;
	if (s->timed)
		c->sched_event_cycles = s->ops->next_event(s, c->id, prev == c->idle ? 0 : &prev->se,
							   t == c->idle ? 0 : &t->se, flags, now);
	pt_job_budget_arm(c, t, now);
	if (c->sched_event_cycles != ev || c->budget_end_cycles != budget)
		pt_timer_reprogram(c);
}

/* The common case (an untimed policy, no budget, before or after) is a few tests inline. */
static inline void program_timers(struct pt_cpu *c, struct pt_sched *s, struct pt_thread *prev,
				  struct pt_thread *t, uint32_t flags, uint64_t now)
{
	if (s->timed || t->enforce_budget ||
	    (c->sched_event_cycles & c->budget_end_cycles) != UINT64_MAX)
		program_timers_slow(c, s, prev, t, flags, now);
}

/* The policy's timed event is due on this cpu (s locked): what it asks for the running
 * thread (enum pt_sched_event_action). */
static __attribute__((noinline)) int sched_event_due(struct pt_cpu *c, struct pt_sched *s,
						     struct pt_thread *cur, uint64_t now)
{
	return s->ops->on_event(s, c->id, cur == c->idle ? 0 : &cur->se, now);
}

/*
 * A cluster must run its m earliest-deadline ready jobs. A wake-up kicks the one cpu that
 * preempt_cpu names, but two wake-ups may name the same cpu (running[] changes only when that
 * cpu switches), or the kick may reach a cpu that is already switching to something else: the
 * second job would then wait while another cpu runs a later deadline. So after every choice on
 * a cpu of a multi-cpu instance (running[] up to date, s locked) the core looks at the best job
 * still waiting and kicks the cpu it should preempt, if any. Cost: one peek and one
 * preempt_cpu per switch, on clusters only.
 */
static __attribute__((noinline)) void recheck_cluster(struct pt_cpu *c, struct pt_sched *s)
{
	if (!(s->cpu_mask & ~(1u << c->id)))
		return; /* single-cpu instance: this cpu's choice was the whole decision */
	struct pt_sched_entity *e = s->ops->peek(s, PT_SCHED_ANY_CPU);
	if (!e)
		return;
	int cpu = s->ops->preempt_cpu(s, e);
	if (cpu >= 0 && (uint32_t)cpu != c->id)
		pt_kick_cpu((uint32_t)cpu);
}

/* The parts of a dispatch that one-cpu instances without migration, deaths or address-space
 * changes never need, out of line so that they cost the fast frame no saved registers. */
static __attribute__((noinline)) void switch_rare(struct pt_cpu *c, struct pt_sched *s,
						  struct pt_thread *prev, struct pt_thread *next)
{
	recheck_cluster(c, s);
	if (next->se.cpu >= 0 && (uint32_t)next->se.cpu != c->id && next != c->idle)
		pt_trace_emit_masked(PT_EV_MIGRATE, next->tid, (uint64_t)next->se.cpu, c->id);
	next->se.cpu = (int16_t)c->id;
	if (prev->state == PT_TS_DEAD || prev->state == PT_TS_STOPPED)
		c->reap = prev;
	hal_as_t as = next->part ? next->part->as : 0;
	if (as != c->as) {
		hal_as_switch(as);
		c->as = as;
	}
}

/*
 * Leave the current thread (whose state the caller already set: READY and re-enqueued,
 * BLOCKED, WAIT_PERIOD, ...) and run `best` = peek(s, c->id), or idle if NULL. Callers that
 * just peeked to compare with the current thread pass that entity on (one peek per switch);
 * it is still the first after they re-enqueue the current thread behind it. s is locked on
 * entry and unlocked on return, which happens when the current thread is next dispatched.
 */
static __attribute__((noinline)) void switch_general(struct pt_cpu *c, struct pt_sched *s,
						     struct pt_sched_entity *best)
{
	struct pt_thread *prev = c->current;
	struct pt_thread *next = best ? pt_thread_of(best) : c->idle;
	uint64_t now = hal_cycles();

	/* the caller chose to leave: prev is no longer RUNNING (idle always is) */
	PT_ASSERT(prev->state != PT_TS_RUNNING || prev == c->idle);
	PT_ASSERT(!best || next->state == PT_TS_READY);
	if (best)
		rq_dequeue(s, best);
	if (prev->job_active)
		pt_job_account_out(prev, now);
	if (next == prev) {
		prev->state = PT_TS_RUNNING;
		program_timers(c, s, prev, next, 0, now);
		pt_sched_unlock(s);
		pt_flush_deferred();
		return;
	}
	if (prev->state == PT_TS_READY)
		pt_trace_emit_masked(PT_EV_PREEMPT, prev->tid, next->tid, 0);
	next->state = PT_TS_RUNNING;
	s->running[c->id] = next == c->idle ? 0 : &next->se;
	/* one test for the rare cases: cluster, migration, a dying thread, another space */
	hal_as_t as = next->part ? next->part->as : 0;
	if (!s->one_cpu || next->se.cpu != (int16_t)c->id || prev->state >= PT_TS_STOPPED ||
	    as != c->as)
		switch_rare(c, s, prev, next);
	next->dispatched_at = now;
	c->current = next;
	c->hal.kstack_top = next->kstack_top;
	c->hal.kstack_lo = next->kstack_lo;
	c->switches++;
	if (next == c->idle)
		pt_trace_emit_masked(PT_EV_IDLE, 0, 0, 0);
	else
		pt_trace_emit_masked(PT_EV_DISPATCH, next->tid, 0, 0);
	if (pt_subsys_hooks & PT_SUBSYS_HOOK_DISPATCH)
		pt_subsys_dispatch_slow(c->id, prev == c->idle ? 0 : prev->tid,
					next == c->idle ? 0 : next->tid);
	if (c->irq_follow) /* unified priority space: such a cpu is never lean (irq.c) */
		pt_irq_follow(c, next);
	program_timers(c, s, prev, next, 0, now);
	hal_ctx_switch(&prev->ctx, &next->ctx);
	pt_finish_switch();
}

/*
 * The common dispatch, out of line and call-free up to the context switch, so that its frame
 * saves no callee-saved register that hal_ctx_switch saves again: a one-cpu FP instance
 * without timed events (s->lean), `next` last ran on this cpu, in the same address
 * space, without a budget or a pending timed event, and `prev` is not dying. switch_general
 * does the same with every case handled.
 */
static __attribute__((noinline)) void switch_lean(struct pt_cpu *c, struct pt_sched *s,
						  struct pt_thread *prev, struct pt_thread *next)
{
	PT_ASSERT((prev->state != PT_TS_RUNNING || prev == c->idle) && next->state == PT_TS_READY);
	pt_fp_dequeue(s, &next->se); /* a no-op for the hand-off candidate (not queued) */
	uint64_t now = hal_cycles();
	if (prev->job_active)
		prev->exec_job += now > prev->dispatched_at ? now - prev->dispatched_at : 0;
	if (prev->state == PT_TS_READY)
		pt_trace_emit_masked(PT_EV_PREEMPT, prev->tid, next->tid, 0);
	next->state = PT_TS_RUNNING;
	s->running[c->id] = &next->se;
	next->dispatched_at = now;
	c->current = next;
	c->hal.kstack_top = next->kstack_top;
	c->hal.kstack_lo = next->kstack_lo;
	c->switches++;
	pt_trace_emit_masked(PT_EV_DISPATCH, next->tid, 0, 0);
	hal_ctx_switch(&prev->ctx, &next->ctx);
	pt_finish_switch();
}

/* Whether switch_lean may dispatch next after prev (see there). */
static inline bool switch_is_lean(const struct pt_cpu *c, const struct pt_sched *s,
				  const struct pt_thread *prev, const struct pt_thread *next)
{
	hal_as_t as = next->part ? next->part->as : 0;
	return s->lean && next != prev && next != c->idle && next->se.cpu == (int16_t)c->id &&
	       prev->state < PT_TS_STOPPED && as == c->as && !next->enforce_budget &&
	       (c->sched_event_cycles & c->budget_end_cycles) == UINT64_MAX;
}

static void switch_to_locked(struct pt_cpu *c, struct pt_sched *s, struct pt_sched_entity *best)
{
	struct pt_thread *prev = c->current;
	if (best && switch_is_lean(c, s, prev, pt_thread_of(best)))
		switch_lean(c, s, prev, pt_thread_of(best));
	else
		switch_general(c, s, best);
}

/* The current thread, no longer RUNNING, leaves the cpu for the best ready thread (s locked). */
static void leave_cpu(struct pt_cpu *c, struct pt_sched *s)
{
	handoff_flush(s);
	switch_to_locked(c, s, rq_peek(s, c->id));
}

void pt_leave_cpu_locked(struct pt_cpu *c, struct pt_sched *s, uint8_t state)
{
	PT_ASSERT(c->current != c->idle && state != PT_TS_RUNNING && state != PT_TS_READY);
	c->current->state = state;
	leave_cpu(c, s);
}


/* Runs first in whatever thread a switch resumes: completes the lock hand-off. */
void pt_finish_switch(void)
{
	struct pt_cpu *c = pt_this_cpu();
	struct pt_thread *r = c->reap;
	PT_ASSERT(c->current->state == PT_TS_RUNNING && c->current != r);
	c->reap = 0;
	if (c->sched)
		pt_sched_unlock(c->sched);
	if (r && r->state == PT_TS_DEAD)
		pt_thread_reap(r);
	pt_flush_deferred();
}

static void schedule_locked(struct pt_cpu *c, struct pt_sched *s);

/*
 * The preemption point right after a direct hand-off (s locked): the candidate beats the
 * running thread and nothing queued beats it, so the running thread goes back to the head of
 * its level and the candidate is dispatched, with no peek and no dequeue. Anything unusual
 * (the candidate became invalid, the current thread is not plainly running, round-robin
 * slices) goes through schedule_locked, which also handles the candidate.
 */
static __attribute__((noinline)) void schedule_handoff(struct pt_cpu *c, struct pt_sched *s)
{
	struct pt_sched_entity *h = s->handoff;
	struct pt_thread *cur = c->current, *next = pt_thread_of(h);
	/* switch_is_lean's tests, minus those implied here (next is READY, cur RUNNING) */
	hal_as_t as = next->part ? next->part->as : 0;
	if (next->state == PT_TS_READY && !h->on_rq && cur->state == PT_TS_RUNNING &&
	    cur != c->idle && pt_fp_preempts(h, &cur->se) &&
	    pt_fp_best_level(pt_fp_rq_of(s)) >= pt_fp_level_of(h) && s->lean &&
	    h->cpu == (int16_t)c->id && as == c->as && !next->enforce_budget &&
	    (c->sched_event_cycles & c->budget_end_cycles) == UINT64_MAX) {
		s->handoff = 0;
		cur->state = PT_TS_READY;
		pt_fp_enqueue_head(s, &cur->se);
		switch_lean(c, s, cur, next);
		return;
	}
	schedule_locked(c, s);
}

/* Preemption point: called with interrupts masked and no lock held. */
void pt_schedule(void)
{
	struct pt_cpu *c = pt_this_cpu();
	struct pt_sched *s = c->sched;
	if (!s) {
		c->need_resched = 0;
		return;
	}
	pt_sched_lock(s);
	c->need_resched = 0;
	if (s->handoff)
		schedule_handoff(c, s);
	else
		schedule_locked(c, s);
}

/* pt_schedule's decision, s locked (unlocked on return). */
static __attribute__((noinline)) void schedule_locked(struct pt_cpu *c, struct pt_sched *s)
{
	struct pt_thread *cur = c->current;
	if (cur->state != PT_TS_RUNNING && cur != c->idle) {
		leave_cpu(c, s);
		return;
	}
	/* the policy's timed event, if due, first: it may make jobs ready or end cur's quantum
	 * (on every cpu of a timed policy, idle ones included) */
	int ev = PT_SCHED_EV_NONE;
	bool due = c->sched_event_stale; /* due: ask next_event again before leaving */
	if (__builtin_expect((c->sched_event_cycles != UINT64_MAX) | due, 0)) {
		uint64_t t0 = hal_cycles();
		c->sched_event_stale = 0;
		if (c->sched_event_cycles <= t0) {
			due = true;
			ev = sched_event_due(c, s, cur, t0);
		}
	}
	/* the best ready entity: the hand-off candidate unless something queued beats it; a
	 * candidate that does not run after all goes back to the queue (handoff_flush) */
	struct pt_sched_entity *h = handoff_take(s), *best;
	if (h && pt_fp_best_level(pt_fp_rq_of(s)) >= pt_fp_level_of(h)) {
		best = h; /* switch_to_locked's dequeue is a no-op for it (on_rq == 0) */
	} else {
		if (h)
			rq_enqueue_head(s, h);
		best = rq_peek(s, c->id);
	}
	uint32_t quantum = ev == PT_SCHED_EV_ROTATE ? PT_SCHED_QUANTUM_OVER : 0;
	if (ev == PT_SCHED_EV_EVICT && cur != c->idle) {
		/* the policy's slot for cur is over: it leaves the cpu, for idle if nothing else
		 * may run now (a time-triggered policy idles rather than run it on) */
		if (best == h && h)
			rq_enqueue_head(s, h);
		cur->state = PT_TS_READY;
		rq_enqueue_head(s, &cur->se);
		switch_to_locked(c, s, rq_peek(s, c->id));
		return;
	}
	if (!best) {
		/* nothing else is ready: cur goes on (on a new quantum if its ended) */
		if (due)
			program_timers_slow(c, s, cur, cur, quantum, hal_cycles());
		pt_sched_unlock(s);
		pt_flush_deferred();
		return;
	}
	if (cur == c->idle) {
		switch_to_locked(c, s, best);
		return;
	}
	uint64_t now = hal_cycles();
	bool preempt = rq_preempts(s, best, &cur->se);
	bool rotate = quantum && !rq_preempts(s, &cur->se, best);
	if (!preempt && !rotate) {
		if (best == h)
			rq_enqueue_head(s, h);
		if (due)
			program_timers_slow(c, s, cur, cur, quantum, now);
		pt_sched_unlock(s);
		pt_flush_deferred();
		return;
	}
	cur->state = PT_TS_READY;
	if (rotate && !preempt) {
		rq_enqueue(s, &cur->se); /* behind its equals: its quantum is over */
	} else {
		rq_enqueue_head(s, &cur->se);
	}
	switch_to_locked(c, s, best); /* cur went behind best: still the first */
}

void pt_ipi_handler(void)
{
	pt_this_cpu()->need_resched = 1;
}

/* Stop or suspend the current thread at a trap exit when another cpu asked for it. */
static void apply_pending(struct pt_cpu *c)
{
	struct pt_thread *t = c->current;
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	if (t->stop_pending) {
		t->stop_pending = 0;
		pt_leave_cpu_locked(c, s, t->stop_reason == PT_STOP_DELETED ? PT_TS_DEAD
									 : PT_TS_STOPPED); /* no return */
		return;
	}
	if (t->suspend_pending) {
		t->suspend_pending = 0;
		pt_leave_cpu_locked(c, s, PT_TS_SUSPENDED);
		return;
	}
	pt_sched_unlock(s);
	pt_flush_deferred();
}

void pt_trap_exit(bool to_user)
{
	(void)to_user;
	struct pt_cpu *c = pt_this_cpu();
	if (c->current != c->idle && (c->current->stop_pending || c->current->suspend_pending))
		apply_pending(c);
	if (c->need_resched)
		pt_schedule();
	pt_flush_deferred();
}

void pt_k_thread_yield(void)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	struct pt_sched *s = c->sched;
	struct pt_thread *cur = c->current;
	if (s && cur != c->idle) {
		pt_sched_lock(s);
		if (s->handoff)
			handoff_flush(s);
		struct pt_sched_entity *best = rq_peek(s, c->id);
		if (best && !rq_preempts(s, &cur->se, best)) {
			cur->state = PT_TS_READY;
			rq_enqueue(s, &cur->se); /* behind its equals: best is still first */
			switch_to_locked(c, s, best);
		} else {
			pt_sched_unlock(s);
		}
	}
	pt_flush_deferred();
	hal_irq_restore(f);
}
