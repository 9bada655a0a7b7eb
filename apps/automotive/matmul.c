/* Q15 matrix multiply (a 16x16 product per iteration, e.g. a state-space model update). */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_matmul_result;

void app_matmul_q15(const int16_t *a, const int16_t *b, int16_t *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < n; j++) {
			int64_t acc = 0;

			for (uint32_t k = 0; k < n; k++)
				acc += (int32_t)a[i * n + k] * b[k * n + j];
			c[i * n + j] = app_sat16((acc + (1 << 14)) >> 15);
		}
}

#define N 16

void app_matmul(void *arg)
{
	int16_t a[N * N], b[N * N], c[N * N];
	uint32_t iters = app_iterations(arg), h = 0, seed = 0x3A7u;

	for (uint32_t it = 0; it < iters; it++) {
		for (uint32_t i = 0; i < N * N; i++) {
			a[i] = (int16_t)(app_rand(&seed) >> 16) >> 1; /* [-0.5, 0.5) */
			b[i] = (int16_t)(app_rand(&seed) >> 16) >> 1;
		}
		app_matmul_q15(a, b, c, N);
		for (uint32_t i = 0; i < N * N; i++)
			h = app_mix(h, (uint16_t)c[i]);
	}
	app_matmul_result = h;
}
