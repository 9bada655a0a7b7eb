"""S1 vs S3 of the coloring evaluation, small (docs/coloring.md): the same three real-time
tasks (128 KiB random read/write each, apps/coloring/wss_task.c) and the 512 KiB polluter on a
2-hart G-EDF cluster, each array in its own 256 KiB color (S1) or all in one (S3). The cache
model's per-job cycles must show what coloring buys: in S1 a working set stays in its color's
share of the LLC, in S3 the others evict it, so every real-time task's modeled WCET over its
steady-state jobs is measurably larger in S3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from partita.run.run import run_config

HERE = Path(__file__).parent
RT = ("a", "b", "c")
ACCESSES = 8000


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    base = tmp_path_factory.mktemp("coloring")
    out = {}
    for scen in ("s1", "s3"):
        r = run_config(HERE / f"coloring_{scen}.yaml", base / scen, png=False, bounds=False)
        assert r.ok, r.describe()
        assert "FAIL" not in (base / scen / "console.log").read_text()
        out[scen] = json.loads((base / scen / "cache_model.json").read_text())
    return out


def _steady(doc: dict[str, Any], thread: str) -> list[dict[str, Any]]:
    """Jobs 2 .. last completed: after the first job's allocation, before the partial one."""
    jobs = doc["threads"][thread]["jobs"][1:-1]
    assert len(jobs) >= 5, (thread, len(jobs))
    return jobs


def test_s3_wcet_larger(model: dict[str, dict[str, Any]]) -> None:
    for name in RT:
        w1 = max(j["modeled_cycles"] for j in _steady(model["s1"], name))
        w3 = max(j["modeled_cycles"] for j in _steady(model["s3"], name))
        # S3: the 128 KiB arrays and the polluter share 256 KiB of LLC: most accesses that
        # miss the L1 now go to memory (200 cycles) instead of the LLC (30)
        assert w3 > 1.5 * w1, (name, w1, w3)


def test_s1_isolates(model: dict[str, dict[str, Any]]) -> None:
    for name in RT:
        for job in _steady(model["s1"], name):
            # the array fits its own color: only the kernel's and the code's lines miss
            assert job["llc_misses"] < 0.02 * ACCESSES, (name, job)
        for job in _steady(model["s3"], name):
            assert job["llc_misses"] > 0.15 * ACCESSES, (name, job)
    # the instructions do not depend on the colors: the difference is all stalls
    for name in RT:
        i1 = [j["instructions"] for j in _steady(model["s1"], name)]
        i3 = [j["instructions"] for j in _steady(model["s3"], name)]
        assert abs(sum(i1) / len(i1) / (sum(i3) / len(i3)) - 1) < 0.01
