/* FP policy against a brute-force model: per-level FIFO, enqueue_head, key_changed. */
#include <string.h>
#include <stdlib.h>
#include "test_util.h"
#include "sched/sched.h"
#include "sched/fp/fp.h"
#include "sched/fp/fp_rq.h"

#define N_ENT 200

static struct pt_sched S;
static struct pt_sched_entity ent[N_ENT];

/* Model: entity i queued iff m_on[i]; order within a level by m_pos (smaller first). */
static int m_on[N_ENT];
static unsigned m_lvl[N_ENT];
static int64_t m_pos[N_ENT];
static int64_t m_tail, m_head;

static void setup_sched(void)
{
	memset(&S, 0, sizeof S);
	memset(ent, 0, sizeof ent);
	S.ops = &pt_sched_fp_ops;
	S.cpu_mask = 1u << 2;
	S.ops->init(&S);
	for (int i = 0; i < N_ENT; i++) {
		ent[i].tid = (uint32_t)i + 1;
		ent[i].cpu = -1;
		ent[i].pinned_cpu = -1;
		pt_list_init(&ent[i].node);
	}
	memset(m_on, 0, sizeof m_on);
	m_tail = 0;
	m_head = 0;
}

static int model_best(void)
{
	int best = -1;

	for (int i = 0; i < N_ENT; i++) {
		if (!m_on[i])
			continue;
		if (best < 0 || m_lvl[i] < m_lvl[best] ||
		    (m_lvl[i] == m_lvl[best] && m_pos[i] < m_pos[best]))
			best = i;
	}
	return best;
}

static unsigned lvl_of(unsigned prio) { return prio < 256 ? prio : 255; }

/* Bitmap invariants and every level list equal to the model's order. */
static void check_structure(void)
{
	struct pt_fp_rq *rq = pt_fp_rq_of(&S);

	for (unsigned p = 0; p < PT_PRIO_LEVELS; p++) {
		int nonempty = !pt_list_empty(&rq->level[p]);
		int bit = (int)(rq->bitmap[p / 64] >> (p % 64) & 1);

		assert_int_equal(nonempty, bit);
		int64_t last = INT64_MIN;
		unsigned n = 0;

		pt_list_for_each(it, &rq->level[p]) {
			struct pt_sched_entity *e = pt_container_of(it, struct pt_sched_entity, node);
			int i = (int)(e - ent);

			assert_true(m_on[i]);
			assert_int_equal(m_lvl[i], p);
			assert_true(m_pos[i] > last);
			assert_int_equal(e->on_rq, 1);
			last = m_pos[i];
			n++;
		}
		unsigned want = 0;

		for (int i = 0; i < N_ENT; i++)
			want += m_on[i] && m_lvl[i] == p;
		assert_int_equal(n, want);
	}
	for (unsigned w = 0; w < PT_PRIO_LEVELS / 64; w++)
		assert_int_equal((int)(rq->top >> w & 1), rq->bitmap[w] != 0);
}

static void run_random(uint64_t seed, unsigned steps, unsigned prio_range, int check_every)
{
	struct rng r = { seed };

	setup_sched();
	for (unsigned step = 0; step < steps; step++) {
		int i = (int)rng_below(&r, N_ENT);
		unsigned op = (unsigned)rng_below(&r, 10);
		struct pt_sched_entity *e = &ent[i];

		if (op <= 3 && !m_on[i]) { /* enqueue */
			e->prio = (uint16_t)rng_below(&r, prio_range);
			S.ops->enqueue(&S, e);
			m_on[i] = 1;
			m_lvl[i] = lvl_of(e->prio);
			m_pos[i] = ++m_tail;
		} else if (op == 4 && !m_on[i]) { /* preempted: back at the head */
			e->prio = (uint16_t)rng_below(&r, prio_range);
			S.ops->enqueue_head(&S, e);
			m_on[i] = 1;
			m_lvl[i] = lvl_of(e->prio);
			m_pos[i] = --m_head;
		} else if (op <= 6 && m_on[i]) { /* block / delete */
			S.ops->dequeue(&S, e);
			m_on[i] = 0;
		} else if (op == 7) { /* set-priority, queued or not */
			e->prio = (uint16_t)rng_below(&r, prio_range);
			S.ops->key_changed(&S, e);
			if (m_on[i]) {
				m_lvl[i] = lvl_of(e->prio);
				m_pos[i] = ++m_tail;
			}
		} else if (op == 8) { /* pick: peek then dequeue the best */
			struct pt_sched_entity *b = S.ops->peek(&S, 2);
			int mb = model_best();

			if (mb < 0) {
				assert_null(b);
			} else {
				assert_ptr_equal(b, &ent[mb]);
				S.ops->dequeue(&S, b);
				m_on[mb] = 0;
				assert_int_equal(b->on_rq, 0);
			}
		} else if (op == 9 && m_on[i]) { /* priority changed, dequeued without key_changed */
			e->prio = (uint16_t)rng_below(&r, prio_range);
			S.ops->dequeue(&S, e);
			m_on[i] = 0;
		}
		int mb = model_best();
		struct pt_sched_entity *b = S.ops->peek(&S, 2);

		assert_ptr_equal(b, mb < 0 ? NULL : &ent[mb]);
		if (check_every && step % (unsigned)check_every == 0)
			check_structure();
	}
	check_structure();
}

