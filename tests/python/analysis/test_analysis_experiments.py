"""Experiments are reproducible from their seed, independent of the number of jobs."""

from __future__ import annotations

from pathlib import Path

from partita.experiments.cli import run_experiment


def test_spm_experiment_reproducible(tmp_path: Path) -> None:
    a = run_experiment("spm-schedulability", tmp_path / "a", seed=3, sets=3, jobs=1)
    b = run_experiment("spm-schedulability", tmp_path / "b", seed=3, sets=3, jobs=2)
    assert a.read_text() == b.read_text()
    assert (a.parent / "schedulability.png").stat().st_size > 0


def test_gedf_vs_pedf_small_run(tmp_path: Path) -> None:
    csv = run_experiment("gedf-vs-pedf", tmp_path, seed=2, sets=2, jobs=1)
    lines = csv.read_text().splitlines()
    assert lines[0] == "m,u_norm,method,accepted,sets,ratio"
    assert len(lines) == 1 + 3 * 40 * 9
    assert (csv.parent / "acceptance.png").exists()
