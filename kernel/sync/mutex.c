/*
 * Mutexes with priority inheritance. An owner runs at the best priority among its own base
 * priority and the first waiter of every mutex it holds; when the owner is itself blocked on
 * a mutex the boost travels along the chain (transitive inheritance). Unlock hands the
 * mutex to the best waiter. Recursive locking by the owner is counted.
 */
#include "objects.h"

PT_OBJTAB_DEFINE(mutexes, PT_MAX_MUTEXES, PT_QUOTA_MUTEXES);
PT_KDATA static struct pt_mutex mutex_pool[PT_MAX_MUTEXES];
PT_KDATA static uint8_t mutex_pool_used[PT_MAX_MUTEXES];

static int mutex_register(struct pt_mutex *m)
{
	int id = pt_objtab_add(&mutexes, m);
	if (id < 0)
		return id;
	pt_waitq_init(&m->wq);
	pt_list_init(&m->owned_node);
	m->owner = 0;
	m->depth = 0;
	m->owner_died = 0;
	m->id = id;
	m->owner_part = pt_caller_part_tag();
	return id;
}

int pt_mutex_init(struct pt_mutex *m)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = mutex_register(m);
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_mutex_create(void)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = PT_ENOSPC;
	for (int i = 0; i < PT_MAX_MUTEXES; i++) {
		if (!mutex_pool_used[i]) {
			r = mutex_register(&mutex_pool[i]);
			if (r >= 0)
				mutex_pool_used[i] = 1;
			break;
		}
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

static struct pt_mutex *mutex_get(int id)
{
	return pt_objtab_get(&mutexes, id);
}

/*
 * Recompute t's effective key and push a change along the blocking chain. Both keys are
 * inherited: the FP priority (the best of its own and its mutexes' first waiters') and, for
 * EDF and G-EDF, the absolute deadline (the earliest of its job's and the first waiters'),
 * so an EDF holder runs at the urgency of the job it blocks (deadline inheritance). The
 * first waiter of a queue is its best under the waiters' policy (pt_waitq_insert).
 */
void pt_mutex_pi_update(struct pt_thread *t)
{
	for (int hops = 0; t && hops < PT_MAX_THREADS; hops++) {
		uint16_t p = t->base_prio;
		uint64_t inh = UINT64_MAX;
		pt_list_for_each(n, &t->owned_mutexes) {
			struct pt_mutex *m = pt_container_of(n, struct pt_mutex, owned_node);
			struct pt_thread *w = pt_list_first(&m->wq.head, struct pt_thread, wait_node);
			if (w && w->se.prio < p)
				p = w->se.prio;
			if (w && w->se.abs_deadline < inh)
				inh = w->se.abs_deadline;
		}
		uint64_t own = pt_job_deadline(t);
		uint64_t dl = own < inh ? own : inh;
		t->inh_deadline = inh;
		if (p == t->se.prio && dl == t->se.abs_deadline)
			return;
		struct pt_sched *s = t->sched;
		pt_sched_lock(s);
		pt_set_prio_locked(t, p);
		pt_set_deadline_locked(t, dl);
		pt_sched_unlock(s);
		if (t->state != PT_TS_BLOCKED || !t->blocked_on)
			return;
		pt_waitq_reposition(t);
		t = t->blocked_on->owner;
	}
}

int pt_k_mutex_lock(int id, uint64_t timeout_ns)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mutex *m = mutex_get(id);
	struct pt_thread *me = pt_current();
	int r;
	if (!m) {
		r = PT_EINVAL;
	} else if (!m->owner) {
		m->owner = me;
		m->depth = 1;
		pt_list_add_tail(&me->owned_mutexes, &m->owned_node);
		r = m->owner_died ? PT_EOWNERDEAD : PT_OK;
		m->owner_died = 0;
	} else if (m->owner == me) {
		m->depth++;
		r = PT_OK;
	} else if (timeout_ns == PT_NO_WAIT) {
		r = PT_EAGAIN;
	} else {
		uint64_t until = pt_timeout_until(timeout_ns);
		me->blocked_on = m;
		/* queue first so the owner's boost sees this waiter */
		pt_waitq_insert(&m->wq, me);
		pt_mutex_pi_update(m->owner);
		r = pt_block(&m->wq, PT_OBJ_MUTEX, (uint32_t)id, until);
		hal_irq_restore(f);
		return r; /* PT_OK: the unlocker made us the owner */
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_mutex_unlock(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mutex *m = mutex_get(id);
	struct pt_thread *me = pt_current();
	int r = PT_OK;
	if (!m) {
		r = PT_EINVAL;
	} else if (m->owner != me) {
		r = PT_EPERM;
	} else if (--m->depth == 0) {
		pt_list_del(&m->owned_node);
		struct pt_thread *w = pt_waitq_first(&m->wq);
		m->owner = w;
		if (w) {
			m->depth = 1;
			pt_list_add_tail(&w->owned_mutexes, &m->owned_node);
			pt_wake(w, PT_OK);
			pt_mutex_pi_update(w);
		}
		pt_mutex_pi_update(me);
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}

int pt_k_mutex_delete(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mutex *m = mutex_get(id);
	int r = PT_EINVAL;
	if (m && !pt_sync_obj_deletable(m->owner_part)) {
		r = PT_EPERM;
	} else if (m && m->owner) {
		r = PT_ESTATE; /* waiters can only exist while it is owned: unlock first */
	} else if (m) {
		pt_objtab_remove(&mutexes, id);
		if (m >= mutex_pool && m < mutex_pool + PT_MAX_MUTEXES)
			mutex_pool_used[m - mutex_pool] = 0;
		r = PT_OK;
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}
