/*
 * Colored heap (kernel/mm/heap.c) against a reference model: random sequences with a fixed
 * seed. The heap's virtual span is real host memory, its pages are "mapped" to physical pages
 * taken from the real colored page allocator (fake physical addresses), so the test checks:
 * no two live blocks overlap (a 16-byte-granule owner map, and fill patterns that must survive
 * until the free), every byte of a block lies in a mapped page of the heap's color, the step
 * count of every operation stays under a constant, and double and foreign frees are refused
 * without any change.
 */
#include <string.h>
#include <stdlib.h>
#include "test_util.h"
#include "mm/page_alloc.h"
#include "mm/heap.h"

#define POOL_BASE 0x80200000ull
#define POOL_PAGES 8000ull /* 1000 pages of each color: more than SPAN */
#define COLORS 8u
#define COLOR 5u
#define SPAN 512u
#define GRAN 16u
#define NGRAN (SPAN * 4096u / GRAN)
#define MAXLIVE 4096
/* every operation: at most a split through all orders plus a few list operations */
#define STEP_BOUND (2 * PT_HEAP_ORDERS + 8)
/* small alloc from an existing slab, and every free */
#define STEP_BOUND_FAST 8

static struct pt_page_pool P;
static struct pt_page *pmeta;
static struct pt_color_geom G;
static struct pt_heap H;
static struct pt_heap_page hmeta[SPAN];
static uint8_t *mem;            /* the heap's virtual span (host memory) */
static uint64_t map[SPAN];      /* page -> fake physical address, 0 = unmapped */
static int32_t owner[NGRAN];    /* granule -> live block index + 1, 0 = free */
static int grow_budget;         /* grow calls allowed before failing (-1: unlimited) */

struct blk {
	uintptr_t p;
	size_t req, size;
	uint8_t fill;
};
static struct blk live[MAXLIVE];
static int nlive;
static uintptr_t dead[MAXLIVE]; /* freed addresses not live again (double-free candidates) */
static int ndead;
static uint64_t used_model;

static int grow(void *ctx, const struct pt_heap *h, uintptr_t va)
{
	(void)ctx;
	uint64_t pa;
	if (grow_budget == 0)
		return -1;
	if (pt_page_alloc(&P, h->color, &pa) != PT_PAGE_OK)
		return -1;
	if (grow_budget > 0)
		grow_budget--;
	uint32_t i = (uint32_t)((va - h->base) / 4096);
	assert_true(i < SPAN);
	assert_int_equal(map[i], 0);
	map[i] = pa;
	return 0;
}

static int setup(void **st)
{
	(void)st;
	struct pt_cache_cfg c = { 64u * 16u * 4096u, 16, 64, 4096, 0, COLORS };
	assert_int_equal(pt_colors_derive(&c, &G), PT_COLOR_OK);
	pmeta = calloc(POOL_PAGES, sizeof *pmeta);
	assert_int_equal(pt_page_pool_init(&P, POOL_BASE, POOL_PAGES * 4096, &G, pmeta, POOL_PAGES),
			 PT_PAGE_OK);
	mem = aligned_alloc(4096, SPAN * 4096ul);
	memset(map, 0, sizeof map);
	memset(owner, 0, sizeof owner);
	nlive = ndead = 0;
	used_model = 0;
	grow_budget = -1;
	assert_int_equal(pt_heap_init(&H, (uintptr_t)mem, SPAN, COLOR, hmeta, grow, NULL),
			 PT_HEAP_OK);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	free(pmeta);
	free(mem);
	return 0;
}

