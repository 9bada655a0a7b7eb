/*
 * Blocking and waking, shared by semaphores, mutexes, message queues and sleeps.
 * One global sync lock protects every wait queue and every object's state; it nests outside
 * the scheduler-instance locks. Waiters are ordered by the key of their scheduling policy
 * (the policy's `key_cmp`: FP priority, 0 first; EDF / G-EDF absolute deadline, effective
 * after inheritance), FIFO among equals. A stopped thread may linger on a queue: waking
 * skips and drops it.
 */
#include "core/kernel.h"

PT_KDATA struct pt_spinlock pt_sync_lock;

void pt_waitq_init(struct pt_waitq *q)
{
	pt_list_init(&q->head);
}

/* t waits ahead of w: strictly better under t's policy (equals stay FIFO). */
static inline bool waits_ahead(const struct pt_thread *t, const struct pt_thread *w)
{
	return t->sched->fp ? t->se.prio < w->se.prio : t->sched->ops->key_cmp(&t->se, &w->se) < 0;
}

void pt_waitq_insert(struct pt_waitq *q, struct pt_thread *t)
{
	struct pt_list *pos = q->head.prev;
	while (pos != &q->head && waits_ahead(t, pt_container_of(pos, struct pt_thread, wait_node)))
		pos = pos->prev;
	pt_list_insert_between(&t->wait_node, pos, pos->next);
	t->waitq = q;
}

void pt_waitq_reposition(struct pt_thread *t)
{
	struct pt_waitq *q = t->waitq;
	if (!q)
		return;
	pt_list_del(&t->wait_node);
	pt_waitq_insert(q, t);
}

struct pt_thread *pt_waitq_first(struct pt_waitq *q)
{
	while (!pt_list_empty(&q->head)) {
		struct pt_thread *t = pt_list_first(&q->head, struct pt_thread, wait_node);
		if (t->state == PT_TS_BLOCKED)
			return t;
		pt_list_del(&t->wait_node); /* stopped or deleted while waiting */
		t->waitq = 0;
	}
	return 0;
}

static void timeout_fn(struct pt_alarm *a)
{
	struct pt_thread *t = pt_container_of(a, struct pt_thread, timeout_alarm);
	pt_spin_lock(&pt_sync_lock);
	if (t->state == PT_TS_BLOCKED && t->wait_gen == (uint32_t)a->data) {
		struct pt_mutex *m = t->blocked_on;
		pt_wake(t, PT_ETIMEDOUT);
		if (m && m->owner)
			pt_mutex_pi_update(m->owner);
	}
	pt_spin_unlock(&pt_sync_lock);
}

/* Sync lock held, interrupts masked; returns with the sync lock released. */
int pt_block(struct pt_waitq *q, uint8_t obj_kind, uint32_t obj_id, uint64_t until)
{
	struct pt_cpu *c = pt_this_cpu();
	struct pt_thread *t = c->current;
	if (until != UINT64_MAX && until <= hal_cycles()) {
		if (t->waitq) {
			pt_list_del(&t->wait_node);
			t->waitq = 0;
		}
		t->blocked_on = 0;
		pt_spin_unlock(&pt_sync_lock);
		return PT_ETIMEDOUT;
	}
	if (q && t->waitq != q)
		pt_waitq_insert(q, t);
	t->wait_result = PT_OK;
	t->wait_gen++;
	if (t->timeout_alarm.fn != timeout_fn)
		pt_alarm_init(&t->timeout_alarm, timeout_fn);
	if (until != UINT64_MAX) {
		t->timeout_alarm.data = t->wait_gen;
		pt_alarm_arm(&t->timeout_alarm, until);
	}
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	t->state = PT_TS_BLOCKED;
	pt_trace_emit_masked(PT_EV_BLOCK, t->tid, obj_kind, obj_id); /* interrupts masked */
	pt_spin_unlock(&pt_sync_lock);
	pt_leave_cpu_locked(c, s, PT_TS_BLOCKED);
	if (__atomic_load_n(&t->timeout_alarm.cpu, __ATOMIC_ACQUIRE) >= 0)
		pt_alarm_cancel(&t->timeout_alarm);
	return t->wait_result;
}

/* Sync lock held. */
void pt_wake(struct pt_thread *t, int result)
{
	if (t->waitq) {
		pt_list_del(&t->wait_node);
		t->waitq = 0;
	}
	t->blocked_on = 0;
	t->wait_result = result;
	t->wait_gen++;
	/* only an armed timeout needs the call (the waiter armed it itself; a firing one sees
	 * the new wait_gen under the sync lock we hold) */
	if (__atomic_load_n(&t->timeout_alarm.cpu, __ATOMIC_ACQUIRE) >= 0)
		pt_alarm_cancel(&t->timeout_alarm);
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	if (t->state == PT_TS_BLOCKED) {
		pt_trace_emit_masked(PT_EV_UNBLOCK, t->tid, result == PT_ETIMEDOUT ? 1 : 0, 0);
		pt_ready_locked(t);
	}
	pt_sched_unlock(s);
}

/* Hand every mutex `t` holds to its first waiter, which returns from its lock call owning
 * it with `code` (PT_EOWNERDEAD: the protected state may be inconsistent); a mutex without
 * waiters becomes free and its next locker gets the code instead (POSIX robust mutexes).
 * Called with pt_sync_lock held, when t will never unlock them. */
void pt_sync_release_owned(struct pt_thread *t, int code)
{
	while (!pt_list_empty(&t->owned_mutexes)) {
		struct pt_mutex *om = pt_list_first(&t->owned_mutexes, struct pt_mutex, owned_node);
		pt_list_del(&om->owned_node);
		struct pt_thread *w = pt_waitq_first(&om->wq);
		om->owner = w;
		om->depth = w ? 1 : 0;
		if (w) {
			pt_list_add_tail(&w->owned_mutexes, &om->owned_node);
			pt_wake(w, code);
			pt_mutex_pi_update(w);
		} else {
			om->owner_died = code == PT_EOWNERDEAD; /* told to the next locker */
		}
	}
	pt_mutex_pi_update(t); /* back to its base priority */
}

/* t is being stopped or deleted: leave every queue, hand on the mutexes it holds. */
void pt_sync_thread_gone(struct pt_thread *t)
{
	struct pt_mutex *m = t->blocked_on;
	if (t->waitq) {
		pt_list_del(&t->wait_node);
		t->waitq = 0;
	}
	t->blocked_on = 0;
	t->wait_gen++;
	pt_alarm_cancel(&t->timeout_alarm);
	if (m && m->owner)
		pt_mutex_pi_update(m->owner);
	pt_sync_release_owned(t, PT_EOWNERDEAD);
}

/* Wake every waiter of q with `result` (object deleted). */
void pt_waitq_wake_all(struct pt_waitq *q, int result)
{
	struct pt_thread *w;
	while ((w = pt_waitq_first(q)))
		pt_wake(w, result);
}
