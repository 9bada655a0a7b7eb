/* Host property tests of the task-status manager (<partita/df_tsm.h>): random CSDF graphs,
 * random firing sequences, counter-change notifications delivered late and out of order.
 * Properties: scan answers exactly the firing rule; bitmap never reports an ineligible task
 * as eligible (conservative) and is exact once every notification is delivered; next_eligible
 * returns an eligible task (scan: the first in round-robin order). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <partita/df_tsm.h>

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 33) % n;
}

#define MAXT 8
#define MAXF 12
#define MAXP 3

struct world {
	struct pt_df_task_desc tasks[MAXT];
	struct pt_df_port ports[2 * MAXF];
	struct pt_df_fifo fifo[MAXF];
	struct pt_df_fifo *fifos[MAXF];
	uint32_t store[MAXF][16];
	struct pt_df_graph g;
	uint32_t phase[MAXT]; /* the reference's own CSDF phase per task */
};

/* A random graph: every FIFO has a producer and a different consumer task. */
static void make_world(struct world *w)
{
	uint32_t nt = 2 + rnd(MAXT - 1), nf = 1 + rnd(MAXF), np = 0;
	uint32_t prod[MAXF], cons[MAXF], nph[MAXT];

	memset(w, 0, sizeof(*w));
	for (uint32_t k = 0; k < nt; k++)
		nph[k] = 1 + rnd(MAXP);
	for (uint32_t f = 0; f < nf; f++) {
		prod[f] = rnd(nt);
		cons[f] = (prod[f] + 1 + rnd(nt - 1)) % nt;
		uint32_t size = 1 + rnd(8);
		assert_true(pt_df_fifo_init(&w->fifo[f], w->store[f], size, 4, rnd(size + 1)));
		w->fifos[f] = &w->fifo[f];
	}
	for (uint32_t k = 0; k < nt; k++) {
		w->tasks[k] = (struct pt_df_task_desc){ .tid = k + 1, .first_port = (uint16_t)np,
							.nphases = (uint8_t)nph[k] };
		for (uint32_t f = 0; f < nf; f++)
			for (uint32_t dir = 0; dir < 2; dir++) {
				if ((dir == PT_DF_IN ? cons[f] : prod[f]) != k)
					continue;
				struct pt_df_port *p = &w->ports[np++];
				p->fifo = (uint16_t)f, p->dir = (uint8_t)dir;
				p->nphases = (uint8_t)nph[k];
				for (uint32_t ph = 0; ph < nph[k]; ph++)
					p->rate[ph] = rnd(4) ? rnd(w->fifo[f].size_tokens + 1) : 0;
			}
		w->tasks[k].nports = (uint16_t)(np - w->tasks[k].first_port);
	}
	w->g = (struct pt_df_graph){ .ntasks = nt, .nports = np, .nfifos = nf,
				     .tasks = w->tasks, .ports = w->ports, .fifos = w->fifos };
}

/* The reference firing rule, on plain counter arithmetic (not the FIFO helpers). */
static bool ref_eligible(const struct world *w, uint32_t k)
{
	const struct pt_df_task_desc *d = &w->tasks[k];
	for (uint32_t i = 0; i < d->nports; i++) {
		const struct pt_df_port *p = &w->ports[d->first_port + i];
		const struct pt_df_fifo *f = &w->fifo[p->fifo];
		uint32_t two = 2 * f->size_tokens;
		uint32_t held = (f->wc + two - f->rc) % two;
		uint32_t need = p->rate[w->phase[k]];
		if (p->dir == PT_DF_IN ? held < need : f->size_tokens - held < need)
			return false;
	}
	return true;
}

static void fire(struct world *w, uint32_t k)
{
	const struct pt_df_task_desc *d = &w->tasks[k];
	for (uint32_t i = 0; i < d->nports; i++) {
		const struct pt_df_port *p = &w->ports[d->first_port + i];
		uint32_t n = p->rate[w->phase[k]];
		if (p->dir == PT_DF_IN)
			pt_df_fifo_release(&w->fifo[p->fifo], n);
		else
			pt_df_fifo_commit(&w->fifo[p->fifo], n);
	}
	w->phase[k] = (w->phase[k] + 1) % d->nphases;
}

