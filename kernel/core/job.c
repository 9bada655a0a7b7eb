/*
 * Real-time jobs. A periodic thread's releases come from its release alarm on its home cpu
 * (the pinned cpu, else the lowest cpu of its scheduler instance): release k happens at
 * epoch + offset + k * period. Every release that becomes a job is traced (PT_EV_RELEASE) at
 * its release instant with its absolute deadline, whether the job can start at once or not.
 *
 * A release that finds the previous job still incomplete is an overrun (PT_EV_OVERRUN, arg0 =
 * the late job). miss_policy decides what happens to it:
 *   RECORD     the release is a job all the same: numbered, traced, queued behind the late job
 *              (t->pending) and started as soon as the jobs before it complete, with its own
 *              release time and deadline. No release is ever lost.
 *   SKIP_NEXT  the release is dropped (not a job); a deadline miss also drops the next one.
 *   STOP       the thread is stopped.
 * Deadlines: the deadline alarm always watches the oldest released, incomplete job whose
 * deadline has not been checked yet (queued jobs included), so every job still incomplete at
 * its deadline is counted and traced (PT_EV_DEADLINE_MISS) at that instant.
 * Budget enforcement: with enforce_budget, a job whose execution exceeds wcet is aborted
 * (counted, traced as THREAD_STOP reason BUDGET); the thread restarts at its next release and
 * the releases queued behind the aborted job are dropped.
 */
#include "kernel.h"

static void release_fn(struct pt_alarm *a);
static void deadline_fn(struct pt_alarm *a);

_Static_assert(PT_TRACE_MAX_THREADS == PT_MAX_THREADS, "one counters entry per thread slot");

/* Every counters entry zeroed (the trace area is not loaded, so it holds garbage at boot). */
void pt_job_counters_init(void)
{
	memset(pt_trace_area.counters, 0, sizeof(pt_trace_area.counters));
	pt_trace_area.ncounters = PT_TRACE_MAX_THREADS;
	pt_trace_area.counter_size = sizeof(struct pt_thread_counters);
	hal_fence();
	pt_trace_area.counters_magic = PT_COUNTERS_MAGIC;
}

/* Mirror t's job counters into its entry of the trace area (the host's truth). */
static inline void counters_sync(struct pt_thread *t)
{
	struct pt_thread_counters *c = t->ctr;
	c->done = t->n_done;
	c->miss = t->n_miss;
	c->overrun = t->n_overrun;
	c->budget = t->n_budget;
	c->max_response_cycles = t->max_response;
}

void pt_job_init_thread(struct pt_thread *t)
{
	struct pt_thread_counters *c = &pt_trace_area.counters[t->slot];
	memset(c, 0, sizeof(*c));
	memcpy(c->name, t->name, sizeof(c->name));
	c->part = t->part ? t->part->id : 0;
	c->tid = t->tid;
	t->ctr = c;
	pt_alarm_init(&t->release_alarm, release_fn);
	pt_alarm_init(&t->deadline_alarm, deadline_fn);
	pt_alarm_init(&t->timeout_alarm, 0);
}

/* Make the thread runnable at creation: first release for real-time threads. */
void pt_job_start(struct pt_thread *t)
{
	unsigned long f = hal_irq_save();
	if (t->kind == PT_KIND_PERIODIC) {
		uint64_t base = pt_this_cpu()->online ? hal_cycles() : pt_epoch;
		t->next_release_cycles = pt_time_add_sat(base, t->offset_cycles);
		t->state = PT_TS_WAIT_PERIOD;
		pt_alarm_arm_on(&t->release_alarm, t->next_release_cycles, (uint32_t)t->home_cpu);
	} else if (t->kind == PT_KIND_SPORADIC) {
		t->state = PT_TS_WAIT_PERIOD;
		t->last_sporadic = 0;
	} else {
		struct pt_sched *s = t->sched;
		pt_sched_lock(s);
		pt_ready_locked(t);
		pt_sched_unlock(s);
		if (pt_this_cpu()->online && pt_this_cpu()->need_resched)
			pt_schedule();
	}
	pt_flush_deferred();
	hal_irq_restore(f);
}

