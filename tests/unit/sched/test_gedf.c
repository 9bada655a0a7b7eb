/*
 * G-EDF policy against a brute-force model: a cluster of cpus that pick, get preempted,
 * complete; pinned entities; preempt_cpu choice compared with an independent computation.
 */
#include <string.h>
#include "test_util.h"
#include "rb_check.h"
#include "sched/sched.h"
#include "sched/gedf/gedf.h"

#define N_ENT 300
#define MASK 0x5Eu /* cpus 1,2,3,4,6: not starting at 0 and with a hole */

static struct pt_sched S;
static struct pt_sched_entity ent[N_ENT];
static int m_on[N_ENT];
static int m_run_cpu[N_ENT]; /* -1 unless running */
static uint64_t m_seq[N_ENT], m_next_seq;

static void setup_sched(void)
{
	memset(&S, 0, sizeof S);
	memset(ent, 0, sizeof ent);
	memset(m_on, 0, sizeof m_on);
	S.ops = &pt_sched_gedf_ops;
	S.cpu_mask = MASK;
	S.next_seq = 1;
	m_next_seq = 1;
	S.ops->init(&S);
	for (int i = 0; i < N_ENT; i++) {
		ent[i].tid = (uint32_t)((i * 131) % N_ENT) + 1;
		ent[i].pinned_cpu = -1;
		ent[i].cpu = -1;
		m_run_cpu[i] = -1;
	}
}

static int in_instance(int c) { return c >= 0 && c < PT_MAX_CPUS && (MASK >> c & 1); }

static int allowed(int i, int cpu)
{
	int p = ent[i].pinned_cpu;

	return p < 0 || !in_instance(p) || p == cpu;
}

static int model_cmp(int a, int b) /* by (deadline, seq, tid) */
{
	if (ent[a].abs_deadline != ent[b].abs_deadline)
		return ent[a].abs_deadline < ent[b].abs_deadline ? -1 : 1;
	if (m_seq[a] != m_seq[b])
		return m_seq[a] < m_seq[b] ? -1 : 1;
	return ent[a].tid < ent[b].tid ? -1 : (ent[a].tid > ent[b].tid);
}

static int model_best(int cpu)
{
	int best = -1;

	for (int i = 0; i < N_ENT; i++)
		if (m_on[i] && allowed(i, cpu) && (best < 0 || model_cmp(i, best) < 0))
			best = i;
	return best;
}

/* Brute force: candidate cpus; idle lowest first; else sort busy by running key desc, cpu asc. */
static int model_preempt_cpu(uint64_t dl, int pin)
{
	int cand[PT_MAX_CPUS], n = 0;

	for (int c = 0; c < PT_MAX_CPUS; c++)
		if (in_instance(c) && (pin < 0 || pin == c))
			cand[n++] = c;
	for (int k = 0; k < n; k++)
		if (!S.running[cand[k]])
			return cand[k];
	/* insertion sort: worst (latest key) first, equal keys by lower cpu */
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0; b--) {
			int x = (int)(S.running[cand[b - 1]] - ent), y = (int)(S.running[cand[b]] - ent);

			if (model_cmp(y, x) > 0 || (model_cmp(y, x) == 0 && cand[b] < cand[b - 1])) {
				int t = cand[b];

				cand[b] = cand[b - 1];
				cand[b - 1] = t;
			}
		}
	if (n && dl < S.running[cand[0]]->abs_deadline)
		return cand[0];
	return -1;
}

static void check_trees(void)
{
	rb_check(&PT_SCHED_CTX(&S, struct pt_gedf_ctx)->global);
	for (int c = 0; c < PT_MAX_CPUS; c++) {
		rb_check(&PT_SCHED_CTX(&S, struct pt_gedf_ctx)->pinned[c]);
		if (!in_instance(c))
			assert_int_equal(PT_SCHED_CTX(&S, struct pt_gedf_ctx)->pinned[c].count, 0);
	}
}