static void test_conservative_random(void **st)
{
	(void)st;
	static struct world w;
	unsigned fired_total = 0, stale_seen = 0;

	rng = 0x1234567887654321ull;
	for (unsigned graph = 0; graph < 400; graph++) {
		struct pt_df_tsm scan, bm;
		uint32_t pending[64], npending = 0;

		make_world(&w);
		assert_true(pt_df_tsm_init(&scan, &pt_df_tsm_scan_ops, &w.g));
		assert_true(pt_df_tsm_init(&bm, &pt_df_tsm_bitmap_ops, &w.g));
		for (unsigned step = 0; step < 300; step++) {
			uint32_t nt = w.g.ntasks;
			for (uint32_t k = 0; k < nt; k++) {
				bool ref = ref_eligible(&w, k);
				assert_int_equal(scan.ops->eligible(&scan, k), ref);
				if (bm.ops->eligible(&bm, k) && !ref)
					fail_msg("graph %u step %u: bitmap says task %u eligible", graph,
						 step, k);
				stale_seen += ref && !bm.ops->eligible(&bm, k);
			}
			uint32_t from = rnd(nt);
			int32_t a = scan.ops->next_eligible(&scan, from);
			int32_t b = bm.ops->next_eligible(&bm, from);
			int32_t first = -1;
			for (uint32_t i = 0; i < nt && first < 0; i++)
				if (ref_eligible(&w, (from + i) % nt))
					first = (int32_t)((from + i) % nt);
			assert_int_equal(a, first);
			if (b >= 0)
				assert_true(ref_eligible(&w, (uint32_t)b));

			uint32_t action = rnd(3);
			if (action < 2) { /* a random eligible task fires */
				uint32_t k = rnd(nt);
				if (!ref_eligible(&w, k))
					continue;
				fire(&w, k);
				fired_total++;
				scan.ops->fired(&scan, k);
				/* the firing core's TSM learns at once only of the task itself; the
				 * other FIFO ends hear of it later (notifications in flight) */
				bm.ops->fired(&bm, k);
				const struct pt_df_task_desc *d = &w.tasks[k];
				for (uint32_t i = 0; i < d->nports && npending < 64; i++)
					pending[npending++] = w.ports[d->first_port + i].fifo;
			} else if (npending) { /* deliver one late notification, any order */
				uint32_t i = rnd(npending);
				bm.ops->counter_changed(&bm, pending[i]);
				pending[i] = pending[--npending];
			}
			if (npending < 64 && rnd(2))
				pending[npending++] = rnd(w.g.nfifos); /* spurious: harmless */
		}
		while (npending)
			bm.ops->counter_changed(&bm, pending[--npending]);
		for (uint32_t k = 0; k < w.g.ntasks; k++) /* exact once all are delivered */
			assert_int_equal(bm.ops->eligible(&bm, k), ref_eligible(&w, k));
	}
	assert_true(fired_total > 10000); /* the sequences did exercise firings */
	assert_true(stale_seen > 1000);   /* and late notifications left the bitmap stale */
	print_message("%u firings, %u stale under-reports\n", fired_total, stale_seen);
}

/* A bitmap that is never told about the other side stays conservative: it under-reports. */
static void test_bitmap_stale_underreports(void **st)
{
	(void)st;
	static uint32_t b0[4];
	static struct pt_df_fifo f0;
	static struct pt_df_fifo *fs[1] = { &f0 };
	static const struct pt_df_port ports[2] = {
		{ .fifo = 0, .dir = PT_DF_OUT, .nphases = 1, .rate = { 2 } },
		{ .fifo = 0, .dir = PT_DF_IN, .nphases = 1, .rate = { 3 } },
	};
	static const struct pt_df_task_desc tasks[2] = {
		{ .tid = 1, .first_port = 0, .nports = 1, .nphases = 1 },
		{ .tid = 2, .first_port = 1, .nports = 1, .nphases = 1 },
	};
	const struct pt_df_graph g = { 2, 2, 1, tasks, ports, fs };
	struct pt_df_tsm t;

	assert_true(pt_df_fifo_init(&f0, b0, 4, 4, 0));
	assert_true(pt_df_tsm_init(&t, &pt_df_tsm_bitmap_ops, &g));
	assert_true(t.ops->eligible(&t, 0));
	assert_false(t.ops->eligible(&t, 1));
	pt_df_fifo_commit(&f0, 2);  /* producer fires on another core: not notified */
	pt_df_fifo_commit(&f0, 2);
	assert_false(t.ops->eligible(&t, 1)); /* 4 tokens, still reported not eligible */
	t.ops->counter_changed(&t, 0);
	assert_true(t.ops->eligible(&t, 1));
	assert_false(t.ops->eligible(&t, 0)); /* full */
	assert_int_equal(t.ops->next_eligible(&t, 0), 1);
}

static void test_init_rejects(void **st)
{
	(void)st;
	static const struct pt_df_port ports[1] = { { .fifo = 3, .dir = 0, .nphases = 1 } };
	static const struct pt_df_task_desc tasks[1] = { { .first_port = 0, .nports = 1,
							   .nphases = 1 } };
	static const struct pt_df_task_desc tasks_bad_phase[1] = { { .first_port = 0,
								     .nports = 1, .nphases = 2 } };
	struct pt_df_tsm t;
	const struct pt_df_graph bad_fifo = { 1, 1, 1, tasks, ports, 0 };
	const struct pt_df_graph bad_phase = { 1, 1, 4, tasks_bad_phase, ports, 0 };
	const struct pt_df_graph too_many = { PT_DF_MAX_TASKS + 1, 1, 4, tasks, ports, 0 };
	assert_false(pt_df_tsm_init(&t, &pt_df_tsm_scan_ops, &bad_fifo));
	assert_false(pt_df_tsm_init(&t, &pt_df_tsm_scan_ops, &bad_phase));
	assert_false(pt_df_tsm_init(&t, &pt_df_tsm_scan_ops, &too_many));
}

/* The scan costs exactly one counter pair per port asked about: linear in FIFOs per task. */
static void test_scan_cost(void **st)
{
	(void)st;
	static struct world w;
	struct pt_df_tsm t;
	rng = 99;
	make_world(&w);
	assert_true(pt_df_tsm_init(&t, &pt_df_tsm_scan_ops, &w.g));
	for (uint32_t k = 0; k < w.g.ntasks; k++) {
		uint64_t before = t.fifo_checks;
		(void)t.ops->eligible(&t, k);
		assert_int_equal(t.fifo_checks - before, w.tasks[k].nports);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conservative_random),
		cmocka_unit_test(test_bitmap_stale_underreports),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_scan_cost),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
