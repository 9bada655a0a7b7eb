/*
 * Interrupt handler threads (kernel/core/irq.c) on the host: the mapping of handler priorities
 * onto the PLIC's levels and of the running thread's priority onto the threshold (checked for
 * every priority against "a source traps iff its handler strictly beats the running thread"),
 * the threshold following each dispatch, and a claim waking its blocked handler, which
 * completes the source in its next pt_irq_wait.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core_harness.h"
#include <partita/hal_irq.h>

extern uint32_t fake_irq_level[HAL_IRQ_MAX_SOURCE + 1];
extern int fake_irq_cpu[HAL_IRQ_MAX_SOURCE + 1];
extern uint32_t fake_irq_threshold, fake_irq_threshold_writes, fake_irq_next_claim;
extern uint32_t fake_irq_completed[8];
extern int fake_irq_ncompleted;

struct pt_spinlock pt_sync_lock;
void pt_sync_release_owned(struct pt_thread *t, int code) { (void)t, (void)code; }
int pt_block(struct pt_waitq *q, uint8_t kind, uint32_t id, uint64_t until)
{
	(void)q, (void)kind, (void)id, (void)until;
	pt_panic("pt_block: not used by these tests");
}

static struct pt_thread_cfg cfg_of(const char *name, uint16_t irq, uint16_t prio)
{
	return (struct pt_thread_cfg){ .name = name, .cpu = 0, .priority = prio, .irq = irq };
}

/* handlers at priorities 20 (sources 3, 4), 50 (source 5) and 100 (source 10 = uart0) */
static struct pt_thread *h20, *h20b, *h50, *h100;
static void bind_four(void)
{
	boot(PT_POLICY_FP, 0);
	pt_irq_init();
	h20 = thread(0, "h20", 20, PT_KIND_APERIODIC);
	h20b = thread(1, "h20b", 20, PT_KIND_APERIODIC);
	h50 = thread(2, "h50", 50, PT_KIND_APERIODIC);
	h100 = thread(3, "h100", 100, PT_KIND_APERIODIC);
	struct pt_thread_cfg c[4] = { cfg_of("h100", HAL_IRQ_SRC_UART0, 100), cfg_of("h20", 3, 20),
				      cfg_of("h50", 5, 50), cfg_of("h20b", 4, 20) };
	struct pt_thread *t[4] = { h100, h20, h50, h20b };
	for (int i = 0; i < 4; i++)
		pt_irq_bind(&c[i], t[i]);
	pt_irq_boot();
}

static void test_levels_and_thresholds_are_exact(void **st)
{
	(void)st;
	bind_four();
	assert_int_equal(fake_irq_level[3], 3);
	assert_int_equal(fake_irq_level[4], 3);
	assert_int_equal(fake_irq_level[5], 2);
	assert_int_equal(fake_irq_level[10], 1);
	assert_int_equal(fake_irq_cpu[10], 0);
	assert_int_equal(S->lean, 0); /* the threshold write lives in switch_general */
	const uint32_t src[4] = { 3, 4, 5, 10 };
	const uint16_t hp[4] = { 20, 20, 50, 100 };
	struct pt_thread *r = thread(10, "r", 0, PT_KIND_APERIODIC);
	for (uint32_t q = 0; q < PT_PRIO_LEVELS; q++) {
		r->se.prio = (uint16_t)q;
		pt_irq_follow(C, r);
		for (int i = 0; i < 4; i++) {
			bool traps = fake_irq_level[src[i]] > fake_irq_threshold;
			if (traps != (hp[i] < q))
				fail_msg("priority %u, source %u (handler %u): traps %d", q, src[i],
					 hp[i], traps);
		}
	}
	pt_irq_follow(C, C->idle);
	assert_int_equal(fake_irq_threshold, 0); /* idle: every routed source traps */
}

static void test_threshold_follows_dispatch_and_is_written_only_on_change(void **st)
{
	(void)st;
	bind_four();
	struct pt_thread *a = thread(10, "a", 10, PT_KIND_APERIODIC);
	struct pt_thread *b = thread(11, "b", 60, PT_KIND_APERIODIC);
	uint32_t writes = fake_irq_threshold_writes;
	wake(b);
	assert_int_equal(fake_irq_threshold, 1); /* only h100's source is below b */
	wake(a);
	assert_string_equal(sw_log, "idle>b b>a ");
	assert_int_equal(fake_irq_threshold, 3); /* every handler is below a */
	assert_int_equal(fake_irq_threshold_writes, writes + 2);
}

static void test_claim_wakes_handler_which_completes_in_its_next_wait(void **st)
{
	(void)st;
	bind_four();
	wake(h50);          /* the handler starts and waits */
	assert_int_equal(pt_k_irq_wait(), 5); /* (the fake switch returns at once) */
	assert_int_equal(h50->state, PT_TS_BLOCKED);
	assert_int_equal(fake_irq_ncompleted, 0); /* nothing was claimed yet */
	struct pt_thread *lo = thread(10, "lo", 80, PT_KIND_APERIODIC);
	wake(lo);
	sw_log[0] = 0;
	fake_irq_next_claim = 5;
	unsigned long f = hal_irq_save();
	assert_int_equal(pt_irq_fast(), 1); /* a switch follows: the full exit path */
	hal_irq_restore(f);
	assert_int_equal(h50->state, PT_TS_READY);
	pt_preempt_point();
	assert_string_equal(sw_log, "lo>h50 ");
	/* the harness's switch returned at once, so the blocked wait above has already finished:
	 * this call stands for its return after the wake (it takes the pending claim) ... */
	assert_int_equal(pt_k_irq_wait(), 5);
	assert_int_equal(fake_irq_ncompleted, 0);
	/* ... and this one is the handler's next wait: it completes the source, then blocks */
	assert_int_equal(pt_k_irq_wait(), 5);
	assert_int_equal(h50->state, PT_TS_BLOCKED);
	assert_int_equal(fake_irq_ncompleted, 1);
	assert_int_equal(fake_irq_completed[0], 5);
	/* a claim for a handler that does not preempt: no full exit */
	fake_irq_next_claim = 10;
	f = hal_irq_save();
	C->current = h20; /* pretend a high thread runs */
	h20->state = PT_TS_RUNNING;
	S->running[0] = &h20->se;
	assert_int_equal(pt_irq_fast(), 0);
	hal_irq_restore(f);
	/* an unbound source is completed at once */
	fake_irq_next_claim = 7;
	pt_irq_external();
	assert_int_equal(fake_irq_completed[fake_irq_ncompleted - 1], 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_and_thresholds_are_exact),
		cmocka_unit_test(test_threshold_follows_dispatch_and_is_written_only_on_change),
		cmocka_unit_test(test_claim_wakes_handler_which_completes_in_its_next_wait),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
