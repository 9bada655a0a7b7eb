/*
 * 2-D map lookup with bilinear interpolation, as an engine controller reads its calibration
 * tables: here ignition advance over engine speed x load.
 */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_table_lookup_result;

/* engine speed, rpm */
static const uint16_t rpm_axis[16] = {
	600, 800, 1000, 1250, 1500, 1750, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 7000,
};
/* load, 0.01 % units (0 .. 100.00 %) */
static const uint16_t load_axis[16] = {
	0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 8500, 9000, 10000,
};
/* ignition advance in 0.01 degree; rows: load, columns: rpm (a smooth made-up calibration) */
static const int16_t advance[16 * 16] = {
	 1657,  1840,  2003,  2180,  2327,  2445,  2536,  2651,  2709,  2748,  2802,  2895,  3029,  3189,  3348,  3547,
	 1665,  1842,  1999,  2167,  2304,  2413,  2497,  2603,  2660,  2708,  2780,  2890,  3038,  3205,  3361,  3530,
	 1654,  1825,  1975,  2134,  2262,  2363,  2440,  2539,  2599,  2660,  2748,  2877,  3037,  3208,  3357,  3494,
	 1630,  1794,  1937,  2086,  2206,  2300,  2371,  2466,  2532,  2607,  2713,  2859,  3029,  3200,  3341,  3443,
	 1594,  1750,  1886,  2026,  2138,  2226,  2293,  2386,  2461,  2552,  2677,  2837,  3015,  3184,  3313,  3380,
	 1545,  1695,  1823,  1955,  2060,  2142,  2206,  2302,  2389,  2496,  2639,  2812,  2995,  3158,  3273,  3306,
	 1486,  1628,  1749,  1874,  1973,  2051,  2114,  2215,  2315,  2440,  2600,  2784,  2969,  3124,  3223,  3222,
	 1416,  1551,  1666,  1784,  1878,  1954,  2017,  2126,  2241,  2385,  2560,  2753,  2936,  3080,  3163,  3130,
	 1336,  1464,  1573,  1686,  1777,  1852,  1917,  2036,  2168,  2329,  2519,  2717,  2896,  3027,  3092,  3030,
	 1148,  1265,  1365,  1471,  1560,  1638,  1710,  1857,  2025,  2220,  2431,  2631,  2793,  2892,  2920,  2814,
	  928,  1037,  1133,  1238,  1331,  1418,  1503,  1684,  1887,  2110,  2330,  2521,  2656,  2719,  2714,  2582,
	  683,   790,   886,   995,  1098,  1199,  1301,  1517,  1753,  1993,  2212,  2382,  2483,  2511,  2477,  2343,
	  422,   531,   632,   752,   869,   986,  1106,  1358,  1618,  1864,  2069,  2210,  2275,  2270,  2218,  2104,
	  288,   399,   505,   632,   757,   883,  1013,  1280,  1548,  1793,  1987,  2111,  2158,  2140,  2083,  1987,
	  152,   268,   379,   513,   647,   783,   921,  1203,  1476,  1717,  1898,  2004,  2034,  2004,  1945,  1872,
	 -118,     8,   131,   284,   436,   590,   744,  1046,  1322,  1545,  1695,  1764,  1764,  1719,  1664,  1649,
};

const struct app_map2d app_ignition_map = { rpm_axis, load_axis, advance, 16, 16 };

/*
 * Segment i with axis[i] <= v < axis[i + 1] (binary search) and the position inside it as a
 * Q16 fraction; clamped to the first / last breakpoint outside the axis.
 */
static uint32_t locate(const uint16_t *axis, uint32_t n, uint16_t v, uint32_t *frac_q16)
{
	uint32_t lo = 0, hi = n - 1;

	if (v <= axis[0]) {
		*frac_q16 = 0;
		return 0;
	}
	if (v >= axis[n - 1]) {
		*frac_q16 = 65536;
		return n - 2;
	}
	while (hi - lo > 1) { /* invariant: axis[lo] <= v < axis[hi] */
		uint32_t mid = (lo + hi) / 2;

		if (axis[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	*frac_q16 = ((uint32_t)(v - axis[lo]) << 16) / (uint32_t)(axis[hi] - axis[lo]);
	return lo;
}

int16_t app_map2d_lookup(const struct app_map2d *m, uint16_t x, uint16_t y)
{
	uint32_t fx, fy;
	uint32_t i = locate(m->x_axis, m->nx, x, &fx);
	uint32_t j = locate(m->y_axis, m->ny, y, &fy);
	const int16_t *r0 = &m->z[j * m->nx + i], *r1 = r0 + m->nx;
	/* weights in Q32, sum exactly 2^32: one rounding at the end */
	int64_t w00 = (int64_t)(65536 - fx) * (65536 - fy), w10 = (int64_t)fx * (65536 - fy);
	int64_t w01 = (int64_t)(65536 - fx) * fy, w11 = (int64_t)fx * fy;
	int64_t acc = r0[0] * w00 + r0[1] * w10 + r1[0] * w01 + r1[1] * w11;

	return app_sat16((acc + (1ll << 31)) >> 32);
}

void app_table_lookup(void *arg)
{
	uint32_t iters = app_iterations(arg), h = 0, seed = 0x7AB1Eu;

	for (uint32_t it = 0; it < iters; it++)
		for (uint32_t k = 0; k < 64; k++) {
			uint32_t r = app_rand(&seed);
			/* a little outside both axes too, to exercise clamping */
			uint16_t rpm = (uint16_t)(400 + (r >> 16) % 7000);
			uint16_t load = (uint16_t)((r & 0xffff) % 10500);

			h = app_mix(h, (uint16_t)app_map2d_lookup(&app_ignition_map, rpm, load));
		}
	app_table_lookup_result = h;
}
