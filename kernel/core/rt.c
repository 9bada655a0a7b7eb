/*
 * Real-time jobs. A periodic thread's releases come from its release alarm on its home cpu
 * (the pinned cpu, else the lowest cpu of its scheduler instance): release k happens at
 * epoch + offset + k * period. Each release also arms a deadline alarm at release + D:
 * if the job is still incomplete then, it is a deadline miss. A release that finds the
 * previous job still incomplete is an overrun. Both are counted, traced and handled by
 * miss_policy: RECORD keeps going (an overrun release is queued and runs right after the
 * late job), SKIP_NEXT drops the next release, STOP stops the thread.
 * Budget enforcement: with enforce_budget, a job whose execution exceeds wcet is aborted
 * (counted, traced as THREAD_STOP reason BUDGET); the thread restarts at its next release.
 */
#include "kernel.h"

void pt_thread_restart_ctx(struct pt_thread *t);
static void release_fn(struct pt_alarm *a);
static void deadline_fn(struct pt_alarm *a);

void pt_rt_init_thread(struct pt_thread *t)
{
	pt_alarm_init(&t->release_alarm, release_fn);
	pt_alarm_init(&t->deadline_alarm, deadline_fn);
	pt_alarm_init(&t->timeout_alarm, 0);
}

/* Arm an alarm on another cpu's queue (boot and dynamic creation). */
static void arm_on(struct pt_alarm *a, uint64_t when, uint32_t cpu)
{
	if (cpu == pt_this_cpu()->id || !pt_cpus[cpu].online) {
		/* before a cpu is online its queue is only touched by the boot cpu */
		struct pt_cpu *c = &pt_cpus[cpu];
		if (cpu == pt_this_cpu()->id) {
			pt_alarm_arm(a, when);
			return;
		}
		unsigned long f = hal_irq_save();
		pt_spin_lock(&c->alarm_lock);
		a->when = when;
		a->cpu = (int16_t)cpu;
		struct pt_list *pos = c->alarms.prev;
		while (pos != &c->alarms && pt_container_of(pos, struct pt_alarm, node)->when > when)
			pos = pos->prev;
		pt_list_insert_between(&a->node, pos, pos->next);
		pt_spin_unlock(&c->alarm_lock);
		pt_flush_deferred();
		hal_irq_restore(f);
		return;
	}
	/* online remote cpu: queue it there and let that cpu re-arm its timer */
	struct pt_cpu *c = &pt_cpus[cpu];
	unsigned long f = hal_irq_save();
	pt_spin_lock(&c->alarm_lock);
	a->when = when;
	a->cpu = (int16_t)cpu;
	struct pt_list *pos = c->alarms.prev;
	while (pos != &c->alarms && pt_container_of(pos, struct pt_alarm, node)->when > when)
		pos = pos->prev;
	pt_list_insert_between(&a->node, pos, pos->next);
	pt_spin_unlock(&c->alarm_lock);
	pt_flush_deferred();
	hal_irq_restore(f);
	pt_kick_cpu(cpu);
}

