/*
 * The JPEG-like decoder (brief 4, the paper's Fig. 19 shape: 3 tasks over 2 cores) as a
 * data-flow graph `jpeg`: vld (entropy decoding and dequantisation of one MCU: Y, Cb, Cr
 * 8x8 blocks) -> coef -> idct (integer 2-D IDCT of the three blocks) -> pix -> cc (YCbCr to
 * RGB, output). The stream (PJPG, tools/partita/subsys/dataflow/codecs.py) is decoded again
 * and again: each pass is one frame of a stream of still pictures. The host checks every
 * byte against its reference decoder (tests/system/dataflow/test_sys_decoders.py).
 */
#include <stdint.h>
#include <partita/dataflow.h>
#include <partita/printf.h>
#include "df_codec.h"

#define PJPG_HEADER_BYTES 136u
#define PJPG_EOB 63u

struct jpg_coef { uint32_t mcu, pass; int16_t c[3][64]; };
struct jpg_pix { uint32_t mcu, pass; uint8_t p[3][64]; };
_Static_assert(sizeof(struct jpg_coef) == 392, "token_bytes of fifo coef in the YAML");
_Static_assert(sizeof(struct jpg_pix) == 200, "token_bytes of fifo pix in the YAML");

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

void df_jpeg_vld(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *out = pt_df_fifo_find("jpeg", "coef");
	const uint8_t *s = df_jpeg_stream;
	uint32_t mcus = (le16(s + 6) / 8) * (le16(s + 4) / 8), mcu = 0, pass = 0;
	struct df_bits b = { s, df_jpeg_stream_len * 8, PJPG_HEADER_BYTES * 8, false };
	int32_t prev[3] = { 0, 0, 0 };
	df_codec_bind("jpeg", "vld", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_write(out, 1);
		if (ok) {
			struct jpg_coef *t = pt_df_fifo_claim_space(out, 0);
			t->mcu = mcu, t->pass = pass;
			for (uint32_t c = 0; c < 3; c++) {
				const uint8_t *q = s + 8 + (c ? 64 : 0);
				int16_t *blk = t->c[c];
				for (uint32_t i = 0; i < 64; i++)
					blk[i] = 0;
				prev[c] += df_bits_se(&b);
				blk[df_jpeg_zigzag[0]] = (int16_t)(prev[c] * q[df_jpeg_zigzag[0]]);
				for (uint32_t k = 1;; k++) {
					uint32_t run = df_bits_ue(&b);
					if (run == PJPG_EOB || b.overrun)
						break;
					k += run;
					if (k > 63) {
						pt_printf("df: error: jpeg mcu %u: run past the block\n", mcu);
						break;
					}
					uint8_t z = df_jpeg_zigzag[k];
					blk[z] = (int16_t)(df_bits_se(&b) * q[z]);
				}
			}
			if (b.overrun)
				pt_printf("df: error: jpeg stream ends inside mcu %u\n", mcu);
			pt_df_fifo_commit(out, 1);
			if (++mcu == mcus) { /* the next pass: the same picture again */
				mcu = 0, pass++;
				b.pos = PJPG_HEADER_BYTES * 8;
				prev[0] = prev[1] = prev[2] = 0;
			}
		}
		df_codec_fired(g, a, "vld", ok, (uintptr_t)arg & 1u);
	}
}

/* x = A^T X A, A the DCT matrix in Q13: a row pass rounded to Q2, then a column pass rounded
 * to integers (the same arithmetic as codecs._idct_int; |terms| < 2^31 for 8-bit pictures). */
static void idct8x8(const int16_t *in, uint8_t *out)
{
	int32_t t[64];
	const int32_t *A = df_jpeg_idct_q13;
	for (uint32_t n = 0; n < 8; n++)
		for (uint32_t v = 0; v < 8; v++) {
			int32_t s = 0;
			for (uint32_t u = 0; u < 8; u++)
				s += A[u * 8 + n] * in[u * 8 + v];
			t[n * 8 + v] = (s + 1024) >> 11;
		}
	for (uint32_t n = 0; n < 8; n++)
		for (uint32_t m = 0; m < 8; m++) {
			int32_t s = 0;
			for (uint32_t v = 0; v < 8; v++)
				s += t[n * 8 + v] * A[v * 8 + m];
			out[n * 8 + m] = (uint8_t)df_clip(((s + 16384) >> 15) + 128, 0, 255);
		}
}

void df_jpeg_idct(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *in = pt_df_fifo_find("jpeg", "coef"), *out = pt_df_fifo_find("jpeg", "pix");
	df_codec_bind("jpeg", "idct", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_write(out, 1);
		if (ok) {
			const struct jpg_coef *c = pt_df_fifo_claim_token(in, 0);
			struct jpg_pix *p = pt_df_fifo_claim_space(out, 0);
			p->mcu = c->mcu, p->pass = c->pass;
			for (uint32_t k = 0; k < 3; k++)
				idct8x8(c->c[k], p->p[k]);
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
		}
		df_codec_fired(g, a, "idct", ok, (uintptr_t)arg & 1u);
	}
}

void df_jpeg_cc(void *arg)
{
	uint32_t g, a, want_mcu = 0, want_pass = 0;
	struct pt_df_fifo *in = pt_df_fifo_find("jpeg", "pix");
	const uint8_t *s = df_jpeg_stream;
	uint32_t mcus = (le16(s + 6) / 8) * (le16(s + 4) / 8);
	df_codec_bind("jpeg", "cc", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1);
		if (ok) {
			const struct jpg_pix *p = pt_df_fifo_claim_token(in, 0);
			uint8_t rgb[64 * 3];
			if (p->mcu != want_mcu || p->pass != want_pass)
				pt_printf("df: error: jpeg got mcu %u.%u, want %u.%u\n", p->pass, p->mcu,
					  want_pass, want_mcu);
			for (uint32_t i = 0; i < 64; i++) {
				int32_t y = p->p[0][i], cb = p->p[1][i] - 128, cr = p->p[2][i] - 128;
				rgb[3 * i] = (uint8_t)df_clip(y + ((91881 * cr + 32768) >> 16), 0, 255);
				rgb[3 * i + 1] = (uint8_t)df_clip(
					y - ((22554 * cb + 46802 * cr + 32768) >> 16), 0, 255);
				rgb[3 * i + 2] = (uint8_t)df_clip(y + ((116130 * cb + 32768) >> 16), 0, 255);
			}
			df_codec_emit("pjpg", p->pass, p->mcu, rgb, sizeof rgb);
			pt_df_fifo_release(in, 1);
			if (++want_mcu == mcus)
				want_mcu = 0, want_pass++;
		}
		df_codec_fired(g, a, "cc", ok, (uintptr_t)arg & 1u);
	}
}
