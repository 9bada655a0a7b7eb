/*
 * The cache model of tools/cachesim (cache_model.c) against a reference model on synthetic
 * physical address streams: every access's hit / miss and writeback agree with an independent
 * move-to-front LRU; a working set that fits stays, one that thrashes misses every time; LRU
 * order; set mapping by physical address, so disjoint page colors never evict each other;
 * the hierarchy's stall arithmetic and bus contention.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "../../tools/cachesim/cache_model.h"

/* Reference: per set, the lines in most-recently-used-first order (index 0 = MRU). */
struct ref {
	uint32_t sets, ways, line_shift;
	uint64_t *line; /* line number + 1, 0 = empty; [set][pos] */
	uint8_t *dirty;
};

static void ref_init(struct ref *r, uint64_t size, uint32_t ways, uint32_t line_bytes)
{
	r->ways = ways;
	r->sets = (uint32_t)(size / ways / line_bytes);
	r->line_shift = (uint32_t)__builtin_ctz(line_bytes);
	r->line = calloc((size_t)r->sets * ways, sizeof(*r->line));
	r->dirty = calloc((size_t)r->sets * ways, 1);
}

static void ref_free(struct ref *r)
{
	free(r->line);
	free(r->dirty);
}

/* true on a hit; *wb = written-back address or UINT64_MAX */
static bool ref_access(struct ref *r, uint64_t pa, bool write, uint64_t *wb)
{
	uint64_t ln = pa >> r->line_shift;
	uint64_t *s = &r->line[(ln % r->sets) * r->ways];
	uint8_t *d = &r->dirty[(ln % r->sets) * r->ways];
	uint32_t pos = 0;
	while (pos < r->ways && s[pos] != ln + 1)
		pos++;
	bool hit = pos < r->ways;
	uint8_t dirty = hit ? d[pos] : 0;
	*wb = UINT64_MAX;
	if (!hit) {
		pos = r->ways - 1; /* the LRU line goes */
		if (s[pos] && d[pos])
			*wb = (s[pos] - 1) << r->line_shift;
	}
	memmove(&s[1], &s[0], pos * sizeof(*s)); /* move to front */
	memmove(&d[1], &d[0], pos);
	s[0] = ln + 1;
	d[0] = dirty | write;
	return hit;
}

static void cache_init(struct cm_cache *c, uint64_t size, uint32_t ways, uint32_t line)
{
	const char *why = NULL;
	struct cm_cache_geom g = {size, ways, line};
	assert_int_equal(cm_cache_init(c, &g, &why), 0);
}

static void test_random_streams_match_reference(void **st)
{
	(void)st;
	static const struct {
		uint64_t size;
		uint32_t ways, line;
	} geoms[] = {{4096, 1, 64}, {32768, 8, 64}, {262144, 4, 64}, {65536, 16, 32}};
	for (size_t g = 0; g < sizeof(geoms) / sizeof(geoms[0]); g++) {
		struct cm_cache c;
		struct ref r;
		struct rng rng = {0xcafe + g};
		cache_init(&c, geoms[g].size, geoms[g].ways, geoms[g].line);
		ref_init(&r, geoms[g].size, geoms[g].ways, geoms[g].line);
		uint64_t hits = 0, n = 200000;
		for (uint64_t i = 0; i < n; i++) {
			/* a hot region (hits) and a range 3x the cache (misses and evictions) */
			uint64_t pa = 0x80000000u + (rng_below(&rng, 4) == 0
							? rng_below(&rng, geoms[g].size / 8)
							: rng_below(&rng, 3 * geoms[g].size));
			bool w = rng_below(&rng, 4) == 0, h1, h2;
			uint64_t wb1, wb2;
			h1 = cm_cache_access(&c, pa, w, &wb1);
			h2 = ref_access(&r, pa, w, &wb2);
			assert_int_equal(h1, h2);
			assert_int_equal(wb1, wb2);
			assert_int_equal(cm_cache_contains(&c, pa), true);
			hits += h1;
		}
		/* the stream exercises both outcomes */
		assert_true(hits > n / 10 && hits < n * 9 / 10);
		cm_cache_free(&c);
		ref_free(&r);
	}
}

static uint64_t sweep(struct cm_cache *c, uint64_t base, uint64_t bytes, uint32_t line)
{
	uint64_t misses = 0, wb;
	for (uint64_t a = base; a < base + bytes; a += line)
		misses += !cm_cache_access(c, a, false, &wb);
	return misses;
}

