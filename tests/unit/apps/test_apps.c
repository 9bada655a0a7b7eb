/* Automotive kernels against straightforward double-precision / bitwise host references. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "apps.h"
#include "kernels.h"

static double q15(int32_t v) { return v / 32768.0; }

static void test_fir_vs_reference(void **st)
{
	(void)st;
	enum { N = 256, T = APP_FIR_TAPS };
	int16_t x[N + T - 1], y[N];
	struct rng r = { 3 };

	for (int rep = 0; rep < 20; rep++) {
		for (int i = 0; i < N + T - 1; i++)
			x[i] = (int16_t)((int64_t)rng_below(&r, 65536) - 32768) / (rep % 3 + 1);
		app_fir_q15(app_fir_taps_q15, T, x, y, N);
		for (int i = 0; i < N; i++) {
			double ref = 0;

			for (int k = 0; k < T; k++)
				ref += q15(app_fir_taps_q15[k]) * q15(x[i + T - 1 - k]);
			ref *= 32768.0;
			if (ref > 32767)
				ref = 32767;
			if (ref < -32768)
				ref = -32768;
			assert_true(fabs(y[i] - ref) <= 0.5 + 1e-9); /* one rounding, exact sum */
		}
	}
	/* DC gain: sum of taps / 32768 = 0.95 */
	for (int i = 0; i < N + T - 1; i++)
		x[i] = 10000;
	app_fir_q15(app_fir_taps_q15, T, x, y, N);
	assert_true(abs(y[100] - 9501) <= 1);
	/* a tone well above the cut-off (0.15 fs) is attenuated > 30 dB */
	for (int i = 0; i < N + T - 1; i++)
		x[i] = (int16_t)(app_sin_q15[(i * 96) & 255] / 2); /* 0.375 fs */
	app_fir_q15(app_fir_taps_q15, T, x, y, N);
	for (int i = 0; i < N; i++)
		assert_true(abs(y[i]) < 16384 / 31);
}

static void test_iir_vs_reference(void **st)
{
	(void)st;
	enum { N = 2000 };
	static int16_t x[N], y[N];
	struct app_biquad_state s[APP_IIR_STAGES];
	double z[APP_IIR_STAGES][4] = { { 0 } }, maxerr = 0;
	uint32_t seed = 42;

	memset(s, 0, sizeof s);
	for (int i = 0; i < N; i++)
		x[i] = app_signal((uint32_t)i, &seed);
	app_iir_q14(app_iir_coeffs, s, APP_IIR_STAGES, x, y, N);
	for (int i = 0; i < N; i++) {
		double v = x[i];

		for (int k = 0; k < APP_IIR_STAGES; k++) {
			const struct app_biquad_q14 *c = &app_iir_coeffs[k];
			double o = (c->b0 * v + c->b1 * z[k][0] + c->b2 * z[k][1] - c->a1 * z[k][2] -
				    c->a2 * z[k][3]) / 16384.0;

			z[k][1] = z[k][0];
			z[k][0] = v;
			z[k][3] = z[k][2];
			z[k][2] = o;
			v = o;
		}
		double e = fabs(y[i] - v);

		if (e > maxerr)
			maxerr = e;
	}
	print_message("  iir max |fixed - double| = %.2f LSB\n", maxerr);
	assert_true(maxerr <= 8.0); /* rounding noise through the recursive sections */
	/* DC gain 1: a step settles at the input value */
	memset(s, 0, sizeof s);
	for (int i = 0; i < N; i++)
		x[i] = 12000;
	app_iir_q14(app_iir_coeffs, s, APP_IIR_STAGES, x, y, N);
	assert_true(abs(y[N - 1] - 12000) <= 4);
}

static void test_matmul_exact(void **st)
{
	(void)st;
	enum { N = 16 };
	int16_t a[N * N], b[N * N], c[N * N];
	struct rng r = { 9 };

	for (int rep = 0; rep < 50; rep++) {
		for (int i = 0; i < N * N; i++) {
			a[i] = (int16_t)((int64_t)rng_below(&r, 65536) - 32768) >> (rep % 4);
			b[i] = (int16_t)((int64_t)rng_below(&r, 65536) - 32768) >> (rep % 4);
		}
		app_matmul_q15(a, b, c, N);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				double s = 0;

				for (int k = 0; k < N; k++)
					s += (double)a[i * N + k] * b[k * N + j]; /* exact in double */
				double ref = floor(s / 32768.0 + 0.5);

				ref = ref > 32767 ? 32767 : ref < -32768 ? -32768 : ref;
				assert_int_equal(c[i * N + j], (int)ref);
			}
	}
	/* identity (0.99997 on the diagonal) times b ~ b */
	for (int i = 0; i < N * N; i++)
		a[i] = (i / N == i % N) ? 32767 : 0;
	app_matmul_q15(a, b, c, N);
	for (int i = 0; i < N * N; i++)
		assert_true(abs(c[i] - b[i]) <= 1);
}

