/* Host unit tests of the portable SPM logic (subsys/spm/spm.c): the relocatable-task table,
 * active/ready queues, Rule 1 / Rule 2 and a randomized protocol run checking the invariants
 * of brief 0 against the real decision code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spm.h"

#define PART 0x8000u
static const uintptr_t bases[PT_SPM_MAX_CORES] = { 0x100000, 0x200000, 0x300000 };

static struct pt_spm_system sys;

static struct pt_spm_task_cfg task(const char *name, uint16_t core, uint16_t prio, uint32_t img)
{
	return (struct pt_spm_task_cfg){ .name = name, .core = core, .priority = prio,
					 .period_ns = 1000000, .deadline_ns = 1000000,
					 .wcet_ns = 1000, .image_bytes = img, .data_bytes = img / 2 };
}

static void test_init_sorts_by_priority(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("lo", 0, 9, 64), task("hi", 0, 1, 64),
					 task("mid", 0, 5, 64), task("c1", 1, 0, 64) };
	assert_int_equal(pt_spm_init(&sys, 2, bases, PART, cfg, 4), 0);
	assert_int_equal(sys.core[0].ntasks, 3);
	assert_string_equal(sys.core[0].tasks[0]->cfg->name, "hi");
	assert_string_equal(sys.core[0].tasks[1]->cfg->name, "mid");
	assert_string_equal(sys.core[0].tasks[2]->cfg->name, "lo");
	assert_int_equal(sys.core[0].part[1].base, 0x100000 + PART);
	assert_int_equal(sys.task[0].status, PT_SPM_UNLOADED);
	assert_int_equal(sys.task[0].partition, -1);
}

static void test_init_rejects_oversized_image(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("big", 0, 0, PART) };
	cfg[0].in_mirror_bytes = 8; /* image + input mirror exceed the partition by 8 bytes */
	assert_int_equal(pt_spm_init(&sys, 1, bases, PART, cfg, 1), -1);
	cfg[0].in_mirror_bytes = 0;
	assert_int_equal(pt_spm_init(&sys, 1, bases, PART, cfg, 1), 0);
	struct pt_spm_task_cfg bad_core[] = { task("x", 3, 0, 64) };
	assert_int_equal(pt_spm_init(&sys, 2, bases, PART, bad_core, 1), -1);
}

static void test_rule1_loads_highest_priority(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 2, 64), task("b", 0, 1, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 2);
	pt_spm_release(&sys, 0, 10);
	pt_spm_release(&sys, 1, 10);
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_LOAD);
	assert_int_equal(a.task, 1); /* b has the higher priority */
	assert_int_equal(a.part, 0);
	assert_int_equal(sys.task[1].status, PT_SPM_LOADING);
	/* a second decision while the transfer is in flight is refused */
	struct pt_spm_action b = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(b.kind, PT_SPM_IDLE);
	assert_int_equal(b.reason, PT_SPM_IDLE_BUSY);
	/* a task never starts before its load completes */
	assert_int_equal(pt_spm_pick(&sys, 0), PT_SPM_NO_TASK);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(sys.task[1].status, PT_SPM_LOADED);
	assert_int_equal(pt_spm_task_base(&sys, 1), bases[0]);
	assert_int_equal(pt_spm_pick(&sys, 0), 1);
	/* next slot: the other partition gets the other task */
	a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_LOAD);
	assert_int_equal(a.task, 0);
	assert_int_equal(a.part, 1);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(pt_spm_task_base(&sys, 0), bases[0] + PART);
}

static void test_rule1_before_rule2(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 0, 64), task("b", 0, 1, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 2);
	pt_spm_release(&sys, 0, 0);
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(pt_spm_pick(&sys, 0), 0);
	pt_spm_complete(&sys, 0);
	assert_int_equal(sys.task[0].status, PT_SPM_COMPLETED);
	/* a completed in P0, b active, P1 free: Rule 1 wins */
	pt_spm_release(&sys, 1, 5);
	a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_LOAD);
	assert_int_equal(a.task, 1);
	assert_int_equal(a.part, 1);
	pt_spm_transfer_done(&sys, 0, &a);
	/* nothing to load: Rule 2 unloads a */
	a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_UNLOAD);
	assert_int_equal(a.task, 0);
	assert_int_equal(a.part, 0);
	assert_int_equal(sys.task[0].status, PT_SPM_UNLOADING);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(sys.task[0].status, PT_SPM_UNLOADED);
	assert_int_equal(sys.core[0].part[0].task, PT_SPM_NO_TASK);
	assert_int_equal(sys.task[0].partition, 0); /* partition of the last relocation kept */
}

