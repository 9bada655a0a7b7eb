/* Colored page allocator: invariants after every operation against a shadow model. */
#include <string.h>
#include <stdlib.h>
#include "test_util.h"
#include "mm/page_alloc.h"

#define BASE 0x80203456ull /* not page aligned: the pool starts at the next page */
#define BYTES (3001ull * 4096) /* 3000 whole pages once BASE is rounded up */

static struct pt_page_pool P;
static struct pt_page *meta;
static struct pt_color_geom G;
static uint8_t *shadow_alloc; /* 1 if the test holds the page */
static uint8_t *seen;

static void geom(uint32_t hw, uint32_t colors)
{
	/* hw colors from a cache of hw x 16 ways x 4 KiB pages */
	struct pt_cache_cfg c = { hw * 16u * 4096u, 16, 64, 4096, 0, colors };

	assert_int_equal(pt_colors_derive(&c, &G), PT_COLOR_OK);
}

static void pool_init(uint32_t hw, uint32_t colors)
{
	uint64_t n;

	geom(hw, colors);
	n = pt_page_pool_pages(BASE, BYTES, &G);
	assert_int_equal(n, 3000);
	meta = calloc(n, sizeof *meta);
	shadow_alloc = calloc(n, 1);
	seen = calloc(n, 1);
	assert_int_equal(pt_page_pool_init(&P, BASE, BYTES, &G, meta, n - 1), PT_PAGE_EINVAL);
	assert_int_equal(pt_page_pool_init(&P, BASE, BYTES, &G, meta, n), PT_PAGE_OK);
	assert_int_equal(P.base_phys, 0x80204000ull);
}

static int teardown(void **st)
{
	(void)st;
	free(meta);
	free(shadow_alloc);
	free(seen);
	meta = NULL;
	shadow_alloc = seen = NULL;
	return 0;
}

static uint64_t idx(uint64_t phys) { return (phys - P.base_phys) / 4096; }

/* Every free page on exactly one list, its own color's; counts right; matches the shadow. */
static void check_invariants(void)
{
	uint64_t total = 0;

	memset(seen, 0, P.npages);
	for (uint32_t c = 0; c < PT_MAX_COLORS; c++) {
		uint64_t n = 0;

		pt_list_for_each(it, &P.free_list[c]) {
			struct pt_page *pg = pt_container_of(it, struct pt_page, node);
			uint64_t i = (uint64_t)(pg - P.pages);

			assert_true(i < P.npages);
			assert_int_equal(seen[i], 0);
			seen[i] = 1;
			assert_int_equal(pg->free, 1);
			assert_int_equal(pg->color, c);
			assert_int_equal(c, pt_color_of_pfn(&G, P.base_phys / 4096 + i));
			n++;
		}
		assert_true(c < G.colors || n == 0);
		assert_int_equal(n, P.free_count[c]);
		assert_int_equal(n, pt_page_free_count(&P, c));
		total += n;
	}
	assert_int_equal(total, P.free_total);
	for (uint64_t i = 0; i < P.npages; i++) {
		assert_int_equal(seen[i], P.pages[i].free);
		assert_int_equal(P.pages[i].free, !shadow_alloc[i]);
	}
}

static void test_init_lists(void **st)
{
	(void)st;
	pool_init(64, 8);
	check_invariants();
	/* 3000 pages over 8 super colors: 375 each; ascending order on every list */
	for (uint32_t c = 0; c < 8; c++) {
		uint64_t last = 0;

		assert_int_equal(pt_page_free_count(&P, c), 375);
		pt_list_for_each(it, &P.free_list[c]) {
			struct pt_page *pg = pt_container_of(it, struct pt_page, node);
			uint64_t phys = P.base_phys + (uint64_t)(pg - P.pages) * 4096;

			assert_true(phys > last);
			last = phys;
		}
	}
	assert_int_equal(pt_page_free_count(&P, 8), 0);
}