static void dft_ref(const int16_t *re, const int16_t *im, double *ore, double *oim, int n)
{
	for (int k = 0; k < n; k++) {
		double sr = 0, si = 0;

		for (int t = 0; t < n; t++) {
			double a = -2 * M_PI * k * t / n;

			sr += re[t] * cos(a) - im[t] * sin(a);
			si += re[t] * sin(a) + im[t] * cos(a);
		}
		ore[k] = sr / n;
		oim[k] = si / n;
	}
}

static void test_fft_known_signal(void **st)
{
	(void)st;
	enum { LOG2N = 8, N = 1 << LOG2N };
	int16_t re[N], im[N];

	/* 0.5 cos(2 pi 10 t / N): X[10] = X[N-10] = 0.25 (after /N), elsewhere ~0 */
	for (int t = 0; t < N; t++) {
		re[t] = (int16_t)(app_sin_q15[(t * 10 + 64) & 255] / 2);
		im[t] = 0;
	}
	app_fft_q15(re, im, LOG2N);
	for (int k = 0; k < N; k++) {
		double want = (k == 10 || k == N - 10) ? 8192 : 0;

		assert_true(fabs(re[k] - want) <= 6);
		assert_true(abs(im[k]) <= 6);
	}
}

static void test_fft_vs_dft(void **st)
{
	(void)st;
	static double rr[256], ri[256];
	int16_t re[256], im[256], r0[256], i0[256];
	uint32_t seed = 1;
	double maxerr = 0;

	for (uint32_t log2n = 1; log2n <= 8; log2n++) {
		int n = 1 << log2n;

		for (int t = 0; t < n; t++) {
			re[t] = r0[t] = app_signal((uint32_t)t * 3, &seed);
			im[t] = i0[t] = (int16_t)((int16_t)(app_rand(&seed) >> 16) >> 2);
		}
		app_fft_q15(re, im, log2n);
		dft_ref(r0, i0, rr, ri, n);
		for (int k = 0; k < n; k++) {
			double e = fmax(fabs(re[k] - rr[k]), fabs(im[k] - ri[k]));

			if (e > maxerr)
				maxerr = e;
			assert_true(e <= 1.0 + log2n); /* ~1 LSB of rounding per stage */
		}
	}
	print_message("  fft max |fixed - double DFT/N| = %.2f LSB\n", maxerr);
}

static double bilinear_ref(const struct app_map2d *m, double x, double y)
{
	int i = 0, j = 0;

	if (x < m->x_axis[0])
		x = m->x_axis[0];
	if (x > m->x_axis[m->nx - 1])
		x = m->x_axis[m->nx - 1];
	if (y < m->y_axis[0])
		y = m->y_axis[0];
	if (y > m->y_axis[m->ny - 1])
		y = m->y_axis[m->ny - 1];
	while (i < (int)m->nx - 2 && m->x_axis[i + 1] <= x)
		i++;
	while (j < (int)m->ny - 2 && m->y_axis[j + 1] <= y)
		j++;
	double fx = (x - m->x_axis[i]) / (m->x_axis[i + 1] - m->x_axis[i]);
	double fy = (y - m->y_axis[j]) / (m->y_axis[j + 1] - m->y_axis[j]);
	const int16_t *z = m->z;
	int nx = (int)m->nx;

	return z[j * nx + i] * (1 - fx) * (1 - fy) + z[j * nx + i + 1] * fx * (1 - fy) +
	       z[(j + 1) * nx + i] * (1 - fx) * fy + z[(j + 1) * nx + i + 1] * fx * fy;
}