static int random_pin(struct rng *r)
{
	unsigned k = (unsigned)rng_below(r, 10);

	if (k < 6)
		return -1;
	return (int)rng_below(r, PT_MAX_CPUS); /* sometimes outside the instance: treated as any */
}

static void run_random(uint64_t seed, unsigned steps, uint64_t dl_range)
{
	struct rng r = { seed };
	unsigned preempt_checks = 0;

	setup_sched();
	for (unsigned step = 0; step < steps; step++) {
		int i = (int)rng_below(&r, N_ENT);
		int cpu = (int)rng_below(&r, PT_MAX_CPUS);
		unsigned op = (unsigned)rng_below(&r, 12);
		struct pt_sched_entity *e = &ent[i];

		if (op <= 3 && !m_on[i] && m_run_cpu[i] < 0) { /* release */
			e->abs_deadline = rng_below(&r, dl_range);
			e->pinned_cpu = (int16_t)random_pin(&r);
			int want = model_preempt_cpu(e->abs_deadline, e->pinned_cpu);

			S.ops->enqueue(&S, e);
			m_on[i] = 1;
			m_seq[i] = m_next_seq++;
			assert_int_equal(e->seq, m_seq[i]);
			assert_int_equal(S.ops->preempt_cpu(&S, e), want);
			preempt_checks++;
		} else if (op <= 5 && in_instance(cpu)) { /* reschedule cpu: pick, preempt */
			struct pt_sched_entity *b = S.ops->peek(&S, (uint32_t)cpu);
			int mb = model_best(cpu);

			assert_ptr_equal(b, mb < 0 ? NULL : &ent[mb]);
			struct pt_sched_entity *cur = S.running[cpu];

			if (b && (!cur || S.ops->preempts(b, cur))) {
				S.ops->dequeue(&S, b);
				m_on[mb] = 0;
				if (cur) { /* preempted: back in the queue, keeps its seq */
					int ci = (int)(cur - ent);

					S.ops->enqueue_head(&S, cur);
					m_on[ci] = 1;
					m_run_cpu[ci] = -1;
				}
				S.running[cpu] = b;
				m_run_cpu[mb] = cpu;
			}
		} else if (op == 6 && in_instance(cpu) && S.running[cpu]) { /* job completes */
			m_run_cpu[S.running[cpu] - ent] = -1;
			S.running[cpu] = NULL;
		} else if (op == 7 && m_on[i]) { /* blocks / suspended */
			S.ops->dequeue(&S, e);
			m_on[i] = 0;
		} else if (op == 8 && m_run_cpu[i] < 0) { /* new deadline or new pinning */
			e->abs_deadline = rng_below(&r, dl_range);
			if (rng_below(&r, 2))
				e->pinned_cpu = (int16_t)random_pin(&r);
			S.ops->key_changed(&S, e);
			if (m_on[i])
				m_seq[i] = m_next_seq++;
		} else if (op == 9 && m_on[i]) { /* pinning changed without telling: dequeue copes */
			e->pinned_cpu = (int16_t)random_pin(&r);
			S.ops->dequeue(&S, e);
			m_on[i] = 0;
		} else if (op == 10) { /* preempt_cpu of a hypothetical job */
			struct pt_sched_entity t = { 0 };

			t.abs_deadline = rng_below(&r, dl_range);
			t.pinned_cpu = (int16_t)random_pin(&r);
			t.tid = 100000;
			assert_int_equal(S.ops->preempt_cpu(&S, &t),
					 model_preempt_cpu(t.abs_deadline, t.pinned_cpu));
			preempt_checks++;
		}
		for (int c = 0; c < PT_MAX_CPUS; c++) {
			int mb = in_instance(c) ? model_best(c) : -1;

			if (in_instance(c))
				assert_ptr_equal(S.ops->peek(&S, (uint32_t)c), mb < 0 ? NULL : &ent[mb]);
		}
		if (step % 7 == 0)
			check_trees();
	}
	check_trees();
	assert_true(preempt_checks > steps / 10);
}