static void test_alloc_color_and_exhaustion(void **st)
{
	(void)st;
	uint64_t phys, got = 0;

	pool_init(16, 0); /* 16 colors */
	for (;;) {
		int rc = pt_page_alloc(&P, 5, &phys);

		if (rc == PT_PAGE_ENOMEM)
			break;
		assert_int_equal(rc, PT_PAGE_OK);
		assert_int_equal(phys % 4096, 0);
		assert_int_equal((phys / 4096) % 16, 5);
		assert_int_equal(pt_page_color(&P, phys), 5);
		assert_int_equal(pt_page_color(&P, phys + 100), 5);
		shadow_alloc[idx(phys)] = 1;
		got++;
	}
	uint64_t want = 0;

	for (uint64_t i = 0; i < 3000; i++)
		want += (P.base_phys / 4096 + i) % 16 == 5;
	assert_int_equal(got, want);
	check_invariants();
	assert_int_equal(pt_page_free_count(&P, 5), 0);
	/* other colors untouched */
	assert_int_equal(P.free_total, 3000 - got);
	assert_int_equal(pt_page_alloc(&P, 16, &phys), PT_PAGE_EINVAL);
	assert_int_equal(pt_page_alloc(&P, 200, &phys), PT_PAGE_EINVAL);
}

static void test_alloc_n_all_or_nothing(void **st)
{
	(void)st;
	uint64_t out[400];

	pool_init(32, 4);
	assert_int_equal(pt_page_alloc_n(&P, 2, 751, out), PT_PAGE_ENOMEM);
	check_invariants(); /* nothing taken */
	assert_int_equal(pt_page_alloc_n(&P, 2, 0, out), PT_PAGE_EINVAL);
	assert_int_equal(pt_page_alloc_n(&P, 4, 1, out), PT_PAGE_EINVAL);
	assert_int_equal(pt_page_alloc_n(&P, 2, 400, out), PT_PAGE_OK);
	for (int k = 0; k < 400; k++) {
		assert_int_equal(pt_page_color(&P, out[k]), 2);
		assert_int_equal(shadow_alloc[idx(out[k])], 0); /* distinct */
		shadow_alloc[idx(out[k])] = 1;
	}
	check_invariants();
	assert_int_equal(pt_page_alloc_n(&P, 2, 351, out), PT_PAGE_ENOMEM);
	assert_int_equal(pt_page_alloc_n(&P, 2, 350, out), PT_PAGE_OK);
	for (int k = 0; k < 350; k++)
		shadow_alloc[idx(out[k])] = 1;
	check_invariants();
	assert_int_equal(pt_page_free_count(&P, 2), 0);
}

static void test_free_errors(void **st)
{
	(void)st;
	uint64_t phys;

	pool_init(16, 16);
	assert_int_equal(pt_page_alloc(&P, 3, &phys), PT_PAGE_OK);
	shadow_alloc[idx(phys)] = 1;
	assert_int_equal(pt_page_free(&P, phys + 8), PT_PAGE_EFOREIGN);     /* unaligned */
	assert_int_equal(pt_page_free(&P, P.base_phys - 4096), PT_PAGE_EFOREIGN); /* below */
	assert_int_equal(pt_page_free(&P, P.base_phys + 3000 * 4096ull), PT_PAGE_EFOREIGN);
	assert_int_equal(pt_page_free(&P, 0), PT_PAGE_EFOREIGN);
	assert_int_equal(pt_page_free(&P, phys + 4096), PT_PAGE_EDOUBLE); /* never allocated */
	check_invariants();
	assert_int_equal(pt_page_free(&P, phys), PT_PAGE_OK);
	shadow_alloc[idx(phys)] = 0;
	assert_int_equal(pt_page_free(&P, phys), PT_PAGE_EDOUBLE);
	check_invariants();
	/* free returns the page to its own color: the next alloc of that color gets it back */
	uint64_t again;

	assert_int_equal(pt_page_alloc(&P, 3, &again), PT_PAGE_OK);
	assert_int_equal(again, phys);
}