static void test_map_lookup(void **st)
{
	(void)st;
	const struct app_map2d *m = &app_ignition_map;
	struct rng r = { 17 };

	/* exact at every breakpoint */
	for (uint32_t j = 0; j < m->ny; j++)
		for (uint32_t i = 0; i < m->nx; i++)
			assert_int_equal(app_map2d_lookup(m, m->x_axis[i], m->y_axis[j]),
					 m->z[j * m->nx + i]);
	/* clamped outside */
	assert_int_equal(app_map2d_lookup(m, 0, 0), m->z[0]);
	assert_int_equal(app_map2d_lookup(m, 65535, 65535), m->z[m->nx * m->ny - 1]);
	/* between: within one LSB of the real-valued bilinear interpolation */
	for (int k = 0; k < 20000; k++) {
		uint16_t x = (uint16_t)rng_below(&r, 7600), y = (uint16_t)rng_below(&r, 10600);
		double ref = bilinear_ref(m, x, y);

		assert_true(fabs(app_map2d_lookup(m, x, y) - ref) <= 1.0);
	}
}

static void test_crc_known_vectors(void **st)
{
	(void)st;
	const uint8_t *v = (const uint8_t *)"123456789";

	assert_int_equal(app_crc32(v, 9), 0xcbf43926u);
	assert_int_equal(app_crc16_ccitt(v, 9), 0x29b1);
	assert_int_equal(app_crc32(v, 0), 0);
	uint8_t z[32] = { 0 };

	assert_int_equal(app_crc32(z, 32), 0x190a55adu); /* CRC-32 of 32 zero bytes */
}

static void test_bits(void **st)
{
	(void)st;
	struct rng r = { 23 };

	for (int k = 0; k < 100000; k++) {
		uint32_t v = (uint32_t)rng_next(&r), rev = 0;
		unsigned pc = 0;

		for (int b = 0; b < 32; b++) {
			pc += v >> b & 1;
			rev |= (v >> b & 1u) << (31 - b);
		}
		assert_int_equal(app_popcount32(v), pc);
		assert_int_equal(app_bitrev32(v), rev);
	}
	assert_int_equal(app_popcount32(0xffffffffu), 32);
	/* packing: a field lands where the layout says and leaves the rest alone */
	uint64_t f = app_pack_signal(0xffffffffffffffffull, 12, 4, 0x5);

	assert_true(f == 0xffffffffffff5fffull);
	f = app_pack_signal(0, 52, 12, 0xabc);
	assert_true(f == 0xabc0000000000000ull);
	assert_int_equal(app_unpack_signal(f, 52, 12), 0xabc);
	assert_int_equal(app_pack_signal(0, 0, 3, 0xff), 0x7); /* value truncated to the field */
	for (int k = 0; k < 10000; k++) {
		uint64_t frame = rng_next(&r);
		uint32_t start = (uint32_t)rng_below(&r, 64);
		uint32_t len = 1 + (uint32_t)rng_below(&r, 64 - start < 32 ? 64 - start : 32);
		uint32_t val = (uint32_t)rng_next(&r);
		uint64_t g = app_pack_signal(frame, start, len, val);
		uint64_t m = (len == 64 ? ~0ull : ((1ull << len) - 1)) << start;

		assert_int_equal(app_unpack_signal(g, start, len),
				 val & (uint32_t)((len >= 32) ? 0xffffffffu : ((1u << len) - 1)));
		assert_true((g & ~m) == (frame & ~m));
	}
}

typedef void (*app_fn)(void *);

static void test_apps_deterministic(void **st)
{
	(void)st;
	app_fn fns[] = { app_fir, app_iir, app_matmul, app_fft, app_table_lookup, app_bitmanip };
	volatile uint32_t *res[] = { &app_fir_result, &app_iir_result, &app_matmul_result,
				     &app_fft_result, &app_table_lookup_result,
				     &app_bitmanip_result };

	for (int k = 0; k < 6; k++) {
		fns[k]((void *)(uintptr_t)3);
		uint32_t a = *res[k];

		*res[k] = 0;
		fns[k]((void *)(uintptr_t)3);
		assert_int_equal(*res[k], a);
		fns[k]((void *)(uintptr_t)4);
		assert_int_not_equal(*res[k], a); /* more work, different checksum */
		fns[k]((void *)(uintptr_t)0);
		uint32_t z = *res[k];

		fns[k]((void *)(uintptr_t)1);
		assert_int_equal(*res[k], z); /* 0 iterations counts as 1 */
		print_message("  app %d: checksum(3 iterations) = 0x%08x\n", k, a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fir_vs_reference),
		cmocka_unit_test(test_iir_vs_reference),
		cmocka_unit_test(test_matmul_exact),
		cmocka_unit_test(test_fft_known_signal),
		cmocka_unit_test(test_fft_vs_dft),
		cmocka_unit_test(test_map_lookup),
		cmocka_unit_test(test_crc_known_vectors),
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_apps_deterministic),
	};
	return cmocka_run_group_tests_name("apps_automotive", tests, NULL, NULL);
}
