/*
 * Robust mutexes (robust.yaml): a mutex whose owner can never unlock it
 * (its job aborted by budget enforcement, or the thread deleted) goes to its next waiter,
 * which owns it and learns so from PT_EOWNERDEAD; afterwards the mutex works normally.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/sync.h>

#include "lib/ufmt.h"

static volatile int m_budget = -1, m_deleted = -1, holder_tid = -1, budget_locked;

static void say_result(const char *what, int r)
{
	char b[64];
	int n = 0;
	pt_ufmt_str(b, &n, "robust: ");
	pt_ufmt_str(b, &n, what);
	pt_ufmt_str(b, &n, " ");
	pt_ufmt_i64(b, &n, r);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

/* Periodic, enforce_budget: the first job locks and never finishes (its budget aborts it). */
void robust_budget_holder(void *arg)
{
	(void)arg;
	static int jobs;
	if (jobs++ > 0)
		return;
	m_budget = pt_mutex_create();
	pt_mutex_lock(m_budget, PT_WAIT_FOREVER);
	budget_locked = 1;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

/* Aperiodic: locks a mutex and sleeps holding it until it is deleted. */
void robust_deleted_holder(void *arg)
{
	(void)arg;
	m_deleted = pt_mutex_create();
	pt_mutex_lock(m_deleted, PT_WAIT_FOREVER);
	holder_tid = pt_thread_self();
	pt_sleep_ns(1000000000ull);
}

/* Aperiodic: waits on both mutexes while their owners are cut off. */
void robust_waiter(void *arg)
{
	(void)arg;
	while (!budget_locked || m_deleted < 0 || holder_tid < 0)
		pt_sleep_ns(50000);
	/* the holder's job is aborted within its 200 us budget */
	int r = pt_mutex_lock(m_budget, 20000000);
	say_result("budget_lock", r);
	say_result("budget_unlock", pt_mutex_unlock(m_budget));
	r = pt_mutex_lock(m_budget, PT_NO_WAIT);
	say_result("budget_relock", r); /* healthy again: PT_OK */
	pt_mutex_unlock(m_budget);
	/* deleted with nobody waiting: the next locker is told */
	say_result("delete", pt_thread_delete(holder_tid));
	r = pt_mutex_lock(m_deleted, 20000000);
	say_result("deleted_lock", r);
	say_result("deleted_unlock", pt_mutex_unlock(m_deleted));
}