static void test_fits_vs_thrashes(void **st)
{
	(void)st;
	struct cm_cache c;
	cache_init(&c, 65536, 4, 64);
	/* half the cache: compulsory misses once, then only hits */
	assert_int_equal(sweep(&c, 0x80000000u, 32768, 64), 512);
	for (int i = 0; i < 5; i++)
		assert_int_equal(sweep(&c, 0x80000000u, 32768, 64), 0);
	/* exactly the cache: still fits */
	sweep(&c, 0x80100000u, 65536, 64);
	assert_int_equal(sweep(&c, 0x80100000u, 65536, 64), 0);
	/* 1.25 x the cache, swept in order: LRU evicts each line before its reuse */
	sweep(&c, 0x80200000u, 81920, 64);
	for (int i = 0; i < 5; i++)
		assert_int_equal(sweep(&c, 0x80200000u, 81920, 64), 1280);
	cm_cache_free(&c);
}

static void test_lru_order(void **st)
{
	(void)st;
	struct cm_cache c;
	uint64_t wb;
	cache_init(&c, 4 * 64, 4, 64); /* one set of 4 ways */
	uint64_t A = 0x1000, B = 0x2000, C = 0x3000, D = 0x4000, E = 0x5000;
	assert_false(cm_cache_access(&c, A, true, &wb));
	assert_false(cm_cache_access(&c, B, false, &wb));
	assert_false(cm_cache_access(&c, C, false, &wb));
	assert_false(cm_cache_access(&c, D, false, &wb));
	assert_true(cm_cache_access(&c, A, false, &wb)); /* A is MRU now; B is LRU */
	assert_false(cm_cache_access(&c, E, false, &wb));
	assert_int_equal(wb, UINT64_MAX); /* B was clean */
	assert_false(cm_cache_contains(&c, B));
	assert_true(cm_cache_contains(&c, A));
	/* C, D, A, E in LRU order: two more lines evict C then D, and A only after them */
	assert_false(cm_cache_access(&c, 0x6000, false, &wb));
	assert_false(cm_cache_contains(&c, C));
	assert_false(cm_cache_access(&c, 0x7000, false, &wb));
	assert_false(cm_cache_contains(&c, D));
	assert_true(cm_cache_contains(&c, A));
	assert_false(cm_cache_access(&c, 0x8000, false, &wb));
	assert_int_equal(wb, A); /* A was written: its eviction is a writeback */
	cm_cache_free(&c);
}

/* 256 KiB, 4-way, 64-byte lines, 4 KiB pages: 1024 sets, 16 colors of 64 sets. */
#define PAGE 4096u
#define COLORS 16u
static uint64_t page_of_color(unsigned color, unsigned k)
{
	return 0x80000000u + ((uint64_t)k * COLORS + color) * PAGE;
}

static void test_set_mapping_by_color(void **st)
{
	(void)st;
	struct cm_cache c;
	uint64_t wb;
	cache_init(&c, 262144, 4, 64);
	for (unsigned color = 0; color < COLORS; color++)
		for (unsigned k = 0; k < 3; k++)
			for (uint64_t off = 0; off < PAGE; off += 64) {
				uint32_t set = cm_cache_set_of(&c, page_of_color(color, k) + off);
				assert_int_equal(set / 64, color);
				assert_int_equal(set % 64, off / 64);
			}
	/* 4 pages of color 1 fill its 64 sets x 4 ways */
	for (unsigned k = 0; k < 4; k++)
		for (uint64_t off = 0; off < PAGE; off += 64)
			cm_cache_access(&c, page_of_color(1, k) + off, false, &wb);
	/* 64 pages of color 2 (16 times its share) leave color 1 intact */
	for (unsigned k = 0; k < 64; k++)
		for (uint64_t off = 0; off < PAGE; off += 64)
			cm_cache_access(&c, page_of_color(2, k) + off, false, &wb);
	for (unsigned k = 0; k < 4; k++)
		for (uint64_t off = 0; off < PAGE; off += 64)
			assert_true(cm_cache_contains(&c, page_of_color(1, k) + off));
	/* one more page of color 1 evicts exactly one line per set of color 1 (the LRU page) */
	for (uint64_t off = 0; off < PAGE; off += 64)
		cm_cache_access(&c, page_of_color(1, 4) + off, false, &wb);
	for (uint64_t off = 0; off < PAGE; off += 64) {
		assert_false(cm_cache_contains(&c, page_of_color(1, 0) + off));
		assert_true(cm_cache_contains(&c, page_of_color(1, 1) + off));
	}
	cm_cache_free(&c);
}

static struct cm_params params(uint64_t l1)
{
	struct cm_params p = {.l1i = {l1, 2, 64}, .l1d = {l1, 2, 64}, .llc = {65536, 4, 64},
			      .l1_hit_cycles = 1, .llc_hit_cycles = 30, .mem_cycles = 200,
			      .bus_cycles = 20, .bus_window_cycles = 1000, .nharts = 2};
	return p;
}

