/* IIR low-pass filter: biquad cascade, direct form I, Q14 coefficients, Q15 samples. */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_iir_result;

/* 4th-order Butterworth, cut-off 0.1 fs: two sections with Q = 0.5412 and 1.3066. */
const struct app_biquad_q14 app_iir_coeffs[APP_IIR_STAGES] = {
	{ 1014, 2028, 1014, -17180, 4852 },
	{ 1277, 2554, 1277, -21642, 10367 },
};

void app_iir_q14(const struct app_biquad_q14 *c, struct app_biquad_state *st, uint32_t nstages,
		 const int16_t *x, int16_t *y, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int16_t v = x[i];

		for (uint32_t s = 0; s < nstages; s++) {
			const struct app_biquad_q14 *k = &c[s];
			struct app_biquad_state *z = &st[s];
			int64_t acc = (int32_t)k->b0 * v + (int32_t)k->b1 * z->x1 +
				      (int32_t)k->b2 * z->x2 - (int32_t)k->a1 * z->y1 -
				      (int32_t)k->a2 * z->y2;
			int16_t out = app_sat16((acc + (1 << 13)) >> 14);

			z->x2 = z->x1;
			z->x1 = v;
			z->y2 = z->y1;
			z->y1 = out;
			v = out;
		}
		y[i] = v;
	}
}

#define BLOCK 64

void app_iir(void *arg)
{
	struct app_biquad_state st[APP_IIR_STAGES];
	int16_t x[BLOCK], y[BLOCK];
	uint32_t iters = app_iterations(arg), h = 0, seed = 0x11A5u;

	for (uint32_t s = 0; s < APP_IIR_STAGES; s++) {
		st[s].x1 = st[s].x2 = 0;
		st[s].y1 = st[s].y2 = 0;
	}
	for (uint32_t it = 0; it < iters; it++) {
		for (uint32_t i = 0; i < BLOCK; i++)
			x[i] = app_signal(it * BLOCK + i, &seed);
		app_iir_q14(app_iir_coeffs, st, APP_IIR_STAGES, x, y, BLOCK);
		for (uint32_t i = 0; i < BLOCK; i++)
			h = app_mix(h, (uint16_t)y[i]);
	}
	app_iir_result = h;
}
