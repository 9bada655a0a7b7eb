/* FIR low-pass filter, Q15. */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_fir_result;

/* 31-tap windowed-sinc (Hamming) low-pass, cut-off 0.15 fs, DC gain 0.95. */
const int16_t app_fir_taps_q15[APP_FIR_TAPS] = {
	53,    37,    -28,   -132,  -169,  0,     354,   579,   257,   -661,  -1523,
	-1232, 929,   4517,  7923,  9324,  7923,  4517,  929,   -1232, -1523, -661,
	257,   579,   354,   0,     -169,  -132,  -28,   37,    53,
};

void app_fir_q15(const int16_t *h, uint32_t ntaps, const int16_t *x, int16_t *y, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int64_t acc = 0;
		const int16_t *xp = x + i + ntaps - 1;

		for (uint32_t k = 0; k < ntaps; k++)
			acc += (int32_t)h[k] * xp[-(int32_t)k];
		y[i] = app_sat16((acc + (1 << 14)) >> 15);
	}
}

#define BLOCK 64

void app_fir(void *arg)
{
	int16_t x[BLOCK + APP_FIR_TAPS - 1], y[BLOCK];
	uint32_t iters = app_iterations(arg), h = 0, seed = 0xF1F1u, t = 0;

	for (uint32_t it = 0; it < iters; it++) {
		/* fresh history every block: the stream continues, no copying */
		t = it * BLOCK;
		for (uint32_t i = 0; i < BLOCK + APP_FIR_TAPS - 1; i++)
			x[i] = app_signal(t + i, &seed);
		app_fir_q15(app_fir_taps_q15, APP_FIR_TAPS, x, y, BLOCK);
		for (uint32_t i = 0; i < BLOCK; i++)
			h = app_mix(h, (uint16_t)y[i]);
	}
	app_fir_result = h;
}
