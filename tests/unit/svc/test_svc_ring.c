/*
 * The service-hart runtime's single-producer / single-consumer rings (kernel/svc/ring.c) and
 * console line rings (kernel/svc/console.c) on the host: bad geometry is refused, empty and
 * full are reported, a full ring refuses (and counts) instead of overwriting, indices wrap at
 * 2^32, and random push/pop programs agree with a reference queue at every step (on a
 * mismatch the program is shrunk to a minimal failing one and printed, hypothesis-style).
 * A two-thread run checks that records cross intact and in order.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "fake_hal.h"
#include <partita/svc.h>

static void fill(uint8_t *rec, uint32_t n, uint32_t seq)
{
	for (uint32_t i = 0; i < n; i++)
		rec[i] = (uint8_t)(seq * 31u + i * 7u + 1u);
}

static void test_init_rejects_bad_geometry(void **state)
{
	(void)state;
	struct pt_svc_ring r;
	static uint8_t buf[4096];
	assert_int_equal(pt_svc_ring_init(&r, buf, 0, 8), -1);
	assert_int_equal(pt_svc_ring_init(&r, buf, 3, 8), -1);
	assert_int_equal(pt_svc_ring_init(&r, buf, 12, 8), -1);
	assert_int_equal(pt_svc_ring_init(&r, buf, 8, 0), -1);
	assert_int_equal(pt_svc_ring_init(&r, NULL, 8, 8), -1);
	assert_int_equal(pt_svc_ring_init(&r, buf, 1u << 31, 2), -1); /* storage > 4 GiB */
	assert_int_equal(pt_svc_ring_init(&r, buf, 1, 8), 0);
	assert_int_equal(pt_svc_ring_init(&r, buf, 512, 8), 0);
	assert_int_equal(r.capacity, 512);
	assert_int_equal(r.record_bytes, 8);
}

static void test_empty_then_full(void **state)
{
	(void)state;
	struct pt_svc_ring r;
	uint8_t buf[4 * 12], rec[12], out[12];
	assert_int_equal(pt_svc_ring_init(&r, buf, 4, sizeof(rec)), 0);
	assert_true(pt_svc_ring_empty(&r));
	assert_false(pt_svc_ring_full(&r));
	assert_false(pt_svc_ring_pop(&r, out)); /* empty: nothing, and nothing changes */
	assert_int_equal(r.tail, 0);
	for (uint32_t i = 0; i < 4; i++) {
		fill(rec, sizeof(rec), i);
		assert_true(pt_svc_ring_push(&r, rec));
		assert_int_equal(pt_svc_ring_count(&r), i + 1);
	}
	assert_true(pt_svc_ring_full(&r));
	fill(rec, sizeof(rec), 99);
	assert_false(pt_svc_ring_push(&r, rec)); /* full: refused, counted */
	assert_false(pt_svc_ring_push(&r, rec));
	assert_int_equal(r.refused, 2);
	assert_int_equal(pt_svc_ring_count(&r), 4);
	for (uint32_t i = 0; i < 4; i++) { /* the oldest record was not overwritten */
		assert_true(pt_svc_ring_pop(&r, out));
		fill(rec, sizeof(rec), i);
		assert_memory_equal(out, rec, sizeof(rec));
	}
	assert_true(pt_svc_ring_empty(&r));
	assert_false(pt_svc_ring_pop(&r, out));
}

/* Indices start just below 2^32: head and tail wrap while slots keep their order. */
static void test_index_wraparound(void **state)
{
	(void)state;
	struct pt_svc_ring r;
	uint8_t buf[8 * 4];
	uint32_t v, out;
	assert_int_equal(pt_svc_ring_init(&r, buf, 8, sizeof(v)), 0);
	r.head = r.tail = UINT32_MAX - 5;
	uint32_t next_in = 0, next_out = 0;
	for (int round = 0; round < 10; round++) {
		while (pt_svc_ring_push(&r, &next_in))
			next_in++;
		assert_int_equal(pt_svc_ring_count(&r), 8);
		assert_true(pt_svc_ring_full(&r));
		for (int k = 0; k < 5; k++) {
			assert_true(pt_svc_ring_pop(&r, &out));
			assert_int_equal(out, next_out++);
		}
	}
	while (pt_svc_ring_pop(&r, &out))
		assert_int_equal(out, next_out++);
	assert_int_equal(next_in, next_out);
	assert_true(r.head < 100); /* it did wrap */
	assert_int_equal(r.refused, 10);
}

