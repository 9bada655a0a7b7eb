/*
 * pt_thread_abort_wait: end another thread's wait early (FreeRTOS's xTaskAbortDelay, and any
 * native user's "wake it now"). A thread blocked on a semaphore, mutex or queue, or sleeping,
 * leaves its wait as if its timeout had expired: the blocking call returns PT_ETIMEDOUT
 * (pt_sleep_* returns PT_OK, as for a sleep that ended). Kept in its own file: the API layers
 * are its main users.
 */
#include "kernel.h"

int pt_k_thread_abort_wait(int tid)
{
	struct pt_thread *me = pt_current();
	struct pt_thread *t = pt_thread_get(tid);
	/* only another live thread of a scheduler instance, and of the caller's partition for a
	 * user caller (as every thread call, thread.c's api_target_thread) */
	if (!t || t == me || !t->sched || t == pt_this_cpu()->idle || (me->user && t->part != me->part))
		return PT_EINVAL;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = PT_ESTATE;
	if (t->state == PT_TS_BLOCKED) {
		struct pt_mutex *m = t->blocked_on;
		pt_wake(t, PT_ETIMEDOUT); /* what its timeout would have done (waitq.c) */
		if (m && m->owner)
			pt_mutex_pi_update(m->owner); /* it no longer lends its priority */
		r = PT_OK;
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}
