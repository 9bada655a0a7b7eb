/* Host unit tests of C-HEAP FIFOs (<partita/df_fifo.h>) against a reference model: random
 * production and consumption rates, wrap-around of the counters, and a producer and a
 * consumer on two host threads checking every token. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include <partita/df_fifo.h>

/* xorshift64*: the same sequence on every host */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 33) % n;
}

/* The reference: a FIFO as a plain queue of token values. */
struct ref {
	uint32_t q[64];
	uint32_t head, count, size;
};

static void check_against_ref(uint32_t size, uint32_t start_counter, unsigned steps)
{
	uint32_t buf[64];
	struct pt_df_fifo f;
	struct ref r = { .size = size };
	uint32_t next_value = 1, expect_value = 1;

	assert_true(pt_df_fifo_init(&f, buf, size, sizeof(uint32_t), 0));
	f.wc = f.rc = start_counter % (2 * size); /* any start in the counters' range */
	for (unsigned s = 0; s < steps; s++) {
		uint32_t n = 1 + rnd(size + 1); /* sometimes more than fits: must be refused */
		assert_int_equal(pt_df_fifo_tokens(&f), r.count);
		assert_int_equal(pt_df_fifo_space(&f), r.size - r.count);
		if (rnd(2)) { /* producer fires with rate n if the rule allows */
			bool ok = pt_df_fifo_can_write(&f, n);
			assert_int_equal(ok, r.size - r.count >= n);
			if (!ok)
				continue;
			for (uint32_t i = 0; i < n; i++) {
				*(uint32_t *)pt_df_fifo_claim_space(&f, i) = next_value;
				r.q[(r.head + r.count + i) % 64] = next_value++;
			}
			pt_df_fifo_commit(&f, n);
			r.count += n;
		} else {
			bool ok = pt_df_fifo_can_read(&f, n);
			assert_int_equal(ok, r.count >= n);
			if (!ok)
				continue;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t v = *(const uint32_t *)pt_df_fifo_claim_token(&f, i);
				assert_int_equal(v, r.q[(r.head + i) % 64]);
				assert_int_equal(v, expect_value++); /* order kept, nothing lost */
			}
			pt_df_fifo_release(&f, n);
			r.head = (r.head + n) % 64;
			r.count -= n;
		}
	}
}

static void test_random_rates(void **st)
{
	(void)st;
	for (uint32_t size = 1; size <= 17; size++)
		check_against_ref(size, 0, 4000);
}

/* counters wrap at 2 * size: every start (a full FIFO is wc - rc = size, not 0) */
static void test_counter_wrap(void **st)
{
	(void)st;
	for (uint32_t size = 1; size <= 17; size += 4)
		for (uint32_t start = 1; start < 2 * size; start += 3)
			check_against_ref(size, start, 1000);
}

static void test_claims_are_in_place(void **st)
{
	(void)st;
	uint8_t buf[4 * 8];
	struct pt_df_fifo f;
	assert_true(pt_df_fifo_init(&f, buf, 4, 8, 0));
	for (uint32_t i = 0; i < 4; i++)
		assert_ptr_equal(pt_df_fifo_claim_space(&f, i), buf + 8 * i);
	pt_df_fifo_commit(&f, 3);
	assert_ptr_equal(pt_df_fifo_claim_token(&f, 0), buf);
	assert_ptr_equal(pt_df_fifo_claim_space(&f, 0), buf + 24);
	assert_ptr_equal(pt_df_fifo_claim_space(&f, 1), buf); /* wraps: slot 0 once released */
	assert_false(pt_df_fifo_can_write(&f, 2));
	pt_df_fifo_release(&f, 1);
	assert_true(pt_df_fifo_can_write(&f, 2));
}

static void test_init_rules(void **st)
{
	(void)st;
	uint32_t buf[4] = { 7, 8, 0, 0 };
	struct pt_df_fifo f;
	assert_false(pt_df_fifo_init(&f, buf, 0, 4, 0));
	assert_false(pt_df_fifo_init(&f, buf, 4, 4, 5));
	assert_false(pt_df_fifo_init(&f, buf, PT_DF_FIFO_MAX_TOKENS + 1, 4, 0));
	assert_true(pt_df_fifo_init(&f, buf, 4, 4, 2)); /* two initial tokens */
	assert_int_equal(pt_df_fifo_tokens(&f), 2);
	assert_int_equal(pt_df_fifo_space(&f), 2);
	assert_int_equal(*(const uint32_t *)pt_df_fifo_claim_token(&f, 1), 8);
}

/* Two host threads, random rates on both sides: every token arrives once, in order. */
#define XTOKENS 200000u
static uint32_t xbuf[7];
static struct pt_df_fifo xf;

static void *producer(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	uint32_t v = 0;
	while (v < XTOKENS) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t n = 1 + (uint32_t)(seed >> 60) % 3;
		if (n > XTOKENS - v)
			n = XTOKENS - v;
		if (!pt_df_fifo_can_write(&xf, n))
			continue;
		for (uint32_t i = 0; i < n; i++)
			*(uint32_t *)pt_df_fifo_claim_space(&xf, i) = v++;
		pt_df_fifo_commit(&xf, n);
	}
	return 0;
}

static void test_two_threads(void **st)
{
	(void)st;
	pthread_t p;
	uint32_t expect = 0;
	uint64_t seed = 42;
	assert_true(pt_df_fifo_init(&xf, xbuf, 7, 4, 0));
	assert_int_equal(pthread_create(&p, 0, producer, (void *)(uintptr_t)7), 0);
	while (expect < XTOKENS) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t n = 1 + (uint32_t)(seed >> 60) % 4;
		if (n > XTOKENS - expect)
			n = XTOKENS - expect;
		if (!pt_df_fifo_can_read(&xf, n))
			continue;
		for (uint32_t i = 0; i < n; i++)
			if (*(const uint32_t *)pt_df_fifo_claim_token(&xf, i) != expect++)
				fail_msg("token %u out of order", expect - 1);
		pt_df_fifo_release(&xf, n);
	}
	pthread_join(p, 0);
	assert_int_equal(pt_df_fifo_tokens(&xf), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_rates),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_claims_are_in_place),
		cmocka_unit_test(test_init_rules),
		cmocka_unit_test(test_two_threads),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