/* ---- random programs against a reference queue ---- */
enum { OP_PUSH, OP_POP, OP_PUSH_BURST, OP_POP_BURST };
struct prog {
	uint32_t capacity, record_bytes, start; /* start: initial head = tail */
	uint32_t n;
	uint8_t op[256];
};

/* Runs the program; returns the index of the first step where the ring and the model
 * disagree, or -1. */
static int run(const struct prog *p, char *why, size_t whylen)
{
	struct pt_svc_ring r;
	uint8_t *buf = calloc(p->capacity, p->record_bytes);
	uint8_t rec[64], out[64];
	uint32_t model[512]; /* sequence numbers queued, as a plain FIFO */
	uint32_t mh = 0, mt = 0, seq = 0, refused = 0;
	int bad = -1;
	if (pt_svc_ring_init(&r, buf, p->capacity, p->record_bytes) != 0) {
		snprintf(why, whylen, "init refused capacity %u", p->capacity);
		free(buf);
		return 0;
	}
	r.head = r.tail = p->start;
	for (uint32_t i = 0; i < p->n && bad < 0; i++) {
		int reps = (p->op[i] == OP_PUSH_BURST || p->op[i] == OP_POP_BURST) ? 5 : 1;
		bool push = p->op[i] == OP_PUSH || p->op[i] == OP_PUSH_BURST;
		for (int k = 0; k < reps && bad < 0; k++) {
			if (push) {
				fill(rec, p->record_bytes, seq);
				bool ok = pt_svc_ring_push(&r, rec);
				bool want = mh - mt < p->capacity;
				if (want)
					model[mh++ % 512] = seq;
				else
					refused++;
				seq++;
				if (ok != want) {
					snprintf(why, whylen, "push returned %d, model %d", ok, want);
					bad = (int)i;
				}
			} else {
				bool ok = pt_svc_ring_pop(&r, out);
				bool want = mh != mt;
				if (ok != want) {
					snprintf(why, whylen, "pop returned %d, model %d", ok, want);
					bad = (int)i;
				} else if (want) {
					fill(rec, p->record_bytes, model[mt++ % 512]);
					if (memcmp(out, rec, p->record_bytes)) {
						snprintf(why, whylen, "pop returned a different record");
						bad = (int)i;
					}
				}
			}
			if (bad < 0 && (pt_svc_ring_count(&r) != mh - mt ||
					pt_svc_ring_full(&r) != (mh - mt == p->capacity) ||
					pt_svc_ring_empty(&r) != (mh == mt) || r.refused != refused)) {
				snprintf(why, whylen, "count %u/full/empty/refused %u disagree with "
					 "the model (%u, refused %u)", pt_svc_ring_count(&r),
					 r.refused, mh - mt, refused);
				bad = (int)i;
			}
		}
	}
	free(buf);
	return bad;
}

static void gen(struct rng *g, struct prog *p)
{
	p->capacity = 1u << rng_below(g, 7);          /* 1..64 */
	p->record_bytes = 1 + (uint32_t)rng_below(g, 40);
	static const uint32_t starts[] = { 0, 1, UINT32_MAX - 3, UINT32_MAX, 1u << 31 };
	p->start = starts[rng_below(g, 5)];
	p->n = 1 + (uint32_t)rng_below(g, 256);
	/* bias towards pushes or pops per program, so both full and empty are reached */
	uint32_t push_pct = 20 + (uint32_t)rng_below(g, 61);
	for (uint32_t i = 0; i < p->n; i++) {
		bool push = rng_below(g, 100) < push_pct;
		bool burst = rng_below(g, 8) == 0;
		p->op[i] = (uint8_t)(push ? (burst ? OP_PUSH_BURST : OP_PUSH)
					  : (burst ? OP_POP_BURST : OP_POP));
	}
}

/* Greedy shrink: drop steps, then lower the capacity, while the program still fails. */
static void shrink(struct prog *p)
{
	char why[160];
	bool progress = true;
	while (progress) {
		progress = false;
		for (uint32_t i = 0; i < p->n; i++) {
			struct prog q = *p;
			memmove(&q.op[i], &q.op[i + 1], q.n - i - 1);
			q.n--;
			if (q.n && run(&q, why, sizeof(why)) >= 0) {
				*p = q;
				progress = true;
				break;
			}
		}
		if (!progress && p->capacity > 1) {
			struct prog q = *p;
			q.capacity /= 2;
			if (run(&q, why, sizeof(why)) >= 0) {
				*p = q;
				progress = true;
			}
		}
	}
}