/* Release time of released job n: the active job, or one queued behind it. */
static uint64_t release_of(const struct pt_thread *t, uint64_t n)
{
	if (n == t->job - t->pending)
		return t->release_at_cycles;
	return t->next_release_cycles - (t->job - n + 1) * t->period_cycles;
}

/* Keep the deadline alarm on the oldest released, incomplete job whose deadline has not been
 * checked yet, or off if there is none (t->sched locked). */
static void deadline_track(struct pt_thread *t)
{
	struct pt_alarm *a = &t->deadline_alarm;
	uint64_t n = t->job - t->pending;
	if (n <= t->dl_checked)
		n = t->dl_checked + 1;
	if (!t->job_active || n > t->job) {
		pt_alarm_cancel(a);
		return;
	}
	if (__atomic_load_n(&a->cpu, __ATOMIC_ACQUIRE) >= 0 && a->data == n)
		return;
	a->data = n;
	pt_alarm_arm(a, pt_time_add_sat(release_of(t, n), t->rel_deadline_cycles));
}

/* Make the next job (already released and traced) the active one (t->sched locked). Its
 * policy sees the release (on_release) and sets its key; returns whether the job may run now
 * (false: the policy holds it, and readies it later with pt_sched_release_held). */
static bool activate_job(struct pt_thread *t, uint64_t rel)
{
	struct pt_sched *s = t->sched;
	t->job_active = 1;
	t->release_at_cycles = rel;
	t->exec_job = 0;
	uint64_t own = pt_time_add_sat(rel, t->rel_deadline_cycles);
	/* a job that starts while holding a contended mutex keeps the inherited deadline */
	uint64_t dl = own < t->inh_deadline ? own : t->inh_deadline;
	deadline_track(t);
	if (!s->ops->on_release) {
		t->se.abs_deadline = dl; /* the entity's deadline: read by deadline inheritance */
		return true;
	}
	return s->ops->on_release(s, &t->se, rel, dl);
}

uint64_t pt_job_deadline(const struct pt_thread *t)
{
	return t->job_active ? pt_time_add_sat(t->release_at_cycles, t->rel_deadline_cycles) : UINT64_MAX;
}

/* Release job number t->job + 1 at time `rel` and start it (t->sched locked, no active job). */
static void start_job(struct pt_thread *t, uint64_t rel)
{
	struct pt_sched *s = t->sched;
	uint64_t dl = pt_time_add_sat(rel, t->rel_deadline_cycles);
	t->job++;
	t->ctr->released++;
	pt_trace_emit(PT_EV_RELEASE, t->tid, t->job, dl);
	pt_subsys_on_release(t->tid, t->job);
	bool ready = activate_job(t, rel);
	if (t->state == PT_TS_WAIT_PERIOD) {
		if (t->restart_job) {
			t->restart_job = 0;
			pt_thread_restart_ctx(t);
		}
		if (ready) {
			pt_ready_locked(t);
		} else {
			t->held = 1;
			pt_sched_events_changed(s); /* the policy's timer for it */
		}
	} else if (t->se.on_rq) {
		s->ops->key_changed(s, &t->se); /* suspended with a pending resume: new key */
	}
}

static void stop_for_miss(struct pt_thread *t)
{
	/* called without locks from alarm context */
	pt_thread_stop(t, PT_STOP_MISS);
}

