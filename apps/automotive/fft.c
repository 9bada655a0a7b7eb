/* Radix-2 decimation-in-time complex FFT, Q15 with a halving per stage. */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_fft_result;

static inline int16_t rshift1_round(int32_t v)
{
	return app_sat16((v + 1) >> 1);
}

/* (a * b) in Q15, rounded. */
static inline int32_t mul_q15(int32_t a, int32_t b)
{
	return (a * b + (1 << 14)) >> 15;
}

void app_fft_q15(int16_t *re, int16_t *im, uint32_t log2n)
{
	uint32_t n = 1u << log2n;

	/* bit-reversal permutation */
	for (uint32_t i = 0, j = 0; i < n; i++) {
		if (i < j) {
			int16_t t = re[i];

			re[i] = re[j];
			re[j] = t;
			t = im[i];
			im[i] = im[j];
			im[j] = t;
		}
		uint32_t bit = n >> 1;

		while (bit && (j & bit)) {
			j ^= bit;
			bit >>= 1;
		}
		j |= bit;
	}
	/* stages: butterflies of span m, twiddle W^k = exp(-2 pi i k / (2m)) */
	for (uint32_t s = 1; s <= log2n; s++) {
		uint32_t m = 1u << (s - 1), step = 256u >> s; /* table index step for k */

		for (uint32_t k = 0; k < m; k++) {
			int32_t wr = app_sin_q15[(k * step + 64) & 255]; /* cos */
			int32_t wi = -app_sin_q15[(k * step) & 255];     /* -sin */

			for (uint32_t j = k; j < n; j += 2 * m) {
				int32_t xr = re[j + m], xi = im[j + m];
				int32_t tr = mul_q15(xr, wr) - mul_q15(xi, wi);
				int32_t ti = mul_q15(xr, wi) + mul_q15(xi, wr);
				int32_t ur = re[j], ui = im[j];

				re[j] = rshift1_round(ur + tr);
				im[j] = rshift1_round(ui + ti);
				re[j + m] = rshift1_round(ur - tr);
				im[j + m] = rshift1_round(ui - ti);
			}
		}
	}
}

#define LOG2N 8
#define N (1u << LOG2N)

void app_fft(void *arg)
{
	int16_t re[N], im[N];
	uint32_t iters = app_iterations(arg), h = 0, seed = 0xFF7u;

	for (uint32_t it = 0; it < iters; it++) {
		for (uint32_t i = 0; i < N; i++) {
			re[i] = app_signal(it * 7u + i, &seed);
			im[i] = (int16_t)((int16_t)(app_rand(&seed) >> 16) >> 4);
		}
		app_fft_q15(re, im, LOG2N);
		for (uint32_t i = 0; i < N; i++)
			h = app_mix(h, (uint32_t)(uint16_t)re[i] << 16 | (uint16_t)im[i]);
	}
	app_fft_result = h;
}
