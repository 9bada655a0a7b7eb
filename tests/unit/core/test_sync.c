/*
 * kernel/sync on the host harness (core_harness.h): statically placed objects
 * (PT_SEM_DEFINE / PT_MUTEX_DEFINE / PT_MQ_DEFINE with pt_*_init, the kernel's static-first
 * API, docs/api.md), their counts and refusals, a waiter woken by a give with a direct switch
 * to it, priority inheritance of a mutex holder, and a queue's copy in FIFO order. A blocking
 * call returns at once in the harness (the switch is recorded); the test then plays the other
 * threads and checks states, results and the switch log.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core_harness.h"
#include <partita/sync.h>

struct pt_partition pt_partitions[PT_MAX_PARTITIONS];
bool pt_user_range_ok(const void *p, size_t n, bool write)
{
	(void)p, (void)n, (void)write;
	return false; /* only kernel threads here */
}

static PT_SEM_DEFINE(sem);
static PT_MUTEX_DEFINE(mtx);
PT_MQ_DEFINE(mq, 8, 4); /* its buffer is static already */

static void test_static_semaphore(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *lo = thread(0, "lo", 10, PT_KIND_APERIODIC);
	struct pt_thread *hi = thread(1, "hi", 5, PT_KIND_APERIODIC);
	int id = pt_sem_init(&sem, 1, 2);
	assert_true(id >= 0);
	assert_int_equal(pt_sem_init(&sem, 3, 2), PT_EINVAL); /* initial above max */
	wake(hi);
	assert_int_equal(pt_k_sem_take(id, PT_NO_WAIT), PT_OK); /* hi takes the one unit */
	assert_int_equal(pt_k_sem_take(id, PT_NO_WAIT), PT_EAGAIN);
	pt_k_sem_take(id, PT_WAIT_FOREVER); /* hi blocks: lo runs */
	assert_int_equal(hi->state, PT_TS_BLOCKED);
	wake(lo);
	assert_string_equal(sw_log, "idle>hi hi>idle idle>lo ");
	assert_int_equal(pt_k_sem_give(id), PT_OK); /* lo gives: hi gets it and the cpu */
	assert_string_equal(sw_log, "idle>hi hi>idle idle>lo lo>hi ");
	assert_int_equal(hi->wait_result, PT_OK);
	assert_int_equal(pt_k_sem_give(id), PT_OK);
	assert_int_equal(pt_k_sem_give(id), PT_OK);
	assert_int_equal(pt_k_sem_give(id), PT_EAGAIN); /* at its max, 2 */
	uint64_t a[8];
	assert_int_equal(trace_args(PT_EV_BLOCK, a, 8), 1);
	assert_int_equal(a[0], PT_OBJ_SEM);
}

static void test_static_mutex_inherits_priority(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *lo = thread(0, "lo", 10, PT_KIND_APERIODIC);
	struct pt_thread *hi = thread(1, "hi", 5, PT_KIND_APERIODIC);
	int id = pt_mutex_init(&mtx);
	assert_true(id >= 0);
	wake(lo);
	assert_int_equal(pt_k_mutex_lock(id, PT_WAIT_FOREVER), PT_OK); /* lo owns it */
	wake(hi);                                          /* hi preempts lo... */
	pt_k_mutex_lock(id, PT_WAIT_FOREVER);              /* ...and blocks on the mutex */
	assert_int_equal(hi->state, PT_TS_BLOCKED);
	assert_string_equal(sw_log, "idle>lo lo>hi hi>lo ");
	assert_int_equal(lo->se.prio, 5); /* lo runs at hi's priority while it holds the mutex */
	assert_int_equal(lo->base_prio, 10);
	assert_int_equal(pt_k_mutex_unlock(id), PT_OK); /* hands it to hi, drops back */
	assert_int_equal(lo->se.prio, 10);
	assert_string_equal(sw_log, "idle>lo lo>hi hi>lo lo>hi ");
	assert_int_equal(pt_k_mutex_unlock(id), PT_OK); /* hi owned it */
	assert_int_equal(pt_k_mutex_unlock(id), PT_EPERM); /* nobody does now */
}

static void test_static_queue_copies_in_order(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *t = thread(0, "t", 10, PT_KIND_APERIODIC);
	assert_int_equal(pt_mq_init(&mq, mq_buf, 8, 0), PT_EINVAL); /* no capacity */
	int id = pt_mq_init(&mq, mq_buf, 8, 4);
	assert_true(id >= 0);
	wake(t);
	uint64_t in, out;
	for (in = 1; in <= 4; in++)
		assert_int_equal(pt_k_mq_send(id, &in, PT_NO_WAIT), PT_OK);
	assert_int_equal(pt_k_mq_send(id, &in, PT_NO_WAIT), PT_EAGAIN); /* full */
	for (uint64_t want = 1; want <= 4; want++) {
		assert_int_equal(pt_k_mq_recv(id, &out, PT_NO_WAIT), PT_OK);
		assert_int_equal(out, want);
	}
	assert_int_equal(pt_k_mq_recv(id, &out, PT_NO_WAIT), PT_EAGAIN); /* empty */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_semaphore),
		cmocka_unit_test(test_static_mutex_inherits_priority),
		cmocka_unit_test(test_static_queue_copies_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