static void test_random_ties(void **st)
{
	(void)st;
	for (uint64_t seed = 1; seed <= 4; seed++)
		run_random(seed, 12000, 6);
}

static void test_random_wide(void **st)
{
	(void)st;
	for (uint64_t seed = 31; seed <= 34; seed++)
		run_random(seed, 12000, 1000000);
}

static void test_preempt_cpu_cases(void **st)
{
	(void)st;
	setup_sched();
	struct pt_sched_entity *a = &ent[0], *b = &ent[1], *c = &ent[2];

	a->abs_deadline = 50;
	/* all idle: the lowest cpu of the instance (1) */
	assert_int_equal(S.ops->preempt_cpu(&S, a), 1);
	a->pinned_cpu = 4;
	assert_int_equal(S.ops->preempt_cpu(&S, a), 4);
	a->pinned_cpu = 0; /* outside the instance */
	assert_int_equal(S.ops->preempt_cpu(&S, a), -1);
	a->pinned_cpu = -1;
	/* all busy with deadlines 10, 90, 90, 30, 20 on cpus 1,2,3,4,6 */
	uint64_t dl[] = { 10, 90, 90, 30, 20 };
	int cpus[] = { 1, 2, 3, 4, 6 };

	for (int k = 0; k < 5; k++) {
		ent[10 + k].abs_deadline = dl[k];
		ent[10 + k].seq = 5; /* equal keys apart from tid */
		ent[10 + k].tid = 100;
		S.running[cpus[k]] = &ent[10 + k];
	}
	/* equal (deadline, seq, tid) on cpus 2 and 3: the lower index */
	assert_int_equal(S.ops->preempt_cpu(&S, a), 2);
	ent[12].seq = 6; /* cpu 3's job was enqueued later: it is the latest */
	assert_int_equal(S.ops->preempt_cpu(&S, a), 3);
	b->abs_deadline = 90; /* not strictly earlier: no preemption */
	assert_int_equal(S.ops->preempt_cpu(&S, b), -1);
	c->abs_deadline = 25;
	c->pinned_cpu = 6; /* only cpu 6 (deadline 20): cannot preempt */
	assert_int_equal(S.ops->preempt_cpu(&S, c), -1);
	c->pinned_cpu = 4; /* cpu 4 (deadline 30) */
	assert_int_equal(S.ops->preempt_cpu(&S, c), 4);
}

static void test_peek_pinned(void **st)
{
	(void)st;
	setup_sched();
	ent[0].abs_deadline = 10;
	ent[0].pinned_cpu = 3;
	ent[1].abs_deadline = 20;
	ent[2].abs_deadline = 5;
	ent[2].pinned_cpu = 6;
	for (int k = 0; k < 3; k++)
		S.ops->enqueue(&S, &ent[k]);
	assert_ptr_equal(S.ops->peek(&S, 3), &ent[0]);
	assert_ptr_equal(S.ops->peek(&S, 6), &ent[2]);
	assert_ptr_equal(S.ops->peek(&S, 1), &ent[1]);
	/* any cpu: the global queue only (the core's cluster re-check after a switch) */
	assert_ptr_equal(S.ops->peek(&S, PT_SCHED_ANY_CPU), &ent[1]);
	S.ops->dequeue(&S, &ent[1]);
	assert_null(S.ops->peek(&S, 1));
	assert_null(S.ops->peek(&S, PT_SCHED_ANY_CPU));
	assert_ptr_equal(S.ops->peek(&S, 3), &ent[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ties),
		cmocka_unit_test(test_random_wide),
		cmocka_unit_test(test_preempt_cpu_cases),
		cmocka_unit_test(test_peek_pinned),
	};
	return cmocka_run_group_tests_name("sched_gedf", tests, NULL, NULL);
}