/* The invariants of heap.c, checked by a full walk of the page-owner table. */
static void check_invariants(void)
{
	uint32_t on_list[SPAN] = { 0 };
	for (uint32_t k = 0; k < PT_HEAP_ORDERS; k++) {
		assert_int_equal(!!(H.order_mask & (1u << k)), H.free_run[k] != PT_HEAP_NIL);
		uint32_t prev = PT_HEAP_NIL;
		for (uint32_t i = H.free_run[k]; i != PT_HEAP_NIL; i = hmeta[i].next) {
			assert_int_equal(hmeta[i].kind, PT_HPG_FREE);
			assert_int_equal(hmeta[i].cls, k);
			assert_int_equal(hmeta[i].prev, prev);
			on_list[i]++;
			prev = i;
		}
	}
	for (uint32_t c = 0; c < PT_HEAP_CLASSES; c++) {
		uint32_t prev = PT_HEAP_NIL;
		for (uint32_t i = H.partial[c]; i != PT_HEAP_NIL; i = hmeta[i].next) {
			assert_int_equal(hmeta[i].kind, PT_HPG_SMALL);
			assert_int_equal(hmeta[i].cls, c);
			assert_true(hmeta[i].nfree > 0);
			assert_int_equal(hmeta[i].prev, prev);
			on_list[i]++;
			prev = i;
		}
	}
	for (uint32_t i = 0; i < SPAN; i++) {
		const struct pt_heap_page *pg = &hmeta[i];
		if (i >= H.top) {
			assert_int_equal(pg->kind, PT_HPG_UNMAPPED);
			assert_int_equal(map[i], 0);
			continue;
		}
		assert_int_not_equal(pg->kind, PT_HPG_UNMAPPED);
		assert_int_not_equal(map[i], 0);
		assert_int_equal(pt_page_color(&P, map[i]), COLOR); /* every page: the heap's color */
		if (pg->kind == PT_HPG_FREE || pg->kind == PT_HPG_LARGE) {
			for (uint32_t j = 1; j < (1u << pg->cls); j++)
				assert_int_equal(hmeta[i + j].kind, PT_HPG_TAIL);
			assert_int_equal(on_list[i], pg->kind == PT_HPG_FREE);
		} else if (pg->kind == PT_HPG_SMALL) {
			uint32_t slots = 4096u >> (4 + pg->cls), n = 0;
			for (int w = 0; w < 4; w++)
				n += (uint32_t)__builtin_popcountll(pg->bits[w]);
			assert_int_equal(n, pg->nfree);
			assert_true(n <= slots);
			assert_int_equal(on_list[i], n > 0);
		}
	}
	assert_int_equal(H.bytes_used, used_model);
}

static void do_alloc(size_t req)
{
	uint32_t cls = req <= 16 ? 0 : log2_ceil(req) - 4;
	int fast = req <= PT_HEAP_SMALL_MAX && H.partial[cls] != PT_HEAP_NIL;
	uint32_t top0 = H.top;
	uintptr_t p = 0;
	int err = pt_heap_alloc(&H, req, &p);
	/* a failed growth also returns each page it mapped to a list: one step per page */
	if (H.last_steps > (fast ? STEP_BOUND_FAST : STEP_BOUND) + H.last_grown)
		fail_msg("alloc(%zu): %u steps (fast %d)", req, H.last_steps, fast);
	if (err) {
		assert_int_equal(err, PT_HEAP_ENOMEM);
		return;
	}
	assert_true(nlive < MAXLIVE);
	size_t size = pt_heap_round(req);
	assert_true(size >= req);
	assert_int_equal(pt_heap_block_size(&H, p), size);
	assert_int_equal(p % 16, 0);
	assert_true(p >= H.base && p + size <= H.base + (uintptr_t)H.top * 4096);
	assert_true(H.top - top0 == H.last_grown);
	/* every byte in a mapped page of the heap's color, owned by nobody else */
	for (uintptr_t a = p; a < p + size; a += 4096)
		assert_int_equal(pt_page_color(&P, map[(a - H.base) / 4096]), COLOR);
	uint32_t g0 = (uint32_t)((p - H.base) / GRAN);
	for (uint32_t g = g0; g < g0 + size / GRAN; g++) {
		assert_int_equal(owner[g], 0);
		owner[g] = nlive + 1;
	}
	uint8_t fill = (uint8_t)(nlive * 37 + 11);
	memset((void *)p, fill, size);
	live[nlive++] = (struct blk){ p, req, size, fill };
	used_model += size;
	for (int d = 0; d < ndead; d++)
		if (dead[d] == p)
			dead[d] = dead[--ndead]; /* live again: no longer a double-free candidate */
}

