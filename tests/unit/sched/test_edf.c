/* EDF policy and its red-black tree against a brute-force model. */
#include <string.h>
#include "test_util.h"
#include "rb_check.h"
#include "sched/sched.h"
#include "sched/edf/edf_rq.h"

#define N_ENT 400

static struct pt_sched S;
static struct pt_sched_entity ent[N_ENT];
static int m_on[N_ENT];
static uint64_t m_seq[N_ENT], m_next_seq;

static void setup_sched(void)
{
	memset(&S, 0, sizeof S);
	memset(ent, 0, sizeof ent);
	memset(m_on, 0, sizeof m_on);
	S.ops = &pt_sched_edf_ops;
	S.cpu_mask = 1u << 1;
	S.next_seq = 1000; /* any start: the model follows the policy's counter */
	m_next_seq = 1000;
	S.ops->init(&S);
	for (int i = 0; i < N_ENT; i++) {
		/* tids not in index order, so the tid tie-break is really exercised */
		ent[i].tid = (uint32_t)((i * 7919) % N_ENT) + 1;
		ent[i].pinned_cpu = -1;
		ent[i].cpu = -1;
	}
}

/* Model key: (deadline, model seq, tid). */
static int model_less(int a, int b)
{
	if (ent[a].abs_deadline != ent[b].abs_deadline)
		return ent[a].abs_deadline < ent[b].abs_deadline;
	if (m_seq[a] != m_seq[b])
		return m_seq[a] < m_seq[b];
	return ent[a].tid < ent[b].tid;
}

static int model_best(void)
{
	int best = -1;

	for (int i = 0; i < N_ENT; i++)
		if (m_on[i] && (best < 0 || model_less(i, best)))
			best = i;
	return best;
}

static void run_random(uint64_t seed, unsigned steps, uint64_t dl_range)
{
	struct rng r = { seed };

	setup_sched();
	for (unsigned step = 0; step < steps; step++) {
		int i = (int)rng_below(&r, N_ENT);
		unsigned op = (unsigned)rng_below(&r, 10);
		struct pt_sched_entity *e = &ent[i];

		if (op <= 3 && !m_on[i]) {
			e->abs_deadline = rng_below(&r, dl_range);
			S.ops->enqueue(&S, e);
			m_on[i] = 1;
			m_seq[i] = m_next_seq++;
			assert_int_equal(e->seq, m_seq[i]);
		} else if (op == 4 && !m_on[i] && e->seq) { /* preempted: keeps its seq */
			S.ops->enqueue_head(&S, e);
			m_on[i] = 1;
		} else if (op <= 6 && m_on[i]) {
			S.ops->dequeue(&S, e);
			m_on[i] = 0;
		} else if (op == 7) {
			e->abs_deadline = rng_below(&r, dl_range);
			S.ops->key_changed(&S, e);
			if (m_on[i])
				m_seq[i] = m_next_seq++;
		} else if (op == 8) {
			struct pt_sched_entity *b = S.ops->peek(&S, 1);
			int mb = model_best();

			assert_ptr_equal(b, mb < 0 ? NULL : &ent[mb]);
			if (b) {
				S.ops->dequeue(&S, b);
				m_on[mb] = 0;
			}
		}
		int mb = model_best();

		assert_ptr_equal(S.ops->peek(&S, 1), mb < 0 ? NULL : &ent[mb]);
		for (int k = 0; k < N_ENT; k++)
			assert_int_equal(ent[k].on_rq, m_on[k]);
		if (step % 5 == 0)
			rb_check(PT_SCHED_CTX(&S, struct pt_edf_rq));
	}
	rb_check(PT_SCHED_CTX(&S, struct pt_edf_rq));
	/* drain: the whole order matches the model */
	for (;;) {
		int mb = model_best();
		struct pt_sched_entity *b = S.ops->peek(&S, 1);

		assert_ptr_equal(b, mb < 0 ? NULL : &ent[mb]);
		if (!b)
			break;
		S.ops->dequeue(&S, b);
		m_on[mb] = 0;
	}
	assert_int_equal(PT_SCHED_CTX(&S, struct pt_edf_rq)->count, 0);
	assert_null(PT_SCHED_CTX(&S, struct pt_edf_rq)->root);
}

