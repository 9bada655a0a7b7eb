/*
 * The job and dispatch logic of kernel/core (sched_core.c, job.c, time.c) on the host, against
 * the fake HAL: real scheduler instances and policies, real alarm queues, the real trace
 * writer; a context switch is recorded (fake hal_ctx_switch returns at once), so each test
 * drives one cpu through wake-ups, preemptions, releases, completions, deadline misses,
 * round-robin quanta and a policy that holds its releases, and checks the decisions, the
 * timer the core arms and the trace it writes. Thread bodies do not run: a test "is" the
 * current thread when it calls a kernel entry point on its behalf.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core_harness.h"

/* kernel/sync is not linked here (core/test_sync links it): its entry points the core calls */
struct pt_spinlock pt_sync_lock;
void pt_sync_release_owned(struct pt_thread *t, int code) { (void)t, (void)code; }
int pt_block(struct pt_waitq *q, uint8_t kind, uint32_t id, uint64_t until)
{
	(void)q, (void)kind, (void)id, (void)until;
	pt_panic("pt_block: not used by these tests");
}

/* ---- dispatch ---- */

static void test_wake_preempt_block(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *lo = thread(0, "lo", 10, PT_KIND_APERIODIC);
	struct pt_thread *hi = thread(1, "hi", 5, PT_KIND_APERIODIC);
	struct pt_thread *lo2 = thread(2, "lo2", 10, PT_KIND_APERIODIC);
	wake(lo);
	wake(lo2); /* lo's equal waits behind it */
	assert_string_equal(sw_log, "idle>lo ");
	assert_ptr_equal(C->current, lo);
	assert_int_equal(lo->state, PT_TS_RUNNING);
	wake(hi); /* lo runs and wakes hi: the direct hand-off preempts lo, which keeps its
		   * place ahead of lo2 */
	assert_string_equal(sw_log, "idle>lo lo>hi ");
	assert_int_equal(lo->state, PT_TS_READY);
	assert_true(lo->se.on_rq);
	/* hi blocks: lo, waiting at the head of its level, runs again */
	unsigned long f = hal_irq_save();
	pt_sched_lock(S);
	pt_leave_cpu_locked(C, S, PT_TS_BLOCKED);
	hal_irq_restore(f);
	assert_string_equal(sw_log, "idle>lo lo>hi hi>lo ");
	assert_int_equal(hi->state, PT_TS_BLOCKED);
	assert_int_equal(lo2->state, PT_TS_READY);
	assert_ptr_equal(C->current, lo);
	uint64_t a[4];
	assert_int_equal(trace_args(PT_EV_PREEMPT, a, 4), 1); /* lo preempted, by... */
	assert_int_equal(a[0], hi->tid);
	assert_int_equal(fake_hal_irq_depth(), 0);
}

static void test_a_lower_wake_waits_and_equals_stay_fifo(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *a = thread(0, "a", 5, PT_KIND_APERIODIC);
	struct pt_thread *b = thread(1, "b", 7, PT_KIND_APERIODIC);
	struct pt_thread *c = thread(2, "c", 7, PT_KIND_APERIODIC);
	wake(a);
	wake(b);
	wake(c); /* neither beats a */
	assert_string_equal(sw_log, "idle>a ");
	pt_k_thread_yield(); /* nothing of a's priority is ready: a goes on */
	assert_string_equal(sw_log, "idle>a ");
	unsigned long f = hal_irq_save();
	pt_sched_lock(S);
	pt_leave_cpu_locked(C, S, PT_TS_SUSPENDED);
	hal_irq_restore(f);
	assert_string_equal(sw_log, "idle>a a>b ");
	pt_k_thread_yield(); /* b yields to its equal c */
	assert_string_equal(sw_log, "idle>a a>b b>c ");
}

/* ---- jobs ---- */