static void release_fn(struct pt_alarm *a)
{
	struct pt_thread *t = pt_container_of(a, struct pt_thread, release_alarm);
	struct pt_sched *s = t->sched;
	bool stop = false;
	pt_sched_lock(s);
	uint8_t st = t->state;
	if (st == PT_TS_STOPPED || st == PT_TS_DEAD || st == PT_TS_FREE) {
		pt_sched_unlock(s);
		return;
	}
	uint64_t rel = t->next_release_cycles;
	/* periods are at least PT_MIN_PERIOD_NS and times saturate, so the next release is in
	 * the future of this one and the timer interrupt always catches up */
	t->next_release_cycles = pt_time_add_sat(rel, t->period_cycles);
	if (t->next_release_cycles != UINT64_MAX)
		pt_alarm_arm(&t->release_alarm, t->next_release_cycles);
	if (t->skip_next) {
		t->skip_next = 0;
	} else if (t->job_active) {
		t->n_overrun++;
		counters_sync(t);
		pt_trace_emit(PT_EV_OVERRUN, t->tid, t->job, 0);
		if (t->miss_policy == PT_MISS_STOP) {
			stop = true;
		} else if (t->miss_policy == PT_MISS_RECORD) {
			/* a job all the same: traced now, run when the jobs before it are done */
			t->job++;
			t->pending++;
			t->ctr->released++;
			pt_trace_emit(PT_EV_RELEASE, t->tid, t->job,
				      pt_time_add_sat(rel, t->rel_deadline_cycles));
			pt_subsys_on_release(t->tid, t->job);
			deadline_track(t);
		}
		/* SKIP_NEXT: this release is dropped */
	} else {
		start_job(t, rel);
	}
	pt_sched_unlock(s);
	if (stop)
		stop_for_miss(t);
}

static void deadline_fn(struct pt_alarm *a)
{
	struct pt_thread *t = pt_container_of(a, struct pt_thread, deadline_alarm);
	struct pt_sched *s = t->sched;
	bool stop = false;
	pt_sched_lock(s);
	uint64_t n = a->data;
	uint8_t st = t->state;
	/* re-armed by another cpu since it fired (its job completed meanwhile): stale */
	bool stale = __atomic_load_n(&a->cpu, __ATOMIC_ACQUIRE) >= 0 || hal_cycles() < a->when;
	if (stale || st == PT_TS_STOPPED || st == PT_TS_DEAD || st == PT_TS_FREE) {
		pt_sched_unlock(s);
		return;
	}
	t->dl_checked = n;
	if (t->job_active && n >= t->job - t->pending && n <= t->job) {
		t->n_miss++;
		counters_sync(t);
		pt_trace_emit(PT_EV_DEADLINE_MISS, t->tid, n,
			      pt_time_add_sat(release_of(t, n), t->rel_deadline_cycles));
		if (t->miss_policy == PT_MISS_STOP)
			stop = true;
		else if (t->miss_policy == PT_MISS_SKIP_NEXT)
			t->skip_next = 1;
	}
	if (!stop)
		deadline_track(t); /* on to the next queued job, if any */
	pt_sched_unlock(s);
	if (stop)
		stop_for_miss(t);
}

/* End of the active job (t->sched locked): trace, statistics. */
static void complete_job(struct pt_thread *t, uint64_t now)
{
	uint64_t resp = now - t->release_at_cycles;
	pt_trace_emit(PT_EV_COMPLETE, t->tid, t->job - t->pending, resp);
	pt_subsys_on_complete(t->tid, t->job - t->pending, resp);
	t->n_done++;
	if (resp > t->max_response)
		t->max_response = resp;
	counters_sync(t);
	t->job_active = 0;
}

int pt_k_wait_next_period(void)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	struct pt_thread *t = c->current;
	if (t->kind == PT_KIND_APERIODIC || !t->sched) {
		pt_flush_deferred();
		hal_irq_restore(f);
		return PT_EINVAL;
	}
	struct pt_sched *s = t->sched;
	pt_subsys_on_preempt_point(c->id); /* before the job's end is timed */
	pt_sched_lock(s);
	uint64_t now = hal_cycles();
	if (t->job_active)
		complete_job(t, now);
	if (t->pending) {
		/* the next job was released while this one ran late: start it now */
		t->pending--;
		pt_job_account_out(t, now);
		t->dispatched_at = now;
		if (!activate_job(t, t->next_release_cycles - (t->pending + 1) * t->period_cycles)) {
			t->held = 1; /* its policy holds the job: leave the cpu until it is ready (the
				      * switch asks the policy's next_event) */
			pt_leave_cpu_locked(c, s, PT_TS_WAIT_PERIOD);
			pt_flush_deferred();
			hal_irq_restore(f);
			return PT_OK;
		}
		pt_job_budget_arm(c, t, now);
		pt_timer_reprogram(c);
		/* its deadline is later than the last one's: a ready job may now beat it */
		c->need_resched = 1;
		pt_sched_unlock(s);
		pt_schedule();
		pt_flush_deferred();
		hal_irq_restore(f);
		return PT_OK;
	}
	deadline_track(t);
	pt_leave_cpu_locked(c, s, PT_TS_WAIT_PERIOD);
	pt_flush_deferred();
	hal_irq_restore(f);
	return PT_OK;
}

