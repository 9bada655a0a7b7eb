"""The two decoders' input and reference (brief 4, phase 2): a JPEG-like still-image codec and
an H.264-like video codec written for Partita's data-flow applications (apps/dataflow/
df_jpeg.c, df_h264.c), with the encoders that make their input and the reference decoders
(numpy) whose output the guest's must equal bit for bit.

JPEG-like (`PJPG`): 4:4:4 YCbCr, 8x8 blocks, an orthonormal DCT, the JPEG Annex K tables
at quality 75, zig-zag order, DC differences and (run, level) pairs in signed / unsigned
Exp-Golomb codes (ue run 63 ends a block). The decoder's IDCT is integer: the cosine matrix
in Q13, a row pass rounded to Q2, a column pass rounded to integers, so host and guest agree.

H.264-like (`PH64`): luma only, 16x16 macroblocks, an I frame (16x16 DC prediction from the
unfiltered neighbours, as H.264's Intra_16x16 DC) and P frames (one integer motion vector per
macroblock, edge-clamped reference samples), the H.264 4x4 integer transform and its flat
dequantisation at a fixed QP, (run, level) Exp-Golomb residuals, and a deblocking filter on
the macroblock's inner 4x4 edges (the normal filter of H.264, bS < 4, fixed alpha / beta /
tc). Each macroblock's residual is preceded by its length in bits, so the parser can hand it
to the entropy decoder and go on (as H.264's data partitioning separates headers from
residuals).

`python -m partita.subsys.dataflow.codecs` writes apps/dataflow/df_codec_data.c (the two
streams and the IDCT matrix as C arrays); tests/python/dataflow/test_codecs.py checks the
committed file is what this module generates.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[4]
DATA_C = ROOT / "apps" / "dataflow" / "df_codec_data.c"

# --- bits ---------------------------------------------------------------------------------


class BitWriter:
    def __init__(self) -> None:
        self.bits: list[int] = []

    def u(self, v: int, n: int) -> None:
        self.bits += [(v >> (n - 1 - i)) & 1 for i in range(n)]

    def ue(self, v: int) -> None:
        assert v >= 0
        m = (v + 1).bit_length() - 1
        self.u(0, m)
        self.u(v + 1, m + 1)

    def se(self, v: int) -> None:
        self.ue(2 * v - 1 if v > 0 else -2 * v)

    def data(self) -> bytes:
        b = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, b[i:i + 8])), 2) for i in range(0, len(b), 8))


class BitReader:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def u(self, n: int) -> int:
        v = 0
        for _ in range(n):
            v = v << 1 | (self.data[self.pos >> 3] >> (7 - (self.pos & 7))) & 1
            self.pos += 1
        return v

    def ue(self, limit: int = 31) -> int:
        m = 0
        while self.u(1) == 0:
            m += 1
            if m > limit:
                raise ValueError(f"bad Exp-Golomb code at bit {self.pos}")
        return (1 << m) - 1 + self.u(m)

    def se(self) -> int:
        k = self.ue()
        return (k + 1) // 2 if k & 1 else -(k // 2)


# --- JPEG-like -------------------------------------------------------------------------------

ZIGZAG8 = sorted(range(64), key=lambda i: (i // 8 + i % 8,
                                           (i // 8) if (i // 8 + i % 8) % 2 else (i % 8)))
LUMA_Q = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40,
          57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35,
          55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112,
          100, 103, 99]
CHROMA_Q = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99,
            99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99] + [99] * 32
QUALITY = 75
JPEG_W = JPEG_H = 32
JPEG_EOB = 63


def _qtable(t: list[int]) -> np.ndarray:
    s = 200 - 2 * QUALITY
    return np.clip((np.array(t) * s + 50) // 100, 1, 255).astype(np.int64)


def _dct_matrix() -> np.ndarray:
    a = np.zeros((8, 8))
    for u in range(8):
        for n in range(8):
            a[u, n] = (math.sqrt(0.5) if u == 0 else 1.0) / 2 * math.cos((2 * n + 1) * u *
                                                                         math.pi / 16)
    return a


IDCT_Q13 = np.round(_dct_matrix() * 8192).astype(np.int64)


def jpeg_image() -> np.ndarray:
    """The 32x32 RGB test picture: gradients, a disc, stripes and a little noise."""
    y, x = np.mgrid[0:JPEG_H, 0:JPEG_W]
    rng = np.random.default_rng(17)
    r = 40 + 6 * x + rng.integers(0, 12, x.shape)
    g = 30 + 5 * y + 40 * ((x // 4) % 2)
    b = 200 - 3 * x - 2 * y
    disc = (x - 20) ** 2 + (y - 12) ** 2 < 64
    r = np.where(disc, 250, r)
    g = np.where(disc, 220 - 4 * y, g)
    b = np.where(disc, 20, b)
    return np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)


def jpeg_encode(rgb: np.ndarray) -> bytes:
    h, w, _ = rgb.shape
    f = rgb.astype(np.float64)
    ycc = np.stack([0.299 * f[..., 0] + 0.587 * f[..., 1] + 0.114 * f[..., 2],
                    128 - 0.168736 * f[..., 0] - 0.331264 * f[..., 1] + 0.5 * f[..., 2],
                    128 + 0.5 * f[..., 0] - 0.418688 * f[..., 1] - 0.081312 * f[..., 2]], -1)
    ycc = np.clip(np.round(ycc), 0, 255) - 128
    a = _dct_matrix()
    qs = [_qtable(LUMA_Q), _qtable(CHROMA_Q), _qtable(CHROMA_Q)]
    bw = BitWriter()
    prev = [0, 0, 0]
    for my in range(h // 8):
        for mx in range(w // 8):
            for c in range(3):
                blk = ycc[my * 8:my * 8 + 8, mx * 8:mx * 8 + 8, c]
                coef = (a @ blk @ a.T).reshape(64)
                lv = np.round(coef / qs[c]).astype(np.int64)
                zz = [int(lv[i]) for i in ZIGZAG8]
                bw.se(zz[0] - prev[c])
                prev[c] = zz[0]
                run = 0
                for k in range(1, 64):
                    if zz[k] == 0:
                        run += 1
                        continue
                    bw.ue(run)
                    bw.se(zz[k])
                    run = 0
                bw.ue(JPEG_EOB)
    head = b"PJPG" + w.to_bytes(2, "little") + h.to_bytes(2, "little")
    head += bytes(int(v) for v in qs[0]) + bytes(int(v) for v in qs[1])  # natural order
    return head + bw.data()


def _idct_int(coef: np.ndarray) -> np.ndarray:
    """The guest's integer IDCT (df_jpeg.c): x = A^T X A with A in Q13, two rounded passes."""
    a = IDCT_Q13
    t = (a.T @ coef + 1024) >> 11            # Q2
    x = (t @ a + 16384) >> 15
    return np.clip(x + 128, 0, 255)