static void test_release_complete_miss(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	struct pt_thread *p = periodic(0, "p", 5, 1000, 800, 300);
	at(100);
	pt_job_start(p); /* first release now, at 100 */
	assert_int_equal(p->state, PT_TS_WAIT_PERIOD);
	assert_int_equal(p->next_release_cycles, 100);
	tick(100);
	assert_string_equal(sw_log, "idle>p ");
	assert_int_equal(p->job, 1);
	assert_int_equal(p->release_at_cycles, 100);
	/* the next release is armed: the timer is the earlier of it and the deadline check */
	assert_int_equal(fake_hal_timer_deadline(), 900);
	at(350);
	assert_int_equal(pt_k_wait_next_period(), PT_OK); /* job 1 done: R = 250 */
	assert_string_equal(sw_log, "idle>p p>idle ");
	assert_int_equal(p->n_done, 1);
	assert_int_equal(p->max_response, 250);
	/* its deadline alarm is cancelled; the timer is not re-armed for that (a cancel is
	 * cheap): it fires at 900 for nothing and moves on to the next release */
	assert_int_equal(fake_hal_timer_deadline(), 900);
	tick(900);
	assert_int_equal(p->job, 1);
	assert_int_equal(fake_hal_timer_deadline(), 1100);
	tick(1100); /* job 2 */
	assert_int_equal(p->job, 2);
	tick(1900); /* job 2 still runs at its deadline 1900: a miss, traced */
	assert_int_equal(p->n_miss, 1);
	uint64_t a[4];
	assert_int_equal(trace_args(PT_EV_DEADLINE_MISS, a, 4), 1);
	assert_int_equal(a[0], 2);
	assert_int_equal(trace_args(PT_EV_COMPLETE, a, 4), 1);
	assert_int_equal(trace_args(PT_EV_RELEASE, a, 4), 2);
	assert_int_equal(p->ctr->released, 2);
	tick(2100); /* job 3 released while job 2 runs: an overrun (miss policy: record) */
	assert_int_equal(p->n_overrun, 1);
	assert_int_equal(stops, 0);
}

static void test_edf_key_is_the_jobs_deadline(void **st)
{
	(void)st;
	boot(PT_POLICY_EDF, 0);
	struct pt_thread *late = periodic(0, "late", 0, 10000, 9000, 100);
	struct pt_thread *soon = periodic(1, "soon", 0, 10000, 2000, 100);
	at(0);
	pt_job_start(late);
	soon->offset_cycles = 500;
	pt_job_start(soon);
	tick(0);
	assert_string_equal(sw_log, "idle>late ");
	assert_int_equal(late->se.abs_deadline, 9000);
	tick(500); /* soon's deadline 2500 < 9000: it preempts */
	assert_string_equal(sw_log, "idle>late late>soon ");
	assert_int_equal(soon->se.abs_deadline, 2500);
	assert_int_equal(S->ops->key_cmp(&soon->se, &late->se), -1);
}

/* ---- timed policy events ---- */

static void test_round_robin_through_the_core(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 100); /* a 100-cycle quantum */
	assert_true(S->timed);
	assert_false(S->lean);
	struct pt_thread *a = thread(0, "a", 5, PT_KIND_APERIODIC);
	struct pt_thread *b = thread(1, "b", 5, PT_KIND_APERIODIC);
	at(0);
	wake(a);
	wake(b);
	assert_string_equal(sw_log, "idle>a ");
	assert_int_equal(C->sched_event_cycles, 100);
	assert_int_equal(fake_hal_timer_deadline(), 100);
	tick(100);
	assert_string_equal(sw_log, "idle>a a>b ");
	assert_int_equal(fake_hal_timer_deadline(), 200);
	tick(150); /* nothing due: no change */
	assert_string_equal(sw_log, "idle>a a>b ");
	tick(200);
	assert_string_equal(sw_log, "idle>a a>b b>a ");
	/* a alone: its quantum ends and it goes on, on a new one */
	unsigned long f = hal_irq_save();
	at(250);
	pt_sched_lock(S);
	pt_leave_cpu_locked(C, S, PT_TS_SUSPENDED); /* a leaves: b for the rest of... a full one */
	hal_irq_restore(f);
	assert_string_equal(sw_log, "idle>a a>b b>a a>b ");
	assert_int_equal(fake_hal_timer_deadline(), 350);
	tick(350);
	assert_string_equal(sw_log, "idle>a a>b b>a a>b ");
	assert_int_equal(fake_hal_timer_deadline(), 450);
}

