/* Counting semaphores with timeouts; give hands the unit straight to the best waiter. */
#include "objects.h"

PT_OBJTAB_DEFINE(sems, PT_MAX_SEMS, PT_QUOTA_SEMS);
PT_KDATA static struct pt_sem sem_pool[PT_MAX_SEMS];
PT_KDATA static uint8_t sem_pool_used[PT_MAX_SEMS];

static int sem_register(struct pt_sem *s, uint32_t initial, uint32_t max)
{
	if (max == 0 || initial > max)
		return PT_EINVAL;
	int id = pt_objtab_add(&sems, s);
	if (id < 0)
		return id;
	pt_waitq_init(&s->wq);
	s->count = initial;
	s->max = max;
	s->id = id;
	s->owner_part = pt_caller_part_tag();
	return id;
}

int pt_sem_init(struct pt_sem *s, uint32_t initial, uint32_t max)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = sem_register(s, initial, max);
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_sem_create(uint32_t initial, uint32_t max)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = PT_ENOSPC;
	for (int i = 0; i < PT_MAX_SEMS; i++) {
		if (!sem_pool_used[i]) {
			r = sem_register(&sem_pool[i], initial, max);
			if (r >= 0)
				sem_pool_used[i] = 1;
			break;
		}
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

static struct pt_sem *sem_get(int id)
{
	return pt_objtab_get(&sems, id);
}

int pt_k_sem_take(int id, uint64_t timeout_ns)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_sem *s = sem_get(id);
	int r;
	if (!s) {
		r = PT_EINVAL;
	} else if (s->count) {
		s->count--;
		r = PT_OK;
	} else if (timeout_ns == PT_NO_WAIT) {
		r = PT_EAGAIN;
	} else {
		r = pt_block(&s->wq, PT_OBJ_SEM, (uint32_t)id, pt_timeout_until(timeout_ns));
		hal_irq_restore(f);
		return r;
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_sem_give(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_sem *s = sem_get(id);
	int r = PT_OK;
	if (!s) {
		r = PT_EINVAL;
	} else {
		struct pt_thread *w = pt_waitq_first(&s->wq);
		if (w)
			pt_wake(w, PT_OK);
		else if (s->count < s->max)
			s->count++;
		else
			r = PT_EAGAIN;
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}

int pt_k_sem_count(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_sem *s = sem_get(id);
	int r = s ? (int)s->count : PT_EINVAL;
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_sem_delete(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_sem *s = sem_get(id);
	int r = PT_EINVAL;
	if (s && !pt_sync_obj_deletable(s->owner_part)) {
		r = PT_EPERM;
	} else if (s) {
		pt_waitq_wake_all(&s->wq, PT_EDELETED);
		pt_objtab_remove(&sems, id);
		if (s >= sem_pool && s < sem_pool + PT_MAX_SEMS)
			sem_pool_used[s - sem_pool] = 0;
		r = PT_OK;
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}