static void test_random_few_levels(void **st)
{
	(void)st;
	/* few levels: many equals, FIFO and head insertion exercised hard */
	for (uint64_t seed = 1; seed <= 5; seed++)
		run_random(seed, 20000, 4, 7);
}

static void test_random_all_levels(void **st)
{
	(void)st;
	/* 300 > 256: priorities beyond the last level are clamped to 255 */
	for (uint64_t seed = 11; seed <= 15; seed++)
		run_random(seed, 20000, 300, 13);
}

static void test_fifo_among_equals(void **st)
{
	(void)st;
	setup_sched();
	for (int i = 0; i < 5; i++) {
		ent[i].prio = 10;
		S.ops->enqueue(&S, &ent[i]);
	}
	ent[5].prio = 10;
	S.ops->enqueue_head(&S, &ent[5]); /* preempted: ahead of its equals */
	int want[] = { 5, 0, 1, 2, 3, 4 };

	for (int k = 0; k < 6; k++) {
		struct pt_sched_entity *b = S.ops->peek(&S, 0);

		assert_ptr_equal(b, &ent[want[k]]);
		S.ops->dequeue(&S, b);
	}
	assert_null(S.ops->peek(&S, 0));
	assert_int_equal(pt_fp_rq_of(&S)->top, 0);
}

/* Round-robin is FP's timed event: the quantum travels with a preempted entity, ends with
 * PT_SCHED_QUANTUM_OVER or when used up, and its end asks the core for a rotation. */
static void test_round_robin_quantum(void **st)
{
	(void)st;
	const struct pt_sched_ops *o = &pt_sched_fp_ops;
	setup_sched();
	assert_int_equal(S.timed, 0); /* no quantum configured: no timed events */
	S.quantum_cycles = 100;
	o->init(&S);
	assert_int_equal(S.timed, 1);
	struct pt_sched_entity *a = &ent[0], *b = &ent[1];
	a->slice_left = b->slice_left = 0;
	assert_int_equal(o->next_event(&S, 2, 0, a, 0, 1000), 1100);    /* a: a full quantum */
	assert_int_equal(o->next_event(&S, 2, a, b, 0, 1030), 1130);    /* a preempted at 1030 */
	assert_int_equal(a->slice_left, 70);                             /* ...keeps 70 */
	assert_int_equal(o->next_event(&S, 2, b, a, 0, 1200), 1270);    /* b used it all up */
	assert_int_equal(b->slice_left, 0);
	assert_int_equal(o->next_event(&S, 2, a, a, 0, 1210), 1270);    /* a goes on: same end */
	assert_int_equal(o->next_event(&S, 2, a, b, PT_SCHED_QUANTUM_OVER, 1220), 1320);
	assert_int_equal(a->slice_left, 0);                              /* yielded: nothing kept */
	assert_int_equal(o->next_event(&S, 2, b, 0, 0, 1250), UINT64_MAX); /* idle: no event */
	assert_int_equal(b->slice_left, 70);
	assert_int_equal(o->on_event(&S, 2, b, 1320), PT_SCHED_EV_ROTATE);
	assert_int_equal(o->on_event(&S, 2, 0, 1320), PT_SCHED_EV_NONE);
	S.quantum_cycles = 0;
}

