/* Bit manipulation: CRCs of a frame, bit counting, CAN-style signal packing. */
#include "apps.h"
#include "kernels.h"

volatile uint32_t app_bitmanip_result;

/* Bitwise CRCs: no 1 KiB table, constant work per byte. */
uint32_t app_crc32(const uint8_t *p, uint32_t n)
{
	uint32_t crc = 0xffffffffu;

	for (uint32_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

uint16_t app_crc16_ccitt(const uint8_t *p, uint32_t n)
{
	uint16_t crc = 0xffff;

	for (uint32_t i = 0; i < n; i++) {
		crc ^= (uint16_t)(p[i] << 8);
		for (int b = 0; b < 8; b++)
			crc = (uint16_t)((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

/* SWAR population count (no Zbb needed). */
uint32_t app_popcount32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	v = (v + (v >> 4)) & 0x0f0f0f0fu;
	return (v * 0x01010101u) >> 24;
}

uint32_t app_bitrev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
	return (v >> 16) | (v << 16);
}

static inline uint64_t field_mask(uint32_t len)
{
	return len >= 64 ? ~0ull : (1ull << len) - 1;
}

uint64_t app_pack_signal(uint64_t frame, uint32_t start_bit, uint32_t len, uint32_t value)
{
	uint64_t m = field_mask(len) << start_bit;

	return (frame & ~m) | (((uint64_t)value << start_bit) & m);
}

uint32_t app_unpack_signal(uint64_t frame, uint32_t start_bit, uint32_t len)
{
	return (uint32_t)((frame >> start_bit) & field_mask(len));
}

/* A made-up 8-signal payload layout: (start bit, length). */
static const uint8_t layout[8][2] = {
	{ 0, 12 }, { 12, 4 }, { 16, 16 }, { 32, 1 }, { 33, 7 }, { 40, 10 }, { 50, 2 }, { 52, 12 },
};

void app_bitmanip(void *arg)
{
	uint8_t frame[64];
	uint32_t iters = app_iterations(arg), h = 0, seed = 0xB17u;

	for (uint32_t it = 0; it < iters; it++) {
		uint64_t payload = 0;
		uint32_t bits = 0;

		for (uint32_t i = 0; i < 64; i += 4) {
			uint32_t r = app_rand(&seed);

			frame[i] = (uint8_t)r;
			frame[i + 1] = (uint8_t)(r >> 8);
			frame[i + 2] = (uint8_t)(r >> 16);
			frame[i + 3] = (uint8_t)(r >> 24);
			bits += app_popcount32(r);
			h = app_mix(h, app_bitrev32(r));
		}
		h = app_mix(h, app_crc32(frame, 64));
		h = app_mix(h, app_crc16_ccitt(frame, 64));
		for (uint32_t s = 0; s < 8; s++)
			payload = app_pack_signal(payload, layout[s][0], layout[s][1],
						  frame[s] * 0x01010101u);
		for (uint32_t s = 0; s < 8; s++)
			h = app_mix(h, app_unpack_signal(payload, layout[s][0], layout[s][1]));
		h = app_mix(h, bits);
	}
	app_bitmanip_result = h;
}