static void test_idle_reasons_and_wasted_slots(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 0, 64), task("b", 0, 1, 64),
					 task("c", 0, 2, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 3);
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_IDLE);
	assert_int_equal(a.reason, PT_SPM_IDLE_NOTHING);
	for (int i = 0; i < 3; i++)
		pt_spm_release(&sys, (uint32_t)i, 0);
	a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a);
	pt_spm_pick(&sys, 0); /* a runs in P0 */
	a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a); /* b loaded in P1 */
	a = pt_spm_slot_decide(&sys, 0);   /* c waits: both partitions busy, nothing completed */
	assert_int_equal(a.kind, PT_SPM_IDLE);
	assert_int_equal(a.reason, PT_SPM_IDLE_NO_PART);
	assert_int_equal(sys.core[0].idle_slots, 2);
	assert_int_equal(sys.core[0].wasted_slots, 1);
}

static void test_nonpreemptive_pick(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("lo", 0, 5, 64), task("hi", 0, 0, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 2);
	pt_spm_release(&sys, 0, 0);
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(pt_spm_pick(&sys, 0), 0);
	pt_spm_release(&sys, 1, 1);
	a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(pt_spm_pick(&sys, 0), PT_SPM_NO_TASK); /* lo keeps the cpu */
	pt_spm_complete(&sys, 0);
	assert_int_equal(pt_spm_pick(&sys, 0), 1);
}

static void test_pending_release_after_unload(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 0, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 1);
	sys.task[0].period_cycles = 100;
	assert_true(pt_spm_release(&sys, 0, 0));
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
	pt_spm_transfer_done(&sys, 0, &a);
	pt_spm_pick(&sys, 0);
	assert_false(pt_spm_release(&sys, 0, 100)); /* still running: pending */
	assert_int_equal(sys.task[0].pending, 1);
	pt_spm_complete(&sys, 0);
	a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_UNLOAD);
	assert_true(pt_spm_transfer_done(&sys, 0, &a));
	assert_int_equal(sys.task[0].status, PT_SPM_RELEASED);
	assert_int_equal(sys.task[0].job, 2);
	assert_int_equal(sys.task[0].release_cycles, 100);
}

static void test_single_task_alternates_partitions(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("solo", 0, 0, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 1);
	for (int job = 0; job < 4; job++) {
		pt_spm_release(&sys, 0, (uint64_t)job * 100);
		struct pt_spm_action a = pt_spm_slot_decide(&sys, 0);
		assert_int_equal(a.kind, PT_SPM_LOAD);
		assert_int_equal(a.part, job % 2); /* relocation: the image runs from both */
		pt_spm_transfer_done(&sys, 0, &a);
		assert_int_equal(pt_spm_task_base(&sys, 0), bases[0] + (uintptr_t)(job % 2) * PART);
		pt_spm_pick(&sys, 0);
		pt_spm_complete(&sys, 0);
		a = pt_spm_slot_decide(&sys, 0);
		assert_int_equal(a.kind, PT_SPM_UNLOAD);
		pt_spm_transfer_done(&sys, 0, &a);
	}
}

static void test_unload_in_completion_order(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 0, 64), task("b", 0, 1, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 2);
	pt_spm_release(&sys, 1, 0);
	struct pt_spm_action a = pt_spm_slot_decide(&sys, 0); /* b -> P0 */
	pt_spm_transfer_done(&sys, 0, &a);
	pt_spm_pick(&sys, 0);
	pt_spm_release(&sys, 0, 1);
	a = pt_spm_slot_decide(&sys, 0); /* a -> P1 */
	pt_spm_transfer_done(&sys, 0, &a);
	pt_spm_complete(&sys, 0); /* b done first */
	pt_spm_pick(&sys, 0);
	pt_spm_complete(&sys, 0); /* then a */
	a = pt_spm_slot_decide(&sys, 0);
	assert_int_equal(a.kind, PT_SPM_UNLOAD);
	assert_int_equal(a.task, 1); /* b, the older completion, although a has priority */
}

/* Randomized protocol run: M cores, TDMA slots of SIGMA ticks, transfers take up to SIGMA.
 * Checks every brief-0 invariant that the decision code is responsible for. */
#define SIGMA 100u
struct sim_core { int64_t run_end; int running; };

