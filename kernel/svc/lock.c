/*
 * The turn-yielding ticket lock (<partita/svc.h>). Tickets make it FIFO between harts (a
 * service cannot be starved by a client re-taking the lock in a loop). A waiter yields its
 * QEMU turn after every look: under icount the holder may have lost its turn inside the
 * critical section, and a spinning waiter would burn its whole turn without progress.
 */
#include <partita/svc.h>

void pt_svc_lock(struct pt_svc_lock *l)
{
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		pt_svc_yield();
}

bool pt_svc_trylock(struct pt_svc_lock *l)
{
	uint32_t owner = __atomic_load_n(&l->owner, __ATOMIC_ACQUIRE);
	uint32_t want = owner;
	/* take the ticket only if it is the one being served (no holder, no waiter) */
	return __atomic_compare_exchange_n(&l->next, &want, owner + 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

void pt_svc_unlock(struct pt_svc_lock *l)
{
	/* only the holder writes owner: a plain read of it is exact */
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}
