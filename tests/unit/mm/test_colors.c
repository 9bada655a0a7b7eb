/* Cache geometry -> colors and super colors (brief 1). */
#include "test_util.h"
#include "mm/colors.h"

static struct pt_cache_cfg cache(uint32_t size, uint32_t ways, uint32_t line, uint32_t page,
				 uint32_t hw, uint32_t colors)
{
	struct pt_cache_cfg c = { size, ways, line, page, hw, colors };

	return c;
}

static void test_paper_geometry(void **st)
{
	(void)st;
	struct pt_color_geom g;
	struct pt_cache_cfg c = cache(8u << 20, 16, 64, 4096, 0, 0);

	/* 8 MiB, 16-way, 4 KiB pages: 128 colors (the seed paper's platform) */
	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
	assert_int_equal(g.hw_colors, 128);
	assert_int_equal(g.colors, 128);
	assert_int_equal(g.sets, 8192);
	assert_int_equal(g.page_shift, 12);
	for (uint64_t pfn = 0x80000; pfn < 0x80000 + 1000; pfn++)
		assert_int_equal(pt_color_of_pfn(&g, pfn), pfn % 128);
	c.hw_colors = 128;
	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
}

static void test_super_colors(void **st)
{
	(void)st;
	struct pt_color_geom g;
	struct pt_cache_cfg c = cache(8u << 20, 16, 64, 4096, 128, 16);

	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
	assert_int_equal(g.hw_colors, 128);
	assert_int_equal(g.colors, 16);
	for (uint64_t pfn = 0; pfn < 4096; pfn++) {
		uint32_t hw = (uint32_t)(pfn % 128);

		assert_int_equal(pt_color_of_pfn(&g, pfn), hw % 16);
	}
	/* each super color groups hw/colors hardware colors */
	unsigned per[16] = { 0 };

	for (uint32_t hw = 0; hw < 128; hw++)
		per[hw % 16]++;
	for (int s = 0; s < 16; s++)
		assert_int_equal(per[s], 8);
}

static void test_no_geometry_one_color(void **st)
{
	(void)st;
	struct pt_color_geom g;
	struct pt_cache_cfg c = cache(0, 0, 0, 0, 0, 0);

	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
	assert_int_equal(g.colors, 1);
	assert_int_equal(g.hw_colors, 1);
	assert_int_equal(g.page_bytes, 4096);
	assert_int_equal(pt_color_of_pfn(&g, 12345), 0);
	c.colors = 2;
	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_EGTHW);
}

static void test_small_cache_uncolorable(void **st)
{
	(void)st;
	struct pt_color_geom g;
	/* 32 KiB 8-way: a way is 4 KiB = one page: every page covers all sets */
	struct pt_cache_cfg c = cache(32768, 8, 64, 4096, 0, 0);

	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
	assert_int_equal(g.hw_colors, 1);
	/* 12-way 3 MiB: way 256 KiB -> 64 colors */
	c = cache(3u << 20, 12, 64, 4096, 0, 0);
	assert_int_equal(pt_colors_derive(&c, &g), PT_COLOR_OK);
	assert_int_equal(g.hw_colors, 64);
}

static void test_errors(void **st)
{
	(void)st;
	struct pt_color_geom g = { 0 };
	struct {
		struct pt_cache_cfg c;
		int err;
	} bad[] = {
		{ cache(8u << 20, 16, 64, 3000, 0, 0), PT_COLOR_EPAGE },
		{ cache(8u << 20, 16, 64, 32, 0, 0), PT_COLOR_EPAGE },
		{ cache(8u << 20, 16, 0, 4096, 0, 0), PT_COLOR_ELINE },
		{ cache(8u << 20, 16, 48, 4096, 0, 0), PT_COLOR_ELINE },
		{ cache(8u << 20, 0, 64, 4096, 0, 0), PT_COLOR_EWAYS },
		{ cache(1000001, 16, 64, 4096, 0, 0), PT_COLOR_EWAYS },
		{ cache(1000000, 16, 64, 4096, 0, 0), PT_COLOR_ESETS },
		{ cache(3u << 20, 16, 64, 4096, 0, 0), PT_COLOR_ESETS },
		{ cache(32u << 20, 16, 64, 4096, 0, 0), PT_COLOR_ETOOMANY }, /* 512 hw colors */
		{ cache(8u << 20, 16, 64, 4096, 0, 256), PT_COLOR_EGTHW },
		{ cache(8u << 20, 16, 64, 4096, 0, 24), PT_COLOR_ENOTDIV },
		{ cache(8u << 20, 16, 64, 4096, 64, 0), PT_COLOR_EMISMATCH },
	};

	for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		g.colors = 777;
		int rc = pt_colors_derive(&bad[k].c, &g);

		if (rc != bad[k].err)
			fail_msg("case %u: got %d, want %d", k, rc, bad[k].err);
		assert_int_equal(g.colors, 777); /* untouched on error */
		assert_string_not_equal(pt_colors_strerror(bad[k].err), "ok");
	}
	/* 32 MiB with 128 super colors is fine */
	struct pt_cache_cfg ok = cache(32u << 20, 16, 64, 4096, 0, 128);

	assert_int_equal(pt_colors_derive(&ok, &g), PT_COLOR_OK);
	assert_int_equal(g.hw_colors, 512);
	assert_int_equal(pt_color_of_pfn(&g, 300), (300 % 512) % 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paper_geometry),
		cmocka_unit_test(test_super_colors),
		cmocka_unit_test(test_no_geometry_one_color),
		cmocka_unit_test(test_small_cache_uncolorable),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests_name("mm_colors", tests, NULL, NULL);
}