static void test_hierarchy_stalls(void **st)
{
	(void)st;
	struct cm_hier h;
	struct cm_counts n = {0};
	struct cm_params p = params(1024);
	const char *why = NULL;
	assert_int_equal(cm_hier_init(&h, &p, &why), 0);
	/* cold: L1 miss, LLC miss -> memory; then L1 hit */
	assert_int_equal(cm_access(&h, 0, 0x80000000u, CM_LOAD, &n), 200);
	assert_int_equal(cm_access(&h, 0, 0x80000008u, CM_STORE, &n), 1);
	/* 32 more lines (2 KiB) through a 1 KiB L1: the first line is gone from the L1, not
	 * from the LLC */
	for (uint64_t a = 0x80000040u; a < 0x80000040u + 2048; a += 64)
		cm_access(&h, 0, a, CM_LOAD, &n);
	uint64_t before = n.stall_cycles;
	assert_int_equal(cm_access(&h, 0, 0x80000000u, CM_LOAD, &n), 30);
	assert_int_equal(n.stall_cycles, before + 30);
	assert_int_equal(n.loads, 34);
	assert_int_equal(n.stores, 1);
	assert_int_equal(n.l1d_hits, 1);
	assert_int_equal(n.l1d_misses, 34);
	assert_int_equal(n.llc_misses, 33);
	assert_int_equal(n.llc_hits, 1);
	assert_true(n.l1_writebacks >= 1); /* the stored line left the L1 dirty */
	/* instruction fetches use the I side: the same line misses the L1I */
	struct cm_counts ni = {0};
	assert_int_equal(cm_access(&h, 1, 0x80000000u, CM_IFETCH, &ni), 30);
	assert_int_equal(ni.l1i_misses, 1);
	cm_hier_free(&h);
	/* without L1s every access goes to the LLC */
	p = params(0);
	assert_int_equal(cm_hier_init(&h, &p, &why), 0);
	struct cm_counts n0 = {0};
	assert_int_equal(cm_access(&h, 0, 0x80000000u, CM_LOAD, &n0), 200);
	assert_int_equal(cm_access(&h, 0, 0x80000000u, CM_LOAD, &n0), 30);
	assert_int_equal(n0.l1d_hits + n0.l1d_misses, 0);
	cm_hier_free(&h);
}

static void test_bus_contention(void **st)
{
	(void)st;
	struct cm_hier h;
	struct cm_counts n1 = {0}, n0 = {0};
	struct cm_params p = params(0);
	const char *why = NULL;
	assert_int_equal(cm_hier_init(&h, &p, &why), 0);
	/* hart 0 alone: no contention */
	assert_int_equal(cm_access(&h, 0, 0x90000000u, CM_LOAD, &n0), 200);
	/* hart 1 streams misses: 5 misses = 1000 modeled cycles, 100 bus cycles: u = 0.1 */
	for (int i = 0; i < 5; i++)
		cm_access(&h, 1, 0x80000000u + 64u * (uint64_t)i, CM_LOAD, &n1);
	assert_int_equal(h.util_q16[1], 65536 / 10);
	assert_int_equal(n1.bus_wait_cycles, 0); /* hart 0's window is not complete yet */
	/* hart 0 now waits bus_cycles x 0.1 = 2 cycles per miss, hits do not wait */
	assert_int_equal(cm_access(&h, 0, 0x90001000u, CM_LOAD, &n0), 202);
	assert_int_equal(cm_access(&h, 0, 0x90001000u, CM_LOAD, &n0), 30);
	assert_int_equal(n0.bus_wait_cycles, 2);
	cm_hier_free(&h);
}

static void test_bad_geometry(void **st)
{
	(void)st;
	struct cm_cache c;
	const char *why = NULL;
	struct cm_cache_geom bad[] = {{65536, 4, 48}, {65536, 0, 64}, {3 * 65536, 4, 64}, {65536, 3, 64}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(cm_cache_init(&c, &bad[i], &why), -1);
		assert_non_null(why);
	}
	struct cm_hier h;
	struct cm_params p = params(0);
	p.llc.size_bytes = 0;
	assert_int_equal(cm_hier_init(&h, &p, &why), -1);
	p = params(1024);
	p.l1d.size_bytes = 0;
	assert_int_equal(cm_hier_init(&h, &p, &why), -1);
	p = params(0);
	p.nharts = 9;
	assert_int_equal(cm_hier_init(&h, &p, &why), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_streams_match_reference),
		cmocka_unit_test(test_fits_vs_thrashes),
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_set_mapping_by_color),
		cmocka_unit_test(test_hierarchy_stalls),
		cmocka_unit_test(test_bus_contention),
		cmocka_unit_test(test_bad_geometry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
