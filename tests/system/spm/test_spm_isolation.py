"""Isolation shown (issue 13 part 3): an SPM task's modeled execution cycles (cache model, per
job) are identical whether the other harts idle or hammer memory, while the same kernel run
from main memory is slowed by them (so the neighbours really interfere and the check can
fail). Configurations: partita.experiments.spm_isolation (docs/spm.md "Isolation")."""

from __future__ import annotations

from pathlib import Path

import pytest
from partita.experiments import spm_isolation as si


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, int], list[dict[str, int]]]:
    out = tmp_path_factory.mktemp("spm-isolation")
    return {(mode, c): si.run_one("fir", mode, c, Path(out))
            for mode in ("spm", "main") for c in (0, 3)}


def test_spm_job_cycles_identical_with_hammering_neighbours(runs) -> None:
    alone, loud = runs[("spm", 0)], runs[("spm", 3)]
    n = min(len(alone), len(loud))
    assert n >= 8
    assert [j["modeled_cycles"] for j in alone[:n]] == [j["modeled_cycles"] for j in loud[:n]]
    # nothing outside the partition: no access reaches a cache or the bus
    assert all(j["stall_cycles"] == 0 for j in alone + loud)
    assert all(j["modeled_cycles"] == j["instructions"] for j in alone + loud)


def test_same_kernel_from_main_memory_suffers(runs) -> None:
    alone = si.summarise(runs[("main", 0)])
    loud = si.summarise(runs[("main", 3)])
    assert alone["instructions"] == loud["instructions"]  # the same work
    assert loud["min"] > alone["max"] * 1.1  # every steady job slower by > 10 %