static void test_key_cmp(void **st)
{
	(void)st;
	const struct pt_sched_ops *o = &pt_sched_fp_ops;
	ent[0].prio = 3, ent[1].prio = 7, ent[2].prio = 3, ent[3].prio = 400;
	assert_true(o->key_cmp(&ent[0], &ent[1]) < 0);
	assert_true(o->key_cmp(&ent[1], &ent[0]) > 0);
	assert_int_equal(o->key_cmp(&ent[0], &ent[2]), 0);
	ent[4].prio = 255; /* beyond the last level counts as the last level */
	assert_int_equal(o->key_cmp(&ent[3], &ent[4]), 0);
	assert_null(o->on_release); /* FP: the core's default (ready, deadline recorded) */
}

static void test_level_boundaries(void **st)
{
	(void)st;
	unsigned levels[] = { 255, 128, 127, 64, 63, 1, 0 };

	setup_sched();
	for (unsigned k = 0; k < 7; k++) {
		ent[k].prio = (uint16_t)levels[k];
		S.ops->enqueue(&S, &ent[k]);
		assert_ptr_equal(S.ops->peek(&S, 0), &ent[k]); /* each is the new best */
	}
	for (int k = 6; k >= 0; k--) {
		assert_ptr_equal(S.ops->peek(&S, 0), &ent[k]);
		S.ops->dequeue(&S, &ent[k]);
	}
	assert_null(S.ops->peek(&S, 0));
}

static void test_ctz(void **st)
{
	(void)st;
	struct rng r = { 99 };

	for (unsigned b = 0; b < 64; b++)
		assert_int_equal(pt_fp_ctz64(1ull << b), b);
	for (int k = 0; k < 100000; k++) {
		uint64_t x = rng_next(&r) << rng_below(&r, 64);

		if (x)
			assert_int_equal(pt_fp_ctz64(x), (unsigned)__builtin_ctzll(x));
	}
}

static void test_preempts_and_preempt_cpu(void **st)
{
	(void)st;
	setup_sched();
	ent[0].prio = 5;
	ent[1].prio = 5;
	ent[2].prio = 4;
	assert_false(S.ops->preempts(&ent[1], &ent[0])); /* equal never preempts */
	assert_true(S.ops->preempts(&ent[2], &ent[0]));
	assert_false(S.ops->preempts(&ent[0], &ent[2]));
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[0]), 2); /* idle: cpu 2, the instance's */
	S.running[2] = &ent[0];
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[1]), -1);
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[2]), 2);
}

static void test_registry(void **st)
{
	(void)st;
	assert_ptr_equal(pt_sched_ops_for(PT_POLICY_FP), &pt_sched_fp_ops);
	assert_ptr_equal(pt_sched_ops_for(PT_POLICY_EDF), &pt_sched_edf_ops);
	assert_ptr_equal(pt_sched_ops_for(PT_POLICY_GEDF), &pt_sched_gedf_ops);
	assert_null(pt_sched_ops_for(0));
	assert_null(pt_sched_ops_for(200));
	const struct pt_sched_ops *all[] = { &pt_sched_fp_ops, &pt_sched_edf_ops, &pt_sched_gedf_ops };

	for (int k = 0; k < 3; k++) {
		const struct pt_sched_ops *o = all[k];

		assert_non_null(o->name);
		assert_non_null(o->init);
		assert_non_null(o->enqueue);
		assert_non_null(o->enqueue_head);
		assert_non_null(o->dequeue);
		assert_non_null(o->peek);
		assert_non_null(o->preempts);
		assert_non_null(o->preempt_cpu);
		assert_non_null(o->key_changed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_few_levels),
		cmocka_unit_test(test_random_all_levels),
		cmocka_unit_test(test_fifo_among_equals),
		cmocka_unit_test(test_level_boundaries),
		cmocka_unit_test(test_round_robin_quantum),
		cmocka_unit_test(test_key_cmp),
		cmocka_unit_test(test_ctz),
		cmocka_unit_test(test_preempts_and_preempt_cpu),
		cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests_name("sched_fp", tests, NULL, NULL);
}