/* Make the thread runnable at creation: first release for real-time threads. */
void pt_rt_start(struct pt_thread *t)
{
	unsigned long f = hal_irq_save();
	if (t->kind == PT_KIND_PERIODIC) {
		uint64_t base = pt_this_cpu()->online ? hal_cycles() : pt_epoch;
		t->next_release = base + t->offset;
		t->state = PT_TS_WAIT_PERIOD;
		arm_on(&t->release_alarm, t->next_release, (uint32_t)t->home_cpu);
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

/* Start job at release time `rel` (t->sched locked). */
static void start_job(struct pt_thread *t, uint64_t rel)
{
	struct pt_sched *s = t->sched;
	t->job++;
	t->job_active = 1;
	t->release_at = rel;
	t->exec_job = 0;
	uint64_t dl = rel + t->rel_deadline;
	pt_trace_emit(PT_EV_RELEASE, t->tid, t->job, dl);
	t->deadline_alarm.data = t->job;
	pt_alarm_arm(&t->deadline_alarm, dl);
	if (t->state == PT_TS_WAIT_PERIOD) {
		if (t->restart_job) {
			t->restart_job = 0;
			pt_thread_restart_ctx(t);
		}
		t->se.abs_deadline = dl;
		pt_ready_locked(t);
	} else {
		/* running (a queued overrun release) or suspended: new key */
		if (t->se.on_rq) {
			t->se.abs_deadline = dl;
			s->ops->key_changed(s, &t->se);
		} else {
			t->se.abs_deadline = dl;
		}
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
	uint64_t rel = t->next_release;
	t->next_release = rel + t->period;
	pt_alarm_arm(&t->release_alarm, t->next_release);
	if (t->skip_next) {
		t->skip_next = 0;
	} else if (t->job_active) {
		t->n_overrun++;
		pt_trace_emit(PT_EV_OVERRUN, t->tid, t->job, 0);
		if (t->miss_policy == PT_MISS_STOP)
			stop = true;
		else if (t->miss_policy == PT_MISS_RECORD)
			t->pending++;
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
	if (t->job_active && t->job == a->data && t->state != PT_TS_STOPPED &&
	    t->state != PT_TS_DEAD && t->state != PT_TS_FREE) {
		t->n_miss++;
		pt_trace_emit(PT_EV_DEADLINE_MISS, t->tid, t->job, t->release_at + t->rel_deadline);
		if (t->miss_policy == PT_MISS_STOP)
			stop = true;
		else if (t->miss_policy == PT_MISS_SKIP_NEXT)
			t->skip_next = 1;
	}
	pt_sched_unlock(s);
	if (stop)
		stop_for_miss(t);
}

/* End of job (t->sched locked): trace, statistics. */
static void complete_job(struct pt_thread *t, uint64_t now)
{
	uint64_t resp = now - t->release_at;
	pt_trace_emit(PT_EV_COMPLETE, t->tid, t->job, resp);
	t->n_done++;
	if (resp > t->max_response)
		t->max_response = resp;
	t->job_active = 0;
	pt_alarm_cancel(&t->deadline_alarm);
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
	pt_sched_lock(s);
	uint64_t now = hal_cycles();
	if (t->job_active)
		complete_job(t, now);
	if (t->pending) {
		uint64_t rel = t->next_release - t->pending * t->period;
		t->pending--;
		pt_rt_account_out(t, now);
		t->dispatched_at = now;
		start_job(t, rel);
		pt_rt_budget_arm(c, t, now);
		pt_timer_reprogram(c);
		pt_sched_unlock(s);
		if (c->need_resched)
			pt_schedule();
		pt_flush_deferred();
		hal_irq_restore(f);
		return PT_OK;
	}
	t->state = PT_TS_WAIT_PERIOD;
	pt_switch_away_locked(c, s);
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
	    (t->job && now - t->last_sporadic < t->period)) {
		r = PT_EAGAIN;
	} else {
		t->last_sporadic = now;
		start_job(t, now);
	}
	pt_sched_unlock(s);
	if (pt_this_cpu()->need_resched)
		pt_schedule();
	pt_flush_deferred();
	hal_irq_restore(f);
	return r;
}

/* ---- budget ---- */

void pt_rt_account_out(struct pt_thread *t, uint64_t now)
{
	if (t->job_active && now > t->dispatched_at)
		t->exec_job += now - t->dispatched_at;
}

void pt_rt_budget_arm(struct pt_cpu *c, struct pt_thread *t, uint64_t now)
{
	c->budget_end = UINT64_MAX;
	if (t != c->idle && t->enforce_budget && t->job_active && t->wcet)
		c->budget_end = now + (t->exec_job < t->wcet ? t->wcet - t->exec_job : 0);
}

void pt_rt_budget_expired(struct pt_cpu *c)
{
	struct pt_thread *t = c->current;
	c->budget_end = UINT64_MAX;
	if (t == c->idle || !t->enforce_budget || !t->job_active)
		return;
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	uint64_t now = hal_cycles();
	pt_rt_account_out(t, now);
	t->dispatched_at = now;
	if (t->exec_job < t->wcet) {
		pt_rt_budget_arm(c, t, now);
		pt_sched_unlock(s);
		return;
	}
	t->n_budget++;
	pt_trace_emit(PT_EV_THREAD_STOP, t->tid, PT_STOP_BUDGET, t->job);
	t->job_active = 0;
	pt_alarm_cancel(&t->deadline_alarm);
	t->restart_job = 1;
	t->pending = 0;
	t->state = PT_TS_WAIT_PERIOD;
	pt_switch_away_locked(c, s); /* the aborted job's stack is abandoned */
}

void pt_rt_summary(void)
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