static void test_contig(void **st)
{
	(void)st;
	uint64_t phys, one;

	pool_init(16, 4);
	/* punch a hole pattern: take every 10th page */
	for (uint64_t i = 0; i < P.npages; i += 10) {
		assert_int_equal(pt_page_reserve(&P, P.base_phys + i * 4096, 1), PT_PAGE_OK);
		shadow_alloc[i] = 1;
	}
	check_invariants();
	assert_int_equal(pt_page_alloc_contig(&P, 10, 1, &phys), PT_PAGE_ENOMEM);
	assert_int_equal(pt_page_alloc_contig(&P, 9, 1, &phys), PT_PAGE_OK);
	assert_int_equal(phys, P.base_phys + 4096); /* first fit */
	for (uint64_t k = 0; k < 9; k++)
		shadow_alloc[idx(phys) + k] = 1;
	check_invariants();
	/* aligned to 8 pages of physical address */
	assert_int_equal(pt_page_alloc_contig(&P, 4, 8, &phys), PT_PAGE_OK);
	assert_int_equal((phys / 4096) % 8, 0);
	for (uint64_t k = 0; k < 4; k++) {
		assert_int_equal(shadow_alloc[idx(phys) + k], 0);
		shadow_alloc[idx(phys) + k] = 1;
	}
	check_invariants();
	assert_int_equal(pt_page_alloc_contig(&P, 4, 3, &phys), PT_PAGE_EINVAL);
	assert_int_equal(pt_page_alloc_contig(&P, 0, 1, &phys), PT_PAGE_EINVAL);
	/* reserved pages are never freed or handed out */
	assert_int_equal(pt_page_free(&P, P.base_phys), PT_PAGE_EFOREIGN);
	assert_int_equal(pt_page_reserve(&P, P.base_phys, 1), PT_PAGE_ENOMEM);
	/* free a run: all or nothing */
	assert_int_equal(pt_page_alloc(&P, 1, &one), PT_PAGE_OK);
	shadow_alloc[idx(one)] = 1;
	check_invariants();
}