int pt_k_sporadic_release(int tid)
{
	struct pt_thread *me = pt_current();
	struct pt_thread *t = pt_thread_get(tid);
	if (!t || t->kind != PT_KIND_SPORADIC || (me->user && t->part != me->part))
		return PT_EINVAL;
	unsigned long f = hal_irq_save();
	struct pt_sched *s = t->sched;
	int r = PT_OK;
	pt_sched_lock(s);
	uint64_t now = hal_cycles();
	if (t->job_active || t->state != PT_TS_WAIT_PERIOD ||
	    (t->job && now - t->last_sporadic < t->period_cycles)) {
		r = PT_EAGAIN;
	} else {
		t->last_sporadic = now;
		start_job(t, now);
	}
	pt_sched_unlock(s);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}

/* ---- budget ---- */

void pt_job_account_out(struct pt_thread *t, uint64_t now)
{
	if (t->job_active && now > t->dispatched_at)
		t->exec_job += now - t->dispatched_at;
}

void pt_job_budget_arm(struct pt_cpu *c, struct pt_thread *t, uint64_t now)
{
	c->budget_end_cycles = UINT64_MAX;
	if (t != c->idle && t->enforce_budget && t->job_active && t->wcet_cycles)
		c->budget_end_cycles = now + (t->exec_job < t->wcet_cycles ? t->wcet_cycles - t->exec_job : 0);
}

void pt_job_budget_expired(struct pt_cpu *c)
{
	struct pt_thread *t = c->current;
	c->budget_end_cycles = UINT64_MAX;
	if (t == c->idle || !t->enforce_budget || !t->job_active)
		return;
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	uint64_t now = hal_cycles();
	pt_job_account_out(t, now);
	t->dispatched_at = now;
	if (t->exec_job < t->wcet_cycles) {
		pt_job_budget_arm(c, t, now);
		pt_sched_unlock(s);
		return;
	}
	/* The aborted job can never unlock what it holds: its mutexes go to their next waiters
	 * (PT_EOWNERDEAD). pt_sync_lock comes before any scheduler lock, so drop s meanwhile;
	 * interrupts stay masked and t stays this cpu's current thread. */
	if (!pt_list_empty(&t->owned_mutexes)) {
		pt_sched_unlock(s);
		pt_spin_lock(&pt_sync_lock);
		pt_sync_release_owned(t, PT_EOWNERDEAD);
		pt_spin_unlock(&pt_sync_lock);
		pt_sched_lock(s);
	}
	t->n_budget++;
	counters_sync(t);
	pt_trace_emit(PT_EV_THREAD_STOP, t->tid, PT_STOP_BUDGET, t->job - t->pending);
	t->job_active = 0;
	pt_alarm_cancel(&t->deadline_alarm);
	t->restart_job = 1;
	t->pending = 0;
	pt_leave_cpu_locked(c, s, PT_TS_WAIT_PERIOD); /* the aborted job's stack is abandoned */
}

void pt_job_summary(void)
{
	uint64_t misses = 0, overruns = 0, jobs = 0;
	for (int i = 0; i < PT_MAX_THREADS; i++) {
		struct pt_thread *t = &pt_threads[i];
		if (!t->tid || !t->sched)
			continue;
		if (t->kind != PT_KIND_APERIODIC)
			pt_printk("task %s jobs=%lu misses=%lu overruns=%lu budget=%lu max_resp=%lu "
				  "state=%u\n", t->name, t->n_done, t->n_miss, t->n_overrun,
				  t->n_budget, t->max_response, t->state);
		misses += t->n_miss;
		overruns += t->n_overrun;
		jobs += t->n_done;
	}
	pt_printk("PARTITA DONE t=%lu cycles jobs=%lu misses=%lu overruns=%lu\n",
		  hal_cycles() - pt_epoch, jobs, misses, overruns);
}