/* A policy that holds every release for HOLD_CYCLES (as a load phase would) and readies it
 * from its timed event: on_release's hold path and pt_sched_release_held, FP underneath. */
#define HOLD_CYCLES 40
static struct pt_sched_entity *held_e;
static uint64_t held_until = UINT64_MAX;
static int holds, events;
static bool hold_on_release(struct pt_sched *s, struct pt_sched_entity *e, uint64_t rel,
			    uint64_t dl)
{
	(void)s, (void)dl;
	held_e = e;
	held_until = rel + HOLD_CYCLES;
	holds++;
	return false;
}
static uint64_t hold_next_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *prev,
				struct pt_sched_entity *next, uint32_t flags, uint64_t now)
{
	(void)s, (void)cpu, (void)prev, (void)next, (void)flags, (void)now;
	return held_e ? held_until : UINT64_MAX;
}
static int hold_on_event(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *running,
			 uint64_t now)
{
	(void)cpu, (void)running;
	events++;
	if (held_e && now >= held_until) {
		struct pt_sched_entity *e = held_e;
		held_e = 0;
		pt_sched_release_held(s, e);
	}
	return PT_SCHED_EV_NONE;
}
static struct pt_sched_ops hold_ops;
static void hold_init(struct pt_sched *s)
{
	pt_sched_fp_ops.init(s);
	s->timed = 1;
}

static void test_a_policy_may_hold_a_release(void **st)
{
	(void)st;
	boot(PT_POLICY_FP, 0);
	hold_ops = pt_sched_fp_ops;
	hold_ops.name = "hold";
	hold_ops.init = hold_init;
	hold_ops.on_release = hold_on_release;
	hold_ops.next_event = hold_next_event;
	hold_ops.on_event = hold_on_event;
	S->ops = &hold_ops;
	S->fp = 0; /* through the table, as any non-FP policy */
	hold_ops.init(S);
	S->lean = 0;
	held_e = 0, holds = events = 0;
	struct pt_thread *p = periodic(0, "p", 5, 1000, 800, 300);
	at(0);
	pt_job_start(p);
	tick(0);
	assert_int_equal(holds, 1);
	assert_int_equal(p->state, PT_TS_WAIT_PERIOD); /* released, held */
	assert_true(p->held);
	assert_string_equal(sw_log, "");
	/* the idle cpu's timer is armed for the policy's event, which readies the job */
	assert_int_equal(C->sched_event_cycles, HOLD_CYCLES);
	assert_int_equal(fake_hal_timer_deadline(), HOLD_CYCLES);
	tick(HOLD_CYCLES);
	assert_int_equal(events, 1);
	assert_false(p->held);
	assert_string_equal(sw_log, "idle>p ");
	assert_int_equal(p->release_at_cycles, 0); /* the response still counts from release */
	at(HOLD_CYCLES + 100);
	pt_k_wait_next_period();
	assert_int_equal(p->max_response, HOLD_CYCLES + 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wake_preempt_block),
		cmocka_unit_test(test_a_lower_wake_waits_and_equals_stay_fifo),
		cmocka_unit_test(test_release_complete_miss),
		cmocka_unit_test(test_edf_key_is_the_jobs_deadline),
		cmocka_unit_test(test_round_robin_through_the_core),
		cmocka_unit_test(test_a_policy_may_hold_a_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
