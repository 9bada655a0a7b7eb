"""Sporadic SPM releases: the `sporadic_extra` field, the generated table, and the host
replica of the I/O core's generator (partita.subsys.spm.releases)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import yaml
from partita.subsys.spm.config import parse
from partita.subsys.spm.gen import generate_c
from partita.subsys.spm.releases import release_times

ROOT = Path(__file__).resolve().parents[3]
CFG = ROOT / "tests" / "system" / "spm" / "spm_sporadic.yaml"


def test_sporadic_extra_parsed_and_generated() -> None:
    spm, problems = parse(yaml.safe_load(CFG.read_text())["spm"])
    assert spm is not None, problems
    assert spm.tasks[0].sporadic_extra_ns == 5_000_000        # sporadic_extra_ms: 5
    assert ".sporadic_extra_ns = 5000000ull" in generate_c(spm)


def test_negative_extra_is_rejected() -> None:
    raw = yaml.safe_load(CFG.read_text())["spm"]
    raw["tasks"][0]["sporadic_extra_ns"] = -1
    raw["tasks"][0].pop("sporadic_extra_ms")
    spm, problems = parse(raw)
    assert spm is None and any("sporadic_extra" in str(p) for p in problems)


def test_replica_gaps_lie_in_the_range_and_repeat() -> None:
    for i in range(6):
        r = release_times(i, 1000, 7, 10_000, 5_000, 200)
        assert r[0] == 1007
        gaps = [b - a for a, b in pairwise(r)]
        assert all(10_000 <= g <= 15_000 for g in gaps)
        assert len(set(gaps)) > 150                 # really varies
        assert r == release_times(i, 1000, 7, 10_000, 5_000, 200)
    assert release_times(0, 0, 0, 10, 0, 4) == [0, 10, 20, 30]   # periodic
    assert release_times(0, 0, 0, 10, 5, 50) != release_times(1, 0, 0, 10, 5, 50)