static void run_random(unsigned seed, uint32_t m)
{
	srand(seed);
	struct pt_spm_task_cfg cfg[16];
	uint32_t n = 0;
	uint64_t period[16];
	for (uint32_t c = 0; c < m; c++)
		for (uint32_t k = 0; k < 3; k++, n++) {
			cfg[n] = task("t", (uint16_t)c, (uint16_t)k, 64);
			cfg[n].wcet_ns = 1 + (uint64_t)(rand() % 400);
			period[n] = 2000 + (uint64_t)(rand() % 4000);
		}
	assert_int_equal(pt_spm_init(&sys, m, bases, PART, cfg, n), 0);
	for (uint32_t i = 0; i < n; i++)
		sys.task[i].period_cycles = period[i];
	struct sim_core sc[PT_SPM_MAX_CORES] = { 0 };
	bool used[PT_SPM_MAX_CORES][2] = { { false } };
	uint64_t loads = 0, unloads = 0;
	for (uint64_t t = 0; t < 200000; t++) {
		for (uint32_t i = 0; i < n; i++)
			if (t % period[i] == 0)
				pt_spm_release(&sys, i, t);
		for (uint32_t c = 0; c < m; c++) {
			if (sc[c].running >= 0 && (int64_t)t >= sc[c].run_end && sc[c].run_end) {
				pt_spm_complete(&sys, c);
				sc[c].running = -1;
				sc[c].run_end = 0;
			}
			if (sys.core[c].running == PT_SPM_NO_TASK) {
				int id = pt_spm_pick(&sys, c);
				if (id >= 0) {
					/* never starts unless its image sits in a partition */
					assert_int_equal(sys.task[id].status, PT_SPM_RUNNING);
					assert_int_equal(sys.core[c].part[sys.task[id].partition].task, id);
					sc[c].running = id;
					sc[c].run_end = (int64_t)(t + sys.task[id].cfg->wcet_ns);
				}
			}
		}
		if (t % SIGMA == 0) {
			uint64_t slot = t / SIGMA;
			uint32_t owner = pt_spm_slot_owner(slot, m);
			for (uint32_t c = 0; c < m; c++)
				assert_false(sys.core[c].in_flight); /* previous transfer done in-slot */
			bool could_load = sys.core[owner].active &&
				(sys.core[owner].part[0].task < 0 || sys.core[owner].part[1].task < 0);
			struct pt_spm_action a = pt_spm_slot_decide(&sys, owner);
			if (could_load)
				assert_int_equal(a.kind, PT_SPM_LOAD); /* Rule 1 first */
			if (a.kind != PT_SPM_IDLE) {
				assert_int_equal(sys.task[a.task].cfg->core, owner); /* owner's slot */
				used[owner][a.part] = true;
				/* the transfer completes within the slot (copy time <= sigma) */
				pt_spm_transfer_done(&sys, owner, &a);
				if (a.kind == PT_SPM_LOAD)
					loads++;
				else
					unloads++;
			}
		}
	}
	assert_true(loads > 10 && unloads > 10);
	for (uint32_t c = 0; c < m; c++) {
		assert_true(used[c][0]);
		assert_true(used[c][1]); /* both partitions used */
	}
}

/* Rule 2 as of the slot's nominal start: a job that completed after the boundary (but before
 * a late I/O core decided) is not unloaded in that slot. */
static void test_decide_at_ignores_later_completion(void **st)
{
	(void)st;
	struct pt_spm_task_cfg cfg[] = { task("a", 0, 0, 64) };
	pt_spm_init(&sys, 1, bases, PART, cfg, 1);
	pt_spm_release(&sys, 0, 10);
	struct pt_spm_action a = pt_spm_slot_decide_at(&sys, 0, 100);
	assert_int_equal(a.kind, PT_SPM_LOAD);
	pt_spm_transfer_done(&sys, 0, &a);
	assert_int_equal(pt_spm_pick(&sys, 0), 0);
	pt_spm_complete_at(&sys, 0, 250);
	a = pt_spm_slot_decide_at(&sys, 0, 200);   /* completed after this boundary: idle */
	assert_int_equal(a.kind, PT_SPM_IDLE);
	a = pt_spm_slot_decide_at(&sys, 0, 300);   /* next boundary: Rule 2 */
	assert_int_equal(a.kind, PT_SPM_UNLOAD);
	assert_int_equal(a.task, 0);
}

static void test_random_protocol_invariants(void **st)
{
	(void)st;
	for (unsigned seed = 1; seed <= 50; seed++)
		run_random(seed, 1 + seed % 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_sorts_by_priority),
		cmocka_unit_test(test_init_rejects_oversized_image),
		cmocka_unit_test(test_rule1_loads_highest_priority),
		cmocka_unit_test(test_rule1_before_rule2),
		cmocka_unit_test(test_idle_reasons_and_wasted_slots),
		cmocka_unit_test(test_nonpreemptive_pick),
		cmocka_unit_test(test_pending_release_after_unload),
		cmocka_unit_test(test_single_task_alternates_partitions),
		cmocka_unit_test(test_unload_in_completion_order),
		cmocka_unit_test(test_decide_at_ignores_later_completion),
		cmocka_unit_test(test_random_protocol_invariants),
	};
	return cmocka_run_group_tests_name("spm", tests, NULL, NULL);
}
