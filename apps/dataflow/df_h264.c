/*
 * The H.264-like decoder (brief 4, the paper's Fig. 20 shape: 6 tasks, 3 per core) as a
 * data-flow graph `h264`. Core 0: parse (frame and macroblock headers; hands each residual's
 * bit range on) -> hdr -> entropy (run / level Exp-Golomb of 16 4x4 blocks) -> coef ->
 * itrans (H.264 flat dequantisation and 4x4 inverse integer transform). Core 1: -> res ->
 * pred (16x16 DC intra or motion-compensated inter prediction, + residual) -> rec -> deblock
 * (H.264's normal filter on the macroblock's inner 4x4 edges) -> pix -> output; deblock ->
 * ref -> pred (one initial token) keeps prediction one macroblock behind deblocking, so a P
 * frame reads a finished reference. The stream (PH64, tools/partita/subsys/dataflow/
 * codecs.py) repeats; the host checks every byte (tests/system/dataflow/test_sys_decoders.py).
 */
#include <stdint.h>
#include <partita/dataflow.h>
#include <partita/printf.h>
#include "df_codec.h"

#define PH64_HEADER_BYTES 10u
#define PH64_EOB 16u
#define MB_I 0u
#define MB_P 1u
#define MAX_W 64u
#define MAX_H 64u
#define ALPHA 15
#define BETA 6
#define TC 2

struct mbhdr { uint32_t g, mb, type; int32_t mvx, mvy; uint32_t bitpos; };
struct h_coef { struct mbhdr h; int16_t c[16][16]; }; /* levels: [block][raster 4x4]; or the
							 residual: [row][column] */
struct h_pix { struct mbhdr h; uint8_t p[16][16]; };
struct h_ref { uint32_t g, mb; };
_Static_assert(sizeof(struct mbhdr) == 24, "token_bytes of fifo hdr in the YAML");
_Static_assert(sizeof(struct h_coef) == 536, "token_bytes of fifos coef, res in the YAML");
_Static_assert(sizeof(struct h_pix) == 280, "token_bytes of fifos rec, pix in the YAML");
_Static_assert(sizeof(struct h_ref) == 8, "token_bytes of fifo ref in the YAML");

static uint32_t width(void) { return (uint32_t)df_h264_stream[4] | (uint32_t)df_h264_stream[5] << 8; }
static uint32_t height(void) { return (uint32_t)df_h264_stream[6] | (uint32_t)df_h264_stream[7] << 8; }
static uint32_t mbs_per_frame(void) { return (width() / 16) * (height() / 16); }

static struct pt_df_fifo *fifo(const char *name) { return pt_df_fifo_find("h264", name); }

void df_h264_parse(void *arg)
{
	uint32_t g, a, gframe = 0, mb = 0, typ = MB_I, frame = 0;
	struct pt_df_fifo *out = fifo("hdr");
	uint32_t nframes = df_h264_stream[8];
	struct df_bits b = { df_h264_stream, df_h264_stream_len * 8, PH64_HEADER_BYTES * 8, false };
	df_codec_bind("h264", "parse", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_write(out, 1);
		if (ok) {
			struct mbhdr *h = pt_df_fifo_claim_space(out, 0);
			if (mb == 0)
				typ = df_bits_ue(&b);
			h->g = gframe, h->mb = mb, h->type = typ, h->mvx = h->mvy = 0;
			if (typ == MB_P) {
				h->mvx = df_bits_se(&b);
				h->mvy = df_bits_se(&b);
			}
			uint32_t nbits = df_bits_ue(&b);
			h->bitpos = b.pos;
			b.pos += nbits;
			if (b.overrun || b.pos > b.len_bits || typ > MB_P)
				pt_printf("df: error: h264 frame %u mb %u: broken stream\n", gframe, mb);
			pt_df_fifo_commit(out, 1);
			if (++mb == mbs_per_frame()) {
				mb = 0, gframe++;
				if (++frame == nframes) /* the next pass: the stream again */
					frame = 0, b.pos = PH64_HEADER_BYTES * 8;
			}
		}
		df_codec_fired(g, a, "parse", ok, (uintptr_t)arg & 1u);
	}
}

