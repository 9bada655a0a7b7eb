"""The two decoders (apps/dataflow/df_jpeg.c, df_h264.c) as data-flow applications on two
cpus under the tdm policy: every byte the guest decodes equals the host's reference decoder
(partita.subsys.dataflow.codecs, numpy), on StS and DyS, with the scan and the bitmap
task-status managers and the bitmap TSM on a coprocessor hart (`tsm: coproc`, service
dftsm); no task fires while its TSM says it may not; the streams repeat and
every later pass decodes to the same bytes (FNV-1a sums)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from partita.experiments.dataflow_speedup import decoder_config
from partita.run.run import RunResult
from partita.subsys.dataflow import codecs

HEX = re.compile(r"\b(pjpg|ph64) 0 (\d+) (\d+) ([0-9a-f]+)$")
SUM = re.compile(r"\b(pjpg|ph64) sum (\d+) (\d+) ([0-9a-f]{8})$")
VARIANTS = [(m, t) for m in ("sts", "dys") for t in ("scan", "bitmap", "coproc")]


def variant(base: str, mode: str, tsm: str, where: Path) -> Path:
    """apps/dataflow/configs/<base>.yaml with every application's mode and the TSM set (as
    `partita experiment dataflow` boots it; tsm coproc: on one more hart)."""
    doc = decoder_config({"df_jpeg": "jpeg", "df_h264": "h264"}[base], mode, tsm)
    out = where / f"{doc['name']}.yaml"
    out.write_text(yaml.safe_dump(doc, sort_keys=False, width=200))
    return out


def decoded(r: RunResult, tag: str) -> tuple[dict[int, bytes], dict[tuple[int, int], int]]:
    """The guest's output: pass 0's bytes per unit (MCU / macroblock), later passes' sums."""
    units: dict[int, dict[int, bytes]] = {}
    sums: dict[tuple[int, int], int] = {}
    for ln in (r.out / "print.log").read_text().splitlines():
        if (m := HEX.search(ln)) and m[1] == tag:
            units.setdefault(int(m[2]), {})[int(m[3])] = bytes.fromhex(m[4])
        elif (m := SUM.search(ln)) and m[1] == tag:
            sums[(int(m[2]), int(m[3]))] = int(m[4], 16)
    return {u: b"".join(p[k] for k in sorted(p)) for u, p in units.items()}, sums


def fnv1a(b: bytes) -> int:
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xffffffff
    return h


REFS = {"pjpg": codecs.jpeg_decode(codecs.jpeg_encode(codecs.jpeg_image())),
        "ph64": codecs.h264_decode(codecs.h264_encode(codecs.h264_frames()))}


@pytest.fixture(scope="module")
def cfg_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("decoders")


@pytest.mark.parametrize(("base", "tag"), [("df_jpeg", "pjpg"), ("df_h264", "ph64")])
@pytest.mark.parametrize(("mode", "tsm"), VARIANTS)
def test_decoder_output_bit_exact(boot: Callable[..., RunResult], cfg_dir: Path, base: str,
                                  tag: str, mode: str, tsm: str) -> None:
    r = boot(str(variant(base, mode, tsm, cfg_dir)))
    log = (r.out / "print.log").read_text()
    assert "df: error" not in log, [ln for ln in log.splitlines() if "df: error" in ln][:5]
    ref = REFS[tag]
    units, sums = decoded(r, tag)
    assert sorted(units) == list(range(len(ref))), f"units decoded: {sorted(units)}"
    for u, want in enumerate(ref):
        assert units[u] == want, f"{base} {mode}/{tsm}: unit {u} differs"
    # the stream repeats: every unit of the second pass decodes to the same bytes
    second = {u: s for (p, u), s in sums.items() if p == 1}
    assert sorted(second) == list(range(len(ref))), f"second pass: {sorted(second)}"
    assert all(s == fnv1a(ref[u]) for (_, u), s in sums.items())


def test_the_check_can_fail(cfg_dir: Path) -> None:
    """The comparison sees a changed byte: the reference of a corrupted stream differs."""
    jp = bytearray(codecs.jpeg_encode(codecs.jpeg_image()))
    jp[200] ^= 0x10
    try:
        bad = codecs.jpeg_decode(bytes(jp))
    except ValueError:
        return
    assert bad != REFS["pjpg"]