static void do_free(int k)
{
	struct blk b = live[k];
	for (size_t i = 0; i < b.size; i++)
		assert_int_equal(((uint8_t *)b.p)[i], b.fill); /* nobody wrote into this block */
	assert_int_equal(pt_heap_free(&H, b.p), PT_HEAP_OK);
	assert_true(H.last_steps <= STEP_BOUND_FAST);
	uint32_t g0 = (uint32_t)((b.p - H.base) / GRAN);
	for (uint32_t g = g0; g < g0 + b.size / GRAN; g++)
		owner[g] = 0;
	used_model -= b.size;
	live[k] = live[--nlive];
	if (nlive > k) { /* the moved block's granules name their new index */
		uint32_t m0 = (uint32_t)((live[k].p - H.base) / GRAN);
		for (uint32_t g = m0; g < m0 + live[k].size / GRAN; g++)
			owner[g] = k + 1;
	}
	if (ndead < MAXLIVE)
		dead[ndead++] = b.p;
}

/* A free the heap must refuse: nothing may change (compared by a full copy of the table). */
static void bad_free(uintptr_t p, int expect_a, int expect_b)
{
	static struct pt_heap_page before[SPAN];
	struct pt_heap hb = H;
	memcpy(before, hmeta, sizeof before);
	int err = pt_heap_free(&H, p);
	assert_true(err == expect_a || err == expect_b);
	assert_memory_equal(before, hmeta, sizeof before);
	assert_int_equal(hb.top, H.top);
	assert_int_equal(hb.order_mask, H.order_mask);
	assert_int_equal(hb.bytes_used, H.bytes_used);
}

static size_t random_size(struct rng *r)
{
	uint64_t u = rng_below(r, 100);
	if (u < 70)
		return 1 + rng_below(r, 256);   /* the common sizes */
	if (u < 92)
		return 1 + rng_below(r, 2048);
	return 2049 + rng_below(r, 40000); /* runs of 1..16 pages */
}