static void test_random_ties(void **st)
{
	(void)st;
	for (uint64_t seed = 1; seed <= 4; seed++)
		run_random(seed, 15000, 8); /* many equal deadlines */
}

static void test_random_wide(void **st)
{
	(void)st;
	for (uint64_t seed = 21; seed <= 24; seed++)
		run_random(seed, 15000, 1ull << 40);
}

static void test_fifo_among_equal_deadlines(void **st)
{
	(void)st;
	setup_sched();
	for (int i = 0; i < 6; i++) {
		ent[i].abs_deadline = 500;
		S.ops->enqueue(&S, &ent[i]);
	}
	ent[10].abs_deadline = 400;
	S.ops->enqueue(&S, &ent[10]);
	assert_ptr_equal(S.ops->peek(&S, 1), &ent[10]);
	S.ops->dequeue(&S, &ent[10]);
	/* ent[0] runs, is preempted, comes back ahead of its equals */
	S.ops->dequeue(&S, &ent[0]);
	S.ops->enqueue_head(&S, &ent[0]);
	for (int i = 0; i < 6; i++) {
		struct pt_sched_entity *b = S.ops->peek(&S, 1);

		assert_ptr_equal(b, &ent[i]);
		S.ops->dequeue(&S, b);
	}
	assert_false(S.ops->preempts(&ent[1], &ent[2])); /* equal deadlines never preempt */
	assert_true(S.ops->preempts(&ent[10], &ent[2]));
}

static void test_preempt_cpu(void **st)
{
	(void)st;
	setup_sched();
	ent[0].abs_deadline = 100;
	ent[1].abs_deadline = 100;
	ent[2].abs_deadline = 99;
	ent[2].pinned_cpu = 5; /* an EDF instance owns one cpu: pinning is not its business */
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[0]), 1);
	S.running[1] = &ent[0];
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[1]), -1);
	assert_int_equal(S.ops->preempt_cpu(&S, &ent[2]), 1);
}

/*
 * O(log n) shape: the loop steps of one insert / remove stay within a constant times
 * log2(n), with sorted (worst case for a plain BST) and random keys, up to 65536 entities.
 */
#define BIG 65536
static struct pt_sched_entity big[BIG];

static void shape(int sorted)
{
	struct pt_edf_rq rq;
	struct rng r = { 5 };

	for (unsigned n = 64; n <= BIG; n *= 4) {
		uint64_t max_steps = 0;

		memset(big, 0, sizeof(big[0]) * n);
		pt_edf_rq_init(&rq);
		for (unsigned k = 0; k < n; k++) {
			big[k].abs_deadline = sorted ? k : rng_next(&r);
			big[k].tid = k + 1;
			pt_edf_steps = 0;
			pt_edf_rq_insert(&rq, &big[k]);
			if (pt_edf_steps > max_steps)
				max_steps = pt_edf_steps;
		}
		unsigned h = rb_check(&rq);

		assert_true(h <= 2 * log2_ceil(n + 1));
		/* descent <= height, fix-up <= height / 2 */
		assert_true(max_steps <= 2 * (uint64_t)h + 2);
		max_steps = 0;
		for (unsigned k = 0; k < n; k++) {
			unsigned j = sorted ? k : (unsigned)((k * 40503u) % n); /* n is a power of 2 */

			pt_edf_steps = 0;
			pt_edf_rq_remove(&rq, &big[j]);
			if (pt_edf_steps > max_steps)
				max_steps = pt_edf_steps;
		}
		assert_int_equal(rq.count, 0);
		/* successor search + minimum + fix-up, each bounded by the height */
		assert_true(max_steps <= 3 * (uint64_t)h + 3);
		print_message("  n=%-6u height=%-3u max steps per remove=%llu\n", n, h,
			      (unsigned long long)max_steps);
	}
}

static void test_log_shape_sorted(void **st)
{
	(void)st;
	shape(1);
}

static void test_log_shape_random(void **st)
{
	(void)st;
	shape(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ties),
		cmocka_unit_test(test_random_wide),
		cmocka_unit_test(test_fifo_among_equal_deadlines),
		cmocka_unit_test(test_preempt_cpu),
		cmocka_unit_test(test_log_shape_sorted),
		cmocka_unit_test(test_log_shape_random),
	};
	return cmocka_run_group_tests_name("sched_edf", tests, NULL, NULL);
}
