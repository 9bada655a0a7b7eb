"""The decoders' host side (partita.subsys.dataflow.codecs): the committed C data is what the
generator writes; the reference decoders invert the encoders with a sane quality; Exp-Golomb
codes round-trip; the H.264-like inverse transform matches the spec's matrix form."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from partita.subsys.dataflow import codecs


def test_committed_data_is_generated() -> None:
    assert codecs.DATA_C.read_text() == codecs.c_source(), \
        "run `python -m partita.subsys.dataflow.codecs` and commit apps/dataflow/df_codec_data.c"


def test_jpeg_reference_decodes_the_picture() -> None:
    img = codecs.jpeg_picture(codecs.jpeg_decode(codecs.jpeg_encode(codecs.jpeg_image())))
    assert codecs.psnr(img, codecs.jpeg_image()) > 27


def test_h264_reference_decodes_the_frames() -> None:
    src = codecs.h264_frames()
    mbs = codecs.h264_decode(codecs.h264_encode(src))
    per = (codecs.H264_W // 16) * (codecs.H264_H // 16)
    assert len(mbs) == per * codecs.H264_FRAMES
    for f in range(codecs.H264_FRAMES):
        img = np.zeros((codecs.H264_H, codecs.H264_W), np.uint8)
        for mb in range(per):
            my, mx = divmod(mb, codecs.H264_W // 16)
            img[my * 16:my * 16 + 16, mx * 16:mx * 16 + 16] = \
                np.frombuffer(mbs[f * per + mb], np.uint8).reshape(16, 16)
        assert codecs.psnr(img, src[f]) > 33, f"frame {f}"


def test_p_frames_use_motion() -> None:
    """The moving square gives P frames non-zero motion vectors (inter prediction is used)."""
    data = codecs.h264_encode(codecs.h264_frames())
    br = codecs.BitReader(data, 80)
    mvs = []
    for f in range(codecs.H264_FRAMES):
        typ = br.ue()
        for _ in range(4):
            if typ == codecs.MB_P:
                mvs.append((br.se(), br.se()))
            n = br.ue()  # residual bits, skipped
            br.pos += n
    assert any(mv != (0, 0) for mv in mvs)


@given(st.lists(st.integers(-5000, 5000), min_size=1, max_size=50))
def test_exp_golomb_round_trip(vals: list[int]) -> None:
    bw = codecs.BitWriter()
    for v in vals:
        bw.se(v)
        bw.ue(abs(v))
    br = codecs.BitReader(bw.data())
    for v in vals:
        assert br.se() == v
        assert br.ue() == abs(v)


@given(st.lists(st.integers(-40, 40), min_size=16, max_size=16))
def test_itrans4_matches_the_matrix_form(lv: list[int]) -> None:
    """H.264's butterfly equals M^T D M (M's columns: the inverse basis with its half
    entries) before the rounding shift; the butterfly's >> 1 rounds down, so the inputs are
    multiples of 4 (every half is then exact)."""
    d = np.array(lv, np.int64).reshape(4, 4) * 4
    m = np.array([[1, 1, 1, 1], [1, 0.5, -0.5, -1], [1, -1, -1, 1], [0.5, -1, 1, -0.5]])
    want = np.floor((m.T @ d @ m + 32) / 64).astype(np.int64)
    assert (codecs.itrans4(d) == want).all()
