/* The two-level TDM policy (kernel/sched/tdm) driven the way the core drives it: timed events
 * at the slot boundaries, eviction at the end of an application slot, one firing per slot.
 * Checks the wheel's fixed boundaries, StS and DyS order, idling when the chosen task is not
 * eligible, late events, and that one application's choices never depend on another's. */
#include <string.h>
#include "test_util.h"
#include "sched/sched.h"
#include <partita/tdm.h>

#define NT 6
static struct pt_sched S;
static struct pt_sched_entity ent[NT];
static bool elig[NT + 1]; /* by tid */
static uint32_t decided_tid[64], ndecided;

static bool hook_eligible(uint32_t tid) { return elig[tid]; }
static void hook_decided(uint32_t cpu, uint32_t app, uint32_t tid, uint64_t t)
{
	(void)cpu, (void)app, (void)t;
	if (ndecided < 64)
		decided_tid[ndecided++] = tid;
}
static const struct pt_tdm_hooks hooks = { hook_eligible, hook_decided };

/* app 0: StS table t0 t1 t0 t2 (tasks 0..2); app 1: DyS over t3 t4 t5 */
static const uint16_t order0[] = { 0, 1, 0, 2 };
static const uint16_t order1[] = { 3, 4, 5 };
static const struct pt_tdm_app_cfg apps[] = {
	{ PT_TDM_STS, 4, order0 },
	{ PT_TDM_DYS, 3, order1 },
};
static const uint64_t slots[] = { 100, 200 };
static const uint8_t slot_app[] = { 0, 1 };
static const uint32_t tids[] = { 1, 2, 3, 4, 5, 6 };
static struct pt_tdm_cfg cfg = { 10, 2, slots, slot_app, 2, apps, NT, tids };
/* wheel (period 320): RTOS [0,10) app0 [10,110) RTOS [110,120) app1 [120,320); an
 * application slot's event comes half an RTOS slot early (5) and spins to the boundary */

static struct pt_sched_entity *running;
extern unsigned pt_test_events_changed; /* policy_services.c */

static void setup(const struct pt_tdm_cfg *c, bool with_hooks)
{
	memset(&S, 0, sizeof S);
	memset(ent, 0, sizeof ent);
	S.cpu_mask = 1;
	S.policy_cfg = c;
	S.ops = &pt_sched_tdm_ops;
	pt_tdm_set_hooks(with_hooks ? &hooks : 0);
	S.ops->init(&S);
	assert_true(S.timed);
	pt_test_events_changed = 0;
	for (int i = 0; i < NT; i++) {
		ent[i].tid = (uint32_t)i + 1;
		S.ops->enqueue(&S, &ent[i]);
		elig[i + 1] = true;
	}
	/* the first ready task starts the wheel's timer (an idle cpu decides nothing) */
	assert_int_equal(pt_test_events_changed, 1);
	running = 0;
	ndecided = 0;
}

/* One step of the core at time now: the event if due, then the dispatch decision. Returns
 * the next event time. A task that runs "fires" at once: it leaves the cpu (sleeps) and is
 * ready again right away, which uses up its slot. */
static uint64_t step(uint64_t now, uint64_t due, uint32_t *ran_tid)
{
	*ran_tid = 0;
	if (now >= due) {
		int ev = S.ops->on_event(&S, 0, running, now);
		if (ev == PT_SCHED_EV_EVICT) {
			S.ops->enqueue_head(&S, running);
			running = 0;
		}
	}
	struct pt_sched_entity *best = S.ops->peek(&S, 0);
	if (best && !running) {
		S.ops->dequeue(&S, best);
		running = best;
		S.running[0] = best;
		*ran_tid = best->tid;
		/* its firing: it blocks and wakes, ready again (enqueue): its slot is used */
		running = 0;
		S.running[0] = 0;
		S.ops->enqueue(&S, best);
		assert_null(S.ops->peek(&S, 0));
	}
	return S.ops->next_event(&S, 0, 0, running, 0, now);
}

/* Run until `until`; record which task ran in each application slot (0 = idle). */
static unsigned run(uint64_t until, uint32_t *per_slot, unsigned max)
{
	uint64_t due = S.ops->next_event(&S, 0, 0, 0, 0, 0), now = 0;
	unsigned n = 0;
	while (now < until && n < max) {
		uint64_t before = now;
		now = due;
		uint32_t ran;
		due = step(now, due, &ran);
		assert_true(due > now);
		/* boundaries are the wheel's, whatever ran */
		uint64_t in = now % 320;
		assert_true(in == 0 || in == 5 || in == 110 || in == 115);
		if (in == 5 || in == 115)
			per_slot[n++] = ran;
		(void)before;
	}
	return n;
}

static void test_sts_and_dys_order(void **st)
{
	(void)st;
	uint32_t got[16];
	setup(&cfg, true);
	unsigned n = run(320 * 4, got, 16);
	assert_int_equal(n, 8);
	/* app0 slots: table t0 t1 t0 t2; app1 slots: round robin t3 t4 t5 t3 */
	const uint32_t want[] = { 1, 4, 2, 5, 1, 6, 3, 4 };
	assert_memory_equal(got, want, sizeof want);
}