void df_h264_entropy(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *in = fifo("hdr"), *out = fifo("coef");
	df_codec_bind("h264", "entropy", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_write(out, 1);
		if (ok) {
			const struct mbhdr *h = pt_df_fifo_claim_token(in, 0);
			struct h_coef *t = pt_df_fifo_claim_space(out, 0);
			struct df_bits b = { df_h264_stream, df_h264_stream_len * 8, h->bitpos, false };
			t->h = *h;
			for (uint32_t bi = 0; bi < 16; bi++) {
				for (uint32_t i = 0; i < 16; i++)
					t->c[bi][i] = 0;
				for (uint32_t k = 0;; k++) {
					uint32_t run = df_bits_ue(&b);
					if (run == PH64_EOB || b.overrun)
						break;
					k += run;
					if (k > 15) {
						pt_printf("df: error: h264 mb %u: run past the block\n", h->mb);
						break;
					}
					t->c[bi][df_h264_zigzag[k]] = (int16_t)df_bits_se(&b);
				}
			}
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
		}
		df_codec_fired(g, a, "entropy", ok, (uintptr_t)arg & 1u);
	}
}

/* H.264 8.5.12: flat scaling (LevelScale4x4 = 16 v, so d = c v << qp/6), then the 4x4
 * inverse transform, rows then columns, (x + 32) >> 6. */
static const uint8_t level_v[6][3] = { { 10, 16, 13 }, { 11, 18, 14 }, { 13, 20, 16 },
				       { 14, 23, 18 }, { 16, 25, 20 }, { 18, 29, 23 } };

static void itrans4(const int16_t *lv, uint32_t qp, int32_t r[4][4])
{
	int32_t d[4][4], f[4][4];
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t j = 0; j < 4; j++) {
			uint32_t cls = (i % 2 == 0 && j % 2 == 0) ? 0 : (i % 2 && j % 2) ? 1 : 2;
			d[i][j] = (int32_t)((uint32_t)(lv[i * 4 + j] * level_v[qp % 6][cls]) << (qp / 6));
		}
	for (uint32_t i = 0; i < 4; i++) {
		int32_t e0 = d[i][0] + d[i][2], e1 = d[i][0] - d[i][2];
		int32_t e2 = (d[i][1] >> 1) - d[i][3], e3 = d[i][1] + (d[i][3] >> 1);
		f[i][0] = e0 + e3, f[i][1] = e1 + e2, f[i][2] = e1 - e2, f[i][3] = e0 - e3;
	}
	for (uint32_t j = 0; j < 4; j++) {
		int32_t g0 = f[0][j] + f[2][j], g1 = f[0][j] - f[2][j];
		int32_t g2 = (f[1][j] >> 1) - f[3][j], g3 = f[1][j] + (f[3][j] >> 1);
		r[0][j] = (g0 + g3 + 32) >> 6, r[1][j] = (g1 + g2 + 32) >> 6;
		r[2][j] = (g1 - g2 + 32) >> 6, r[3][j] = (g0 - g3 + 32) >> 6;
	}
}

void df_h264_itrans(void *arg)
{
	uint32_t g, a, qp = df_h264_stream[9];
	struct pt_df_fifo *in = fifo("coef"), *out = fifo("res");
	df_codec_bind("h264", "itrans", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_write(out, 1);
		if (ok) {
			const struct h_coef *c = pt_df_fifo_claim_token(in, 0);
			struct h_coef *t = pt_df_fifo_claim_space(out, 0);
			t->h = c->h;
			for (uint32_t bi = 0; bi < 16; bi++) {
				int32_t r[4][4];
				itrans4(c->c[bi], qp, r);
				for (uint32_t y = 0; y < 4; y++)
					for (uint32_t x = 0; x < 4; x++)
						t->c[(bi / 4) * 4 + y][(bi % 4) * 4 + x] = (int16_t)r[y][x];
			}
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
		}
		df_codec_fired(g, a, "itrans", ok, (uintptr_t)arg & 1u);
	}
}

/* Core 1's frames: `cur`, the frame being decoded before deblocking (intra prediction reads
 * its neighbours there, as H.264 does); ref[g & 1], frame g after deblocking (frame g + 1
 * predicts from it). pred and deblock both run on core 1, and the ref FIFO orders them. */
static uint8_t cur[MAX_H][MAX_W], ref[2][MAX_H][MAX_W];