def _ycc_to_rgb(y: np.ndarray, cb: np.ndarray, cr: np.ndarray) -> np.ndarray:
    cb, cr = cb - 128, cr - 128
    r = y + ((91881 * cr + 32768) >> 16)
    g = y - ((22554 * cb + 46802 * cr + 32768) >> 16)
    b = y + ((116130 * cb + 32768) >> 16)
    return np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)


def jpeg_decode(data: bytes) -> list[bytes]:
    """The reference: per MCU (raster order), its 8x8 RGB pixels (row-major, R G B) - the
    bytes the guest's colour-conversion task produces."""
    if data[:4] != b"PJPG":
        raise ValueError("not a PJPG stream")
    w, h = int.from_bytes(data[4:6], "little"), int.from_bytes(data[6:8], "little")
    ql = np.frombuffer(data[8:72], np.uint8).astype(np.int64)
    qc = np.frombuffer(data[72:136], np.uint8).astype(np.int64)
    br = BitReader(data, 136 * 8)
    prev = [0, 0, 0]
    out = []
    for _ in range((h // 8) * (w // 8)):
        planes = []
        for c in range(3):
            q = ql if c == 0 else qc
            coef = np.zeros(64, np.int64)
            prev[c] += br.se()
            coef[ZIGZAG8[0]] = prev[c] * q[ZIGZAG8[0]]
            k = 1
            while True:
                run = br.ue()
                if run == JPEG_EOB:
                    break
                k += run
                if k > 63:
                    raise ValueError("run past the block's end")
                coef[ZIGZAG8[k]] = br.se() * q[ZIGZAG8[k]]
                k += 1
            planes.append(_idct_int(coef.reshape(8, 8)))
        out.append(_ycc_to_rgb(*planes).tobytes())
    return out


def jpeg_picture(mcus: list[bytes], w: int = JPEG_W, h: int = JPEG_H) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    for i, m in enumerate(mcus):
        my, mx = divmod(i, w // 8)
        img[my * 8:my * 8 + 8, mx * 8:mx * 8 + 8] = np.frombuffer(m, np.uint8).reshape(8, 8, 3)
    return img


# --- H.264-like ------------------------------------------------------------------------------

H264_W, H264_H, H264_FRAMES, H264_QP = 32, 32, 4, 28
ZIGZAG4 = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]
H264_EOB = 16
ALPHA, BETA, TC = 15, 6, 2
MB_I, MB_P = 0, 1
V = [[10, 16, 13], [11, 18, 14], [13, 20, 16], [14, 23, 18], [16, 25, 20], [18, 29, 23]]
MF = [[13107, 5243, 8066], [11916, 4660, 7490], [10082, 4194, 6554], [9362, 3647, 5825],
      [8192, 3355, 5243], [7282, 2893, 4559]]
CF = np.array([[1, 1, 1, 1], [2, 1, -1, -2], [1, -1, -1, 1], [1, -2, 2, -1]], np.int64)


def _pos_class(i: int, j: int) -> int:
    return 0 if i % 2 == 0 and j % 2 == 0 else 1 if i % 2 == 1 and j % 2 == 1 else 2


def dequant4(lv: np.ndarray, qp: int) -> np.ndarray:
    v = np.array([[V[qp % 6][_pos_class(i, j)] for j in range(4)] for i in range(4)])
    return lv * v << (qp // 6)


def itrans4(d: np.ndarray) -> np.ndarray:
    """H.264 8.5.12.2: rows then columns, (x + 32) >> 6."""
    f = np.zeros((4, 4), np.int64)
    for i in range(4):
        e0, e1 = d[i, 0] + d[i, 2], d[i, 0] - d[i, 2]
        e2, e3 = (d[i, 1] >> 1) - d[i, 3], d[i, 1] + (d[i, 3] >> 1)
        f[i] = [e0 + e3, e1 + e2, e1 - e2, e0 - e3]
    h = np.zeros((4, 4), np.int64)
    for j in range(4):
        g0, g1 = f[0, j] + f[2, j], f[0, j] - f[2, j]
        g2, g3 = (f[1, j] >> 1) - f[3, j], f[1, j] + (f[3, j] >> 1)
        h[:, j] = [g0 + g3, g1 + g2, g1 - g2, g0 - g3]
    return (h + 32) >> 6


def _quant4(x: np.ndarray, qp: int, intra: bool) -> np.ndarray:
    w = CF @ x @ CF.T
    mf = np.array([[MF[qp % 6][_pos_class(i, j)] for j in range(4)] for i in range(4)])
    qbits = 15 + qp // 6
    f = (1 << qbits) // (3 if intra else 6)
    return np.sign(w) * ((np.abs(w) * mf + f) >> qbits)


def deblock_mb(b: np.ndarray) -> np.ndarray:
    """The inner 4x4 edges of one 16x16 macroblock: vertical edges x = 4, 8, 12 then
    horizontal y = 4, 8, 12, each edge on the values the previous left."""
    b = b.astype(np.int64).copy()
    for vertical in (True, False):
        for e in (4, 8, 12):
            for k in range(16):
                if vertical:
                    p1, p0, q0, q1 = b[k, e - 2], b[k, e - 1], b[k, e], b[k, e + 1]
                else:
                    p1, p0, q0, q1 = b[e - 2, k], b[e - 1, k], b[e, k], b[e + 1, k]
                if abs(p0 - q0) < ALPHA and abs(p1 - p0) < BETA and abs(q1 - q0) < BETA:
                    d = min(TC, max(-TC, (((q0 - p0) << 2) + (p1 - q1) + 4) >> 3))
                    np0, nq0 = min(255, max(0, p0 + d)), min(255, max(0, q0 - d))
                    if vertical:
                        b[k, e - 1], b[k, e] = np0, nq0
                    else:
                        b[e - 1, k], b[e, k] = np0, nq0
    return b


@dataclass
class H264State:
    """The decoder's state: the current frame before deblocking (intra prediction reads it)
    and the previous frame after (inter prediction reads it)."""
    w: int
    h: int
    cur: np.ndarray = field(init=False)
    ref: np.ndarray = field(init=False)
    out: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.cur = np.zeros((self.h, self.w), np.int64)
        self.ref = np.zeros((self.h, self.w), np.int64)
        self.out = np.zeros((self.h, self.w), np.int64)

    def predict(self, mb: int, typ: int, mvx: int, mvy: int) -> np.ndarray:
        my, mx = divmod(mb, self.w // 16)
        y0, x0 = my * 16, mx * 16
        if typ == MB_I:
            top = self.cur[y0 - 1, x0:x0 + 16].sum() if my else None
            left = self.cur[y0:y0 + 16, x0 - 1].sum() if mx else None
            if top is not None and left is not None:
                dc = (top + left + 16) >> 5
            elif top is not None or left is not None:
                dc = ((top if top is not None else left) + 8) >> 4
            else:
                dc = 128
            return np.full((16, 16), dc, np.int64)
        ys = np.clip(np.arange(y0, y0 + 16) + mvy, 0, self.h - 1)
        xs = np.clip(np.arange(x0, x0 + 16) + mvx, 0, self.w - 1)
        return self.ref[np.ix_(ys, xs)]

    def reconstruct(self, mb: int, typ: int, mvx: int, mvy: int, lv: np.ndarray,
                    qp: int) -> np.ndarray:
        """lv: 16 blocks of 4x4 levels (raster order of blocks). Returns the deblocked MB."""
        pred = self.predict(mb, typ, mvx, mvy)
        res = np.zeros((16, 16), np.int64)
        for bi in range(16):
            by, bx = divmod(bi, 4)
            res[by * 4:by * 4 + 4, bx * 4:bx * 4 + 4] = itrans4(dequant4(lv[bi], qp))
        rec = np.clip(pred + res, 0, 255)
        my, mx = divmod(mb, self.w // 16)
        self.cur[my * 16:my * 16 + 16, mx * 16:mx * 16 + 16] = rec
        dbk = deblock_mb(rec)
        self.out[my * 16:my * 16 + 16, mx * 16:mx * 16 + 16] = dbk
        return dbk

    def end_frame(self) -> None:
        self.ref = self.out.copy()


def h264_frames() -> np.ndarray:
    """The source sequence: a textured background panning one pixel a frame and a bright
    square moving (+2, +1) a frame."""
    n, h, w = H264_FRAMES, H264_H, H264_W
    rng = np.random.default_rng(23)
    big = np.zeros((h + 16, w + 16))
    yy, xx = np.mgrid[0:h + 16, 0:w + 16]
    big = 60 + 3 * xx + 2 * yy + 25 * np.sin(xx / 3.0) * np.cos(yy / 4.0)
    big += rng.normal(0, 3, big.shape)
    out = np.zeros((n, h, w))
    for f in range(n):
        out[f] = big[f:f + h, f:f + w]
        sy, sx = 6 + f, 4 + 2 * f
        out[f, sy:sy + 8, sx:sx + 8] = 230
    return np.clip(np.round(out), 0, 255).astype(np.int64)


def _residual_bits(lv: list[np.ndarray]) -> BitWriter:
    bw = BitWriter()
    for blk in lv:
        flat = blk.reshape(16)
        run = 0
        for k in range(16):
            v = int(flat[ZIGZAG4[k]])
            if v == 0:
                run += 1
                continue
            bw.ue(run)
            bw.se(v)
            run = 0
        bw.ue(H264_EOB)
    return bw


def h264_encode(frames: np.ndarray, qp: int = H264_QP) -> bytes:
    n, h, w = frames.shape
    st = H264State(w, h)
    bw = BitWriter()
    for f in range(n):
        intra = f == 0
        bw.ue(MB_I if intra else MB_P)
        for mb in range((h // 16) * (w // 16)):
            my, mx = divmod(mb, w // 16)
            src = frames[f, my * 16:my * 16 + 16, mx * 16:mx * 16 + 16]
            mvx = mvy = 0
            if not intra:
                best = None
                for dy in range(-4, 5):
                    for dx in range(-4, 5):
                        sad = int(np.abs(src - st.predict(mb, MB_P, dx, dy)).sum())
                        if best is None or sad < best[0]:
                            best = (sad, dx, dy)
                assert best is not None
                _, mvx, mvy = best
                bw.se(mvx)
                bw.se(mvy)
            pred = st.predict(mb, MB_I if intra else MB_P, mvx, mvy)
            lv = []
            for bi in range(16):
                by, bx = divmod(bi, 4)
                lv.append(_quant4(src[by * 4:by * 4 + 4, bx * 4:bx * 4 + 4] -
                                  pred[by * 4:by * 4 + 4, bx * 4:bx * 4 + 4], qp, intra))
            res = _residual_bits(lv)
            bw.ue(len(res.bits))
            bw.bits += res.bits
            st.reconstruct(mb, MB_I if intra else MB_P, mvx, mvy, np.array(lv), qp)
        st.end_frame()
    head = b"PH64" + w.to_bytes(2, "little") + h.to_bytes(2, "little") + bytes([n, qp])
    return head + bw.data()


def h264_decode(data: bytes) -> list[bytes]:
    """The reference: per macroblock of every frame (decoding order), its 16x16 deblocked
    samples - what the guest's output task receives."""
    if data[:4] != b"PH64":
        raise ValueError("not a PH64 stream")
    w, h = int.from_bytes(data[4:6], "little"), int.from_bytes(data[6:8], "little")
    n, qp = data[8], data[9]
    st = H264State(w, h)
    br = BitReader(data, 10 * 8)
    out = []
    for _ in range(n):
        typ = br.ue()
        for mb in range((h // 16) * (w // 16)):
            mvx = mvy = 0
            if typ == MB_P:
                mvx, mvy = br.se(), br.se()
            nbits = br.ue()
            end = br.pos + nbits
            lv = np.zeros((16, 4, 4), np.int64)
            for bi in range(16):
                flat = np.zeros(16, np.int64)
                k = 0
                while True:
                    run = br.ue()
                    if run == H264_EOB:
                        break
                    k += run
                    if k > 15:
                        raise ValueError("run past the block's end")
                    flat[ZIGZAG4[k]] = br.se()
                    k += 1
                lv[bi] = flat.reshape(4, 4)
            if br.pos != end:
                raise ValueError(f"macroblock {mb}: residual length {nbits} is wrong")
            out.append(st.reconstruct(mb, typ, mvx, mvy, lv, qp).astype(np.uint8).tobytes())
        st.end_frame()
    return out


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return 99.0 if mse == 0 else 10 * math.log10(255 ** 2 / mse)


# --- C data ----------------------------------------------------------------------------------


def _c_bytes(name: str, data: bytes) -> str:
    rows = [", ".join(f"0x{b:02x}" for b in data[i:i + 16]) for i in range(0, len(data), 16)]
    body = ",\n\t".join(rows)
    return (f"const uint8_t {name}[{len(data)}] __attribute__((aligned(8))) = {{\n\t{body}\n}};\n"
            f"const uint32_t {name}_len = {len(data)};\n")


def c_source() -> str:
    jp, hv = jpeg_encode(jpeg_image()), h264_encode(h264_frames())
    idct = ", ".join(str(int(v)) for v in IDCT_Q13.reshape(64))
    return ("/* Generated by `python -m partita.subsys.dataflow.codecs` (tools/partita/subsys/"
            "dataflow/codecs.py):\n * the decoders' input streams and the IDCT matrix. "
            "Do not edit. */\n#include <stdint.h>\n\n"
            f"const int32_t df_jpeg_idct_q13[64] = {{ {idct} }};\n"
            f"const uint8_t df_jpeg_zigzag[64] = {{ {', '.join(map(str, ZIGZAG8))} }};\n"
            f"const uint8_t df_h264_zigzag[16] = {{ {', '.join(map(str, ZIGZAG4))} }};\n\n"
            + _c_bytes("df_jpeg_stream", jp) + "\n" + _c_bytes("df_h264_stream", hv))


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DATA_C
    out.write_text(c_source())
    jp, hv = jpeg_encode(jpeg_image()), h264_encode(h264_frames())
    img = jpeg_picture(jpeg_decode(jp))
    print(f"wrote {out}: PJPG {len(jp)} bytes (PSNR {psnr(img, jpeg_image()):.1f} dB), "
          f"PH64 {len(hv)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