static void test_sts_idles_and_waits_dys_skips(void **st)
{
	(void)st;
	uint32_t got[16];
	setup(&cfg, true);
	elig[2] = false; /* t1 (StS table's second) and t4 (DyS) not eligible */
	elig[5] = false;
	unsigned n = run(320 * 4, got, 16);
	assert_int_equal(n, 8);
	/* StS: t0, then t1 not eligible: the slot idles and the table waits on t1;
	 * DyS: t3, t4 skipped -> t5, t3, t5 */
	const uint32_t want[] = { 1, 4, 0, 6, 0, 4, 0, 6 };
	assert_memory_equal(got, want, sizeof want);
	assert_int_equal(ndecided, 9); /* and the one at 1280, where the run stops */
	assert_int_equal(decided_tid[2], 0); /* the idle decisions are reported too */
}

/* App 0's choices and slot times are the same whatever app 1 does (composability). */
static void test_other_app_does_not_matter(void **st)
{
	(void)st;
	uint32_t a[32], b[32];
	setup(&cfg, true);
	unsigned na = run(320 * 10, a, 32);
	setup(&cfg, true);
	for (int i = 3; i < NT; i++) { /* app 1 has nothing to run */
		S.ops->dequeue(&S, &ent[i]);
		elig[i + 1] = false;
	}
	unsigned nb = run(320 * 10, b, 32);
	assert_int_equal(na, nb);
	for (unsigned i = 0; i < na; i += 2)
		assert_int_equal(a[i], b[i]);   /* app 0 slots */
	for (unsigned i = 1; i < nb; i += 2)
		assert_int_equal(b[i], 0);      /* app 1 slots idle */
}

/* The wheel's first look (boot, mid-wheel) does not catch up on earlier boundaries. */
static void test_start_mid_wheel(void **st)
{
	(void)st;
	uint32_t ran;
	setup(&cfg, true);
	/* in app0's slot at 1000 (turn 3 starts at 960): its task was never decided, so it
	 * idles; the next boundary is entry 1's RTOS slot at 1070 */
	assert_int_equal(S.ops->next_event(&S, 0, 0, 0, 0, 1000), 1070);
	assert_int_equal(step(1000, 1070, &ran), 1070);
	assert_int_equal(ran, 0);
	assert_int_equal(ndecided, 0);
	setup(&cfg, true);
	/* in the RTOS slot at 965 (entry 0 at 960): its decision is still taken */
	assert_int_equal(S.ops->next_event(&S, 0, 0, 0, 0, 965), 960);
	step(965, 960, &ran);
	assert_int_equal(ndecided, 1);
	assert_int_equal(decided_tid[0], 1);
}

/* A late event handles every boundary it passed, in order: no decision is skipped. */
static void test_late_event(void **st)
{
	(void)st;
	setup(&cfg, true);
	uint32_t ran;
	assert_int_equal(S.ops->next_event(&S, 0, 0, 0, 0, 0), 0);
	step(0, 0, &ran); /* boundary at 0: RTOS slot of entry 0 */
	uint64_t due = step(115, 10, &ran); /* late past app0 start and RTOS of entry 1 */
	assert_int_equal(ndecided, 2);
	assert_int_equal(due, 115); /* app1's slot at 120, its event early */
	due = step(120, due, &ran);
	assert_int_equal(ran, 4); /* app1's decision was taken at 115 */
	assert_int_equal(due, 320);
}

/* A task still running at the end of its slot is evicted, and resumes first next time. */
static void test_evict(void **st)
{
	(void)st;
	setup(&cfg, false);
	assert_int_equal(S.ops->next_event(&S, 0, 0, 0, 0, 0), 0);
	assert_int_equal(S.ops->on_event(&S, 0, 0, 0), PT_SCHED_EV_NONE);
	assert_int_equal(S.ops->on_event(&S, 0, 0, 10), PT_SCHED_EV_NONE);
	struct pt_sched_entity *e = S.ops->peek(&S, 0);
	assert_ptr_equal(e, &ent[0]);
	S.ops->dequeue(&S, e);
	S.running[0] = e;
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[1]), -1);
	assert_int_equal(S.ops->on_event(&S, 0, e, 110), PT_SCHED_EV_EVICT);
	S.ops->enqueue_head(&S, e);
	S.running[0] = 0;
	assert_null(S.ops->peek(&S, 0)); /* RTOS slot: idle */
	assert_int_equal(S.ops->next_event(&S, 0, e, 0, 0, 110), 115);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sts_and_dys_order),
		cmocka_unit_test(test_sts_idles_and_waits_dys_skips),
		cmocka_unit_test(test_other_app_does_not_matter),
		cmocka_unit_test(test_late_event),
		cmocka_unit_test(test_start_mid_wheel),
		cmocka_unit_test(test_evict),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