static void test_random(void **st)
{
	(void)st;
	struct rng r = { 0x5eed0012 };
	int refused = 0;
	for (int op = 0; op < 30000; op++) {
		uint64_t u = rng_below(&r, 100);
		if (u < 52 || !nlive) {
			do_alloc(random_size(&r));
		} else if (u < 92) {
			do_free((int)rng_below(&r, (uint64_t)nlive));
		} else if (u < 96 && ndead) {
			uintptr_t p = dead[rng_below(&r, (uint64_t)ndead)];
			if (owner[(p - H.base) / GRAN] == 0) { /* not inside a live block now */
				bad_free(p, PT_HEAP_EDOUBLE, PT_HEAP_EFOREIGN);
				refused++;
			}
		} else {
			/* inside a live block but not its start, or misaligned, or outside */
			struct blk b = live[rng_below(&r, (uint64_t)nlive)];
			uintptr_t p = b.size > 16 ? b.p + 16 * (1 + rng_below(&r, b.size / 16 - 1))
						  : b.p + 1 + rng_below(&r, 15);
			bad_free(p, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
			bad_free(H.base - 4096, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
			bad_free(H.base + (uintptr_t)SPAN * 4096, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
			refused += 3;
		}
		if (op % 16 == 0)
			check_invariants();
	}
	check_invariants();
	assert_true(refused > 1000);
	while (nlive)
		do_free(nlive - 1);
	check_invariants();
	assert_int_equal(H.bytes_used, 0);
}

static void test_sizes_and_classes(void **st)
{
	(void)st;
	assert_int_equal(pt_heap_round(0), 0);
	assert_int_equal(pt_heap_round(1), 16);
	assert_int_equal(pt_heap_round(16), 16);
	assert_int_equal(pt_heap_round(17), 32);
	assert_int_equal(pt_heap_round(2048), 2048);
	assert_int_equal(pt_heap_round(2049), 4096);
	assert_int_equal(pt_heap_round(4097), 8192);
	assert_int_equal(pt_heap_round(3 * 4096), 4 * 4096);
	assert_int_equal(pt_heap_round((size_t)4096 << (PT_HEAP_ORDERS - 1)),
			 (size_t)4096 << (PT_HEAP_ORDERS - 1));
	assert_int_equal(pt_heap_round(((size_t)4096 << (PT_HEAP_ORDERS - 1)) + 1), 0);
	uintptr_t p;
	assert_int_equal(pt_heap_alloc(&H, 0, &p), PT_HEAP_EINVAL);
	assert_int_equal(pt_heap_alloc(&H, SIZE_MAX, &p), PT_HEAP_EINVAL);
	/* 256 blocks of 16 B fill exactly one page; the 257th opens a second */
	for (int i = 0; i < 256; i++)
		do_alloc(16);
	assert_int_equal(H.top, 1);
	do_alloc(10);
	assert_int_equal(H.top, 2);
	check_invariants();
}

static void test_double_and_foreign(void **st)
{
	(void)st;
	do_alloc(100);           /* 128-B slab */
	do_alloc(100);
	do_alloc(5000);          /* 2-page run */
	uintptr_t small = live[0].p, small2 = live[1].p, big = live[2].p;
	do_free(0);              /* small freed; its slab stays (another block lives in it) */
	bad_free(small, PT_HEAP_EDOUBLE, PT_HEAP_EDOUBLE);
	bad_free(small2 + 16, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN); /* inside a block */
	bad_free(small2 + 3, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);  /* misaligned */
	bad_free(big + 4096, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);  /* second page of a run */
	bad_free(big + 64, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
	bad_free(H.base + (uintptr_t)(H.top + 3) * 4096, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
	bad_free(0, PT_HEAP_EFOREIGN, PT_HEAP_EFOREIGN);
	for (int k = 0; k < nlive; k++)
		if (live[k].p == big)
			do_free(k);
	bad_free(big, PT_HEAP_EDOUBLE, PT_HEAP_EDOUBLE);
	assert_int_equal(pt_heap_block_size(&H, big), 0);
	assert_int_equal(pt_heap_block_size(&H, small), 0);
	check_invariants();
}

/* The color runs out mid-growth: the call fails, the pages already mapped stay usable. */
static void test_exhausted_color(void **st)
{
	(void)st;
	grow_budget = 3;
	do_alloc(5 * 4096);      /* needs 8 pages: fails after mapping 3 */
	assert_int_equal(nlive, 0);
	assert_int_equal(H.top, 3);
	check_invariants();
	for (int i = 0; i < 3; i++)
		do_alloc(4096);  /* the three single pages serve these */
	assert_int_equal(nlive, 3);
	assert_int_equal(H.top, 3);
	do_alloc(16);            /* no page left for a slab */
	assert_int_equal(nlive, 3);
	check_invariants();
	/* the pool's own exhaustion of the color behaves the same */
	grow_budget = -1;
	uint64_t pa;
	while (pt_page_alloc(&P, COLOR, &pa) == PT_PAGE_OK)
		;
	do_alloc(16);
	assert_int_equal(nlive, 3);
	while (nlive)
		do_free(nlive - 1);
	check_invariants();
}

/* Growth stops at the span even with pages of the color left. */
static void test_span_limit(void **st)
{
	(void)st;
	for (int i = 0; i < (int)SPAN / 64; i++)
		do_alloc(64 * 4096);
	assert_int_equal(H.top, SPAN);
	assert_int_equal(nlive, SPAN / 64);
	do_alloc(1);
	assert_int_equal(nlive, SPAN / 64);
	do_free(0);
	do_alloc(1); /* split a freed 64-page run: 32+16+8+4+2+1 back on the lists */
	assert_int_equal(nlive, SPAN / 64);
	assert_int_equal(H.order_mask, 0x3fu);
	check_invariants();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sizes_and_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_double_and_foreign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exhausted_color, setup, teardown),
		cmocka_unit_test_setup_teardown(test_span_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random, setup, teardown),
	};
	return cmocka_run_group_tests_name("mm_heap", tests, NULL, NULL);
}