/* Random sequences of every operation, invariants after each. */
static void test_random(void **st)
{
	(void)st;
	struct rng r = { 77 };
	uint64_t *held = malloc(3000 * sizeof *held), nheld = 0, out[64];

	pool_init(64, 16);
	for (int step = 0; step < 20000; step++) {
		unsigned op = (unsigned)rng_below(&r, 10);
		uint32_t c = (uint32_t)rng_below(&r, 17); /* 16 is invalid */

		if (op <= 2) {
			uint64_t phys;
			uint64_t before = pt_page_free_count(&P, c);
			int rc = pt_page_alloc(&P, c, &phys);

			if (c >= 16) {
				assert_int_equal(rc, PT_PAGE_EINVAL);
			} else if (before == 0) {
				assert_int_equal(rc, PT_PAGE_ENOMEM);
			} else {
				assert_int_equal(rc, PT_PAGE_OK);
				assert_int_equal(pt_page_color(&P, phys), c);
				shadow_alloc[idx(phys)] = 1;
				held[nheld++] = phys;
			}
		} else if (op == 3) {
			uint64_t n = 1 + rng_below(&r, 40);
			uint64_t before = c < 16 ? pt_page_free_count(&P, c) : 0;
			int rc = pt_page_alloc_n(&P, c, n, out);

			if (c >= 16)
				assert_int_equal(rc, PT_PAGE_EINVAL);
			else if (before < n)
				assert_int_equal(rc, PT_PAGE_ENOMEM);
			else {
				assert_int_equal(rc, PT_PAGE_OK);
				for (uint64_t k = 0; k < n; k++) {
					assert_int_equal(pt_page_color(&P, out[k]), c);
					shadow_alloc[idx(out[k])] = 1;
					held[nheld++] = out[k];
				}
			}
		} else if (op == 4) {
			uint64_t n = 1 + rng_below(&r, 12), al = 1ull << rng_below(&r, 4), phys;
			int rc = pt_page_alloc_contig(&P, n, al, &phys);

			if (rc == PT_PAGE_OK) {
				assert_int_equal((phys / 4096) % al, 0);
				for (uint64_t k = 0; k < n; k++) {
					assert_int_equal(shadow_alloc[idx(phys) + k], 0);
					shadow_alloc[idx(phys) + k] = 1;
					held[nheld++] = phys + k * 4096;
				}
			} else {
				assert_int_equal(rc, PT_PAGE_ENOMEM);
				/* brute force: really no free aligned run of n */
				for (uint64_t i = 0; i + n <= P.npages; i++) {
					uint64_t k = 0;

					if ((P.base_phys / 4096 + i) % al)
						continue;
					while (k < n && !shadow_alloc[i + k])
						k++;
					assert_true(k < n);
				}
			}
		} else if (op <= 8 && nheld) {
			uint64_t k = rng_below(&r, nheld), phys = held[k];

			assert_int_equal(pt_page_free(&P, phys), PT_PAGE_OK);
			shadow_alloc[idx(phys)] = 0;
			held[k] = held[--nheld];
			assert_int_equal(pt_page_free(&P, phys), PT_PAGE_EDOUBLE);
		} else if (op == 9) {
			uint64_t i = rng_below(&r, P.npages + 10);
			int rc = pt_page_free(&P, P.base_phys + i * 4096);

			if (i >= P.npages)
				assert_int_equal(rc, PT_PAGE_EFOREIGN);
			else if (!shadow_alloc[i])
				assert_int_equal(rc, PT_PAGE_EDOUBLE);
			else {
				assert_int_equal(rc, PT_PAGE_OK);
				shadow_alloc[i] = 0;
				for (uint64_t k = 0; k < nheld; k++)
					if (held[k] == P.base_phys + i * 4096) {
						held[k] = held[--nheld];
						break;
					}
			}
		}
		if (step % 16 == 0)
			check_invariants();
	}
	check_invariants();
	/* free everything: back to the initial counts */
	while (nheld) {
		assert_int_equal(pt_page_free(&P, held[nheld - 1]), PT_PAGE_OK);
		shadow_alloc[idx(held[--nheld])] = 0;
	}
	check_invariants();
	assert_int_equal(P.free_total, 3000);
	free(held);
}

static void test_free_contig_checks_first(void **st)
{
	(void)st;
	uint64_t phys;

	pool_init(16, 16);
	assert_int_equal(pt_page_alloc_contig(&P, 8, 1, &phys), PT_PAGE_OK);
	for (int k = 0; k < 8; k++)
		shadow_alloc[idx(phys) + k] = 1;
	assert_int_equal(pt_page_free(&P, phys + 3 * 4096), PT_PAGE_OK);
	shadow_alloc[idx(phys) + 3] = 0;
	/* page 3 of the run is already free: nothing is freed */
	assert_int_equal(pt_page_free_contig(&P, phys, 8), PT_PAGE_EDOUBLE);
	check_invariants();
	assert_int_equal(pt_page_free_contig(&P, phys, 3), PT_PAGE_OK);
	for (int k = 0; k < 3; k++)
		shadow_alloc[idx(phys) + k] = 0;
	assert_int_equal(pt_page_free_contig(&P, phys + 4 * 4096, 4), PT_PAGE_OK);
	for (int k = 4; k < 8; k++)
		shadow_alloc[idx(phys) + k] = 0;
	check_invariants();
	assert_int_equal(pt_page_free_contig(&P, P.base_phys + 2999 * 4096ull, 2), PT_PAGE_EFOREIGN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_init_lists, teardown),
		cmocka_unit_test_teardown(test_alloc_color_and_exhaustion, teardown),
		cmocka_unit_test_teardown(test_alloc_n_all_or_nothing, teardown),
		cmocka_unit_test_teardown(test_free_errors, teardown),
		cmocka_unit_test_teardown(test_contig, teardown),
		cmocka_unit_test_teardown(test_random, teardown),
		cmocka_unit_test_teardown(test_free_contig_checks_first, teardown),
	};
	return cmocka_run_group_tests_name("mm_page_alloc", tests, NULL, NULL);
}