void df_h264_pred(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *in = fifo("res"), *rin = fifo("ref"), *out = fifo("rec");
	int32_t w = (int32_t)width(), hgt = (int32_t)height();
	if (width() > MAX_W || height() > MAX_H)
		pt_printf("df: error: h264 %ux%u is larger than %ux%u\n", width(), height(), MAX_W,
			  MAX_H);
	df_codec_bind("h264", "pred", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_read(rin, 1) &&
			  pt_df_fifo_can_write(out, 1);
		if (ok) {
			const struct h_coef *r = pt_df_fifo_claim_token(in, 0);
			struct h_pix *p = pt_df_fifo_claim_space(out, 0);
			const struct mbhdr *h = &r->h;
			int32_t y0 = (int32_t)(h->mb / (width() / 16)) * 16;
			int32_t x0 = (int32_t)(h->mb % (width() / 16)) * 16;
			int32_t dc = 128;
			if (h->type == MB_I) {
				int32_t top = 0, left = 0;
				for (int32_t i = 0; i < 16; i++) {
					top += y0 ? cur[y0 - 1][x0 + i] : 0;
					left += x0 ? cur[y0 + i][x0 - 1] : 0;
				}
				if (y0 && x0)
					dc = (top + left + 16) >> 5;
				else if (y0 || x0)
					dc = (top + left + 8) >> 4;
			}
			const uint8_t (*rf)[MAX_W] = ref[(h->g - 1) & 1];
			for (int32_t y = 0; y < 16; y++)
				for (int32_t x = 0; x < 16; x++) {
					int32_t pr = dc;
					if (h->type == MB_P)
						pr = rf[df_clip(y0 + y + h->mvy, 0, hgt - 1)]
						       [df_clip(x0 + x + h->mvx, 0, w - 1)];
					uint8_t v = (uint8_t)df_clip(pr + r->c[y][x], 0, 255);
					p->p[y][x] = v;
					cur[y0 + y][x0 + x] = v;
				}
			p->h = *h;
			pt_df_fifo_release(rin, 1);
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
		}
		df_codec_fired(g, a, "pred", ok, (uintptr_t)arg & 1u);
	}
}

static int32_t iabs(int32_t v) { return v < 0 ? -v : v; }

/* One edge sample quadruple p1 p0 | q0 q1 (H.264's normal filter, fixed alpha, beta, tc). */
static void filter(uint8_t *p1, uint8_t *p0, uint8_t *q0, uint8_t *q1)
{
	int32_t P1 = *p1, P0 = *p0, Q0 = *q0, Q1 = *q1;
	if (iabs(P0 - Q0) < ALPHA && iabs(P1 - P0) < BETA && iabs(Q1 - Q0) < BETA) {
		int32_t d = df_clip((((Q0 - P0) * 4) + (P1 - Q1) + 4) >> 3, -TC, TC);
		*p0 = (uint8_t)df_clip(P0 + d, 0, 255);
		*q0 = (uint8_t)df_clip(Q0 - d, 0, 255);
	}
}

void df_h264_deblock(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *in = fifo("rec"), *out = fifo("pix"), *rout = fifo("ref");
	df_codec_bind("h264", "deblock", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_write(out, 1) &&
			  pt_df_fifo_can_write(rout, 1);
		if (ok) {
			const struct h_pix *r = pt_df_fifo_claim_token(in, 0);
			struct h_pix *p = pt_df_fifo_claim_space(out, 0);
			struct h_ref *t = pt_df_fifo_claim_space(rout, 0);
			*p = *r;
			for (uint32_t e = 4; e < 16; e += 4)
				for (uint32_t k = 0; k < 16; k++)
					filter(&p->p[k][e - 2], &p->p[k][e - 1], &p->p[k][e], &p->p[k][e + 1]);
			for (uint32_t e = 4; e < 16; e += 4)
				for (uint32_t k = 0; k < 16; k++)
					filter(&p->p[e - 2][k], &p->p[e - 1][k], &p->p[e][k], &p->p[e + 1][k]);
			uint32_t y0 = (p->h.mb / (width() / 16)) * 16, x0 = (p->h.mb % (width() / 16)) * 16;
			for (uint32_t y = 0; y < 16; y++)
				for (uint32_t x = 0; x < 16; x++)
					ref[p->h.g & 1][y0 + y][x0 + x] = p->p[y][x];
			t->g = p->h.g, t->mb = p->h.mb;
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
			pt_df_fifo_commit(rout, 1);
		}
		df_codec_fired(g, a, "deblock", ok, (uintptr_t)arg & 1u);
	}
}

void df_h264_output(void *arg)
{
	uint32_t g, a, want = 0;
	struct pt_df_fifo *in = fifo("pix");
	uint32_t per_pass = mbs_per_frame() * df_h264_stream[8];
	df_codec_bind("h264", "output", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1);
		if (ok) {
			const struct h_pix *p = pt_df_fifo_claim_token(in, 0);
			uint32_t unit = p->h.g * mbs_per_frame() + p->h.mb;
			if (unit != want)
				pt_printf("df: error: h264 got macroblock %u, want %u\n", unit, want);
			want++;
			df_codec_emit("ph64", unit / per_pass, unit % per_pass, &p->p[0][0], 256);
			pt_df_fifo_release(in, 1);
		}
		df_codec_fired(g, a, "output", ok, (uintptr_t)arg & 1u);
	}
}
