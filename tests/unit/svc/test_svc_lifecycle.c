/*
 * Service lifecycle and clean shutdown (kernel/svc/svc.c) on the host: a service runs, is
 * asked to stop (its hart is kicked), finishes, reports on the console and is STOPPED with its
 * exit code; a stop request to a service that is not running is refused; a waiter sees the
 * stop of a service running on another thread, or times out on one that never stops.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "test_util.h"
#include "fake_hal.h"
#include <partita/svc.h>

static char printed[256];

int pt_printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(printed, sizeof(printed), fmt, ap);
	va_end(ap);
	return n;
}

static int stop_self(struct pt_svc *s)
{
	assert_int_equal(__atomic_load_n(&s->state, __ATOMIC_SEQ_CST), PT_SVC_RUNNING);
	assert_ptr_equal(pt_svc_on(5), s);
	assert_false(pt_svc_stopping(s));
	assert_true(pt_svc_stop(s));
	assert_false(pt_svc_stop(s)); /* already stopping */
	assert_true(pt_svc_stopping(s));
	return 7;
}

static void test_run_stop_report(void **state)
{
	(void)state;
	fake_hal_reset();
	fake_hal_set_cpu(5);
	struct pt_svc s = { .name = "demo" };
	assert_false(pt_svc_stop(&s)); /* not running yet */
	assert_int_equal(pt_svc_run(&s, stop_self), 7);
	assert_int_equal(s.hart, 5);
	assert_int_equal(s.state, PT_SVC_STOPPED);
	assert_int_equal(s.exit_code, 7);
	assert_int_equal(fake_hal_svc_kicks(5), 1); /* the stop request woke its hart */
	assert_string_equal(printed, "svc: demo on hart 5 stopped, exit 7\n");
	assert_false(pt_svc_stop(&s));
	assert_true(pt_svc_wait_stopped(&s, 0));
}

/* A service on another thread ("hart" 2) that waits for work until asked to stop. */
static int worker_main(struct pt_svc *s)
{
	while (!pt_svc_stopping(s))
		pt_svc_wait_until(UINT64_MAX);
	return 0;
}

static void *worker(void *arg)
{
	fake_hal_set_cpu(2);
	pt_svc_run(arg, worker_main);
	return NULL;
}

static void test_stop_from_another_hart(void **state)
{
	(void)state;
	fake_hal_reset();
	static struct pt_svc w = { .name = "worker" };
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, worker, &w), 0);
	while (__atomic_load_n(&w.state, __ATOMIC_SEQ_CST) != PT_SVC_RUNNING)
		;
	assert_true(pt_svc_stop(&w));
	assert_true(pt_svc_wait_stopped(&w, UINT64_MAX - 1));
	pthread_join(t, NULL);
	assert_int_equal(w.exit_code, 0);
	assert_true(fake_hal_svc_kicks(2) >= 1);
}

static void test_wait_stopped_times_out(void **state)
{
	(void)state;
	fake_hal_reset();
	fake_hal_set_cycle_step(1000); /* the clock advances on every look */
	struct pt_svc s = { .name = "stuck", .state = PT_SVC_STOPPING };
	assert_false(pt_svc_wait_stopped(&s, 50000));
	assert_true(fake_hal_svc_halts() >= 1); /* it slept between looks, did not spin */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_stop_report),
		cmocka_unit_test(test_stop_from_another_hart),
		cmocka_unit_test(test_wait_stopped_times_out),
	};
	return cmocka_run_group_tests_name("svc_lifecycle", tests, NULL, NULL);
}