static void test_random_programs_match_model(void **state)
{
	(void)state;
	const char *env = getenv("PT_SVC_RING_EXAMPLES");
	uint64_t examples = env ? strtoull(env, NULL, 10) : 3000;
	static const char *const names[] = { "push", "pop", "push*5", "pop*5" };
	for (uint64_t seed = 1; seed <= examples; seed++) {
		struct rng g = { seed };
		struct prog p;
		char why[160];
		gen(&g, &p);
		if (run(&p, why, sizeof(why)) < 0)
			continue;
		shrink(&p);
		int at = run(&p, why, sizeof(why));
		fprintf(stderr, "svc ring: seed %llu fails; minimal program (capacity %u, record %u "
			"bytes, start %u):", (unsigned long long)seed, p.capacity, p.record_bytes,
			p.start);
		for (uint32_t i = 0; i < p.n; i++)
			fprintf(stderr, " %s", names[p.op[i]]);
		fprintf(stderr, "\n  step %d: %s\n", at, why);
		fail();
	}
}

/* ---- two threads: one producer, one consumer ---- */
#define XFER_N 200000u
struct xrec {
	uint64_t seq, check;
	uint32_t words[4];
};
static struct pt_svc_ring xring;
static struct xrec xslots[64];

static void *producer(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < XFER_N;) {
		struct xrec x = { i, ~i * 0x9e3779b97f4a7c15ull, { (uint32_t)i, 1, 2, 3 } };
		if (pt_svc_ring_push(&xring, &x))
			i++;
	}
	return NULL;
}

static void test_two_threads_in_order(void **state)
{
	(void)state;
	assert_int_equal(pt_svc_ring_init(&xring, xslots, 64, sizeof(struct xrec)), 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, producer, NULL), 0);
	uint64_t bad = 0;
	for (uint64_t i = 0; i < XFER_N;) {
		struct xrec x;
		if (!pt_svc_ring_pop(&xring, &x))
			continue;
		bad += x.seq != i || x.check != ~i * 0x9e3779b97f4a7c15ull ||
		       x.words[0] != (uint32_t)i || x.words[3] != 3;
		i++;
	}
	pthread_join(t, NULL);
	assert_int_equal(bad, 0);
	assert_true(pt_svc_ring_empty(&xring));
	assert_true(xring.refused > 0); /* the producer did run into a full ring */
}

/* ---- console line rings ---- */
static void test_console_lines(void **state)
{
	(void)state;
	static struct pt_svc_con c;
	char out[16];
	memset(&c, 0, sizeof(c));
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 0);
	assert_true(pt_svc_con_put(&c, "hello"));
	assert_true(pt_svc_con_put(&c, ""));
	assert_true(pt_svc_con_put(&c, "a line longer than the output"));
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 5);
	assert_string_equal(out, "hello");
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 1); /* empty line */
	assert_string_equal(out, "");
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 15); /* truncated, consumed */
	assert_string_equal(out, "a line longer t");
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 0);
	/* fill across the wrap: 100-byte lines, a line that does not fit is dropped whole */
	char line[100];
	memset(line, 'x', 99);
	line[99] = 0;
	uint32_t put = 0;
	while (pt_svc_con_put(&c, line))
		put++;
	assert_int_equal(put, PT_SVC_CON_BYTES / 100);
	assert_int_equal(c.drops, 1);
	for (uint32_t i = 0; i < put; i++)
		assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 15);
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 0);
	assert_true(pt_svc_con_put(&c, "after wrap"));
	assert_int_equal(pt_svc_con_take(&c, out, sizeof(out)), 10);
	assert_string_equal(out, "after wrap");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects_bad_geometry),
		cmocka_unit_test(test_empty_then_full),
		cmocka_unit_test(test_index_wraparound),
		cmocka_unit_test(test_random_programs_match_model),
		cmocka_unit_test(test_two_threads_in_order),
		cmocka_unit_test(test_console_lines),
	};
	return cmocka_run_group_tests_name("svc_ring", tests, NULL, NULL);
}
