/*
 * Building blocks of the automotive apps, exposed so host unit tests can check each against a
 * reference computation. Fixed-point conventions: Q15 = value / 32768 in int16_t; Q14 = / 16384;
 * all rounding is round-half-up ((x + half) >> shift, arithmetic shift); saturation to int16.
 */
#ifndef PARTITA_APPS_AUTOMOTIVE_KERNELS_H
#define PARTITA_APPS_AUTOMOTIVE_KERNELS_H

#include <stdint.h>

/* sin(2 pi i / 256) in Q15 (32767 at the peak); cos(i) = app_sin_q15[(i + 64) & 255]. */
extern const int16_t app_sin_q15[256];

static inline int16_t app_sat16(int64_t v)
{
	return v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v;
}

/* Deterministic inputs: a 32-bit LCG (Numerical Recipes constants). */
static inline uint32_t app_rand(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

/* A test signal of amplitude <= 0.41 full scale: two tones and a little noise. */
static inline int16_t app_signal(uint32_t n, uint32_t *seed)
{
	int32_t v = (app_sin_q15[(n * 5u) & 255] >> 2) + (app_sin_q15[(n * 37u) & 255] >> 3) +
		    ((int16_t)(app_rand(seed) >> 16) >> 5);

	return (int16_t)v;
}

/* Order-sensitive checksum step. */
static inline uint32_t app_mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

static inline uint32_t app_iterations(void *arg)
{
	uintptr_t n = (uintptr_t)arg;

	return n ? (uint32_t)n : 1u;
}

/* FIR: y[i] = sum_k h[k] x[i + ntaps - 1 - k], i < n; x holds n + ntaps - 1 samples. */
void app_fir_q15(const int16_t *h, uint32_t ntaps, const int16_t *x, int16_t *y, uint32_t n);
#define APP_FIR_TAPS 31
extern const int16_t app_fir_taps_q15[APP_FIR_TAPS];

/* Biquad, direct form I: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2 (coefficients Q14). */
struct app_biquad_q14 {
	int16_t b0, b1, b2, a1, a2;
};
struct app_biquad_state {
	int16_t x1, x2, y1, y2;
};
void app_iir_q14(const struct app_biquad_q14 *c, struct app_biquad_state *st, uint32_t nstages,
		 const int16_t *x, int16_t *y, uint32_t n);
#define APP_IIR_STAGES 2
extern const struct app_biquad_q14 app_iir_coeffs[APP_IIR_STAGES];

/* c = a b for n x n Q15 matrices (row major), exact 64-bit accumulation, one rounding. */
void app_matmul_q15(const int16_t *a, const int16_t *b, int16_t *c, uint32_t n);

/*
 * In-place complex FFT of 2^log2n points (log2n <= 8), Q15, decimation in time. Each of the
 * log2n stages halves the values, so the output is DFT(x) / N and cannot overflow for inputs
 * of magnitude below 0.7 full scale.
 */
void app_fft_q15(int16_t *re, int16_t *im, uint32_t log2n);

/* A 2-D map with strictly increasing axes; values outside the axes are clamped. */
struct app_map2d {
	const uint16_t *x_axis; /* nx breakpoints */
	const uint16_t *y_axis; /* ny breakpoints */
	const int16_t *z;       /* ny rows of nx values: z[j * nx + i] at (x_axis[i], y_axis[j]) */
	uint32_t nx, ny;
};
int16_t app_map2d_lookup(const struct app_map2d *m, uint16_t x, uint16_t y);
extern const struct app_map2d app_ignition_map;

/* CRC-32 (IEEE 802.3, reflected, init and final xor 0xffffffff): "123456789" -> 0xcbf43926. */
uint32_t app_crc32(const uint8_t *p, uint32_t n);
/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xffff, no reflection): "123456789" -> 0x29b1. */
uint16_t app_crc16_ccitt(const uint8_t *p, uint32_t n);
uint32_t app_popcount32(uint32_t v);
uint32_t app_bitrev32(uint32_t v);
/* Little-endian (Intel) signal layout in a 64-bit CAN payload: bits [start, start + len). */
uint64_t app_pack_signal(uint64_t frame, uint32_t start_bit, uint32_t len, uint32_t value);
uint32_t app_unpack_signal(uint64_t frame, uint32_t start_bit, uint32_t len);

#endif
