/*
 * The service-hart runtime's turn-yielding ticket lock (kernel/svc/lock.c) and time calls
 * (kernel/svc/wait.c) on the host against the fake HAL: tickets are served in order,
 * trylock takes the lock only when nobody holds or waits for it, a waiter yields (arms a
 * near deadline) instead of spinning, threads standing in for harts exclude each other;
 * wait-until arms and halts only when the deadline is ahead; the tick grid is shifted by the
 * phase and always strictly ahead.
 */
#include <pthread.h>
#include <stdio.h>
#include "test_util.h"
#include "fake_hal.h"
#include <partita/svc.h>

static void test_tickets_and_trylock(void **state)
{
	(void)state;
	fake_hal_reset();
	struct pt_svc_lock l = PT_SVC_LOCK_INIT;
	pt_svc_lock(&l);
	assert_int_equal(l.next, 1);
	assert_int_equal(l.owner, 0);
	assert_false(pt_svc_trylock(&l)); /* held: refused without taking a ticket */
	assert_int_equal(l.next, 1);
	pt_svc_unlock(&l);
	assert_int_equal(l.owner, 1);
	assert_true(pt_svc_trylock(&l));
	assert_int_equal(l.next, 2);
	pt_svc_unlock(&l);
	assert_int_equal(fake_hal_svc_arms(), 0); /* uncontended: never yielded */
	/* tickets wrap at 2^32 */
	l.next = l.owner = UINT32_MAX;
	pt_svc_lock(&l);
	pt_svc_unlock(&l);
	assert_int_equal(l.owner, 0);
	assert_true(pt_svc_trylock(&l));
	pt_svc_unlock(&l);
}

static void test_yield_alternates(void **state)
{
	(void)state;
	fake_hal_reset();
	fake_hal_set_cycles(1000);
	pt_svc_yield();
	uint64_t a = fake_hal_svc_deadline();
	pt_svc_yield();
	uint64_t b = fake_hal_svc_deadline();
	pt_svc_yield();
	uint64_t c = fake_hal_svc_deadline();
	/* 2 us ahead (the fake clock runs at 1 GHz), alternating by 100 cycles */
	assert_true(a == 1000 + PT_SVC_YIELD_NS || a == 1100 + PT_SVC_YIELD_NS);
	assert_true(a != b);
	assert_int_equal(a, c);
}

/* A waiter yields while the lock is held and gets it when released. */
static struct pt_svc_lock held = PT_SVC_LOCK_INIT;
static volatile int waiter_in;

static void *waiter(void *arg)
{
	(void)arg;
	fake_hal_set_cpu(1);
	pt_svc_lock(&held);
	__atomic_store_n(&waiter_in, 1, __ATOMIC_SEQ_CST);
	pt_svc_unlock(&held);
	return NULL;
}

static void test_waiter_yields(void **state)
{
	(void)state;
	fake_hal_reset();
	pt_svc_lock(&held);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, waiter, NULL), 0);
	while (fake_hal_svc_arms() < 3) /* it looked, saw the lock held and yielded */
		;
	assert_int_equal(__atomic_load_n(&waiter_in, __ATOMIC_SEQ_CST), 0);
	pt_svc_unlock(&held);
	pthread_join(t, NULL);
	assert_int_equal(waiter_in, 1);
	assert_int_equal(held.next, held.owner);
}

/* Threads as harts: a plain counter incremented under the lock loses no update. */
#define NTHREADS 4
#define ROUNDS 20000
static struct pt_svc_lock counter_lock = PT_SVC_LOCK_INIT;
static uint64_t counter;
static uint32_t order_bad;

static void *incrementer(void *arg)
{
	fake_hal_set_cpu((uint32_t)(uintptr_t)arg);
	for (int i = 0; i < ROUNDS; i++) {
		pt_svc_lock(&counter_lock);
		uint64_t v = counter;
		/* holder + waiters = next - owner: at least us, at most every thread */
		uint32_t q = __atomic_load_n(&counter_lock.next, __ATOMIC_ACQUIRE) -
			     counter_lock.owner;
		if (q < 1 || q > NTHREADS)
			order_bad++;
		counter = v + 1;
		pt_svc_unlock(&counter_lock);
	}
	return NULL;
}

static void test_mutual_exclusion(void **state)
{
	(void)state;
	fake_hal_reset();
	pthread_t t[NTHREADS];
	for (uintptr_t i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, incrementer, (void *)i), 0);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(counter, (uint64_t)NTHREADS * ROUNDS);
	assert_int_equal(order_bad, 0);
	assert_int_equal(counter_lock.next, counter_lock.owner);
	assert_int_equal(counter_lock.next, (uint32_t)(NTHREADS * ROUNDS));
}

static void test_wait_until(void **state)
{
	(void)state;
	fake_hal_reset();
	fake_hal_set_cycles(5000);
	pt_svc_wait_until(4000); /* passed: no arm, no halt */
	pt_svc_wait_until(5000);
	assert_int_equal(fake_hal_svc_arms(), 0);
	assert_int_equal(fake_hal_svc_halts(), 0);
	pt_svc_wait_until(7000);
	assert_int_equal(fake_hal_svc_arms(), 1);
	assert_int_equal(fake_hal_svc_deadline(), 7000);
	assert_int_equal(fake_hal_svc_halts(), 1);
	pt_svc_wait_until(UINT64_MAX); /* only a kick ends it: halts without arming */
	assert_int_equal(fake_hal_svc_arms(), 1);
	assert_int_equal(fake_hal_svc_halts(), 2);
	pt_svc_kick(3);
	assert_int_equal(fake_hal_svc_kicks(3), 1);
	assert_int_equal(pt_svc_ns_to_cycles(2500000000ull), 2500000000ull);
}

static uint64_t ticks_seen[4];

static void job(void *arg)
{
	(void)arg;
	ticks_seen[0] = fake_hal_svc_deadline();
	fake_hal_set_cycles(ticks_seen[0]); /* the tick fires exactly on its point */
	fake_hal_svc_tick();
	ticks_seen[1] = fake_hal_svc_deadline();
	fake_hal_set_cycles(ticks_seen[1] + 7777);  /* handled late */
	fake_hal_svc_tick();
	ticks_seen[2] = fake_hal_svc_deadline();
}

static void test_ticked_grid(void **state)
{
	(void)state;
	fake_hal_reset();
	fake_hal_set_cycles(123456);
	pt_svc_call_ticked((uintptr_t)job, NULL, 10000, 2500);
	assert_int_equal(ticks_seen[0], 132500);  /* first grid point after now */
	assert_int_equal(ticks_seen[1], 142500);  /* strictly after a tick on its point */
	assert_int_equal(ticks_seen[2], 152500);  /* late: the next point, not a burst */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tickets_and_trylock),
		cmocka_unit_test(test_yield_alternates),
		cmocka_unit_test(test_waiter_yields),
		cmocka_unit_test(test_mutual_exclusion),
		cmocka_unit_test(test_wait_until),
		cmocka_unit_test(test_ticked_grid),
	};
	return cmocka_run_group_tests_name("svc_lock", tests, NULL, NULL);
}
