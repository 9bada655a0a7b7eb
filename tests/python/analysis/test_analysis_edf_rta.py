"""Spuri's EDF response-time analysis (edf.rta), the per-policy analysis of system
configurations, and the kernel-overhead charge that `partita analyze` adds to them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from partita.analysis import cli, edf, overheads, sim
from partita.analysis.cli import analyze_file
from partita.model import Task

ROOT = Path(__file__).resolve().parents[3]
SYS = ROOT / "tests" / "system" / "bounds"  # the bounds subject's configurations


def _tasks(C, T, D) -> list[Task]:
    return [Task(name=f"t{i}", wcet_ns=int(c), period_ns=int(t), deadline_ns=int(d))
            for i, (c, t, d) in enumerate(zip(C, T, D, strict=True))]


def test_edf_rta_golden() -> None:
    # A (C 2, T 5, D 4), B (C 4, T 10, D 10): B runs 2-5, A's second job (deadline 9)
    # preempts it 5-7, B completes at 8.
    assert edf.rta(_tasks([2, 4], [5, 10], [4, 10])) == [2, 8]
    # U > 1: no finite busy period, no bound
    assert edf.rta(_tasks([3, 3], [5, 5], [5, 5])) == [None, None]


def test_edf_rta_agrees_with_qpa_and_bounds_simulation() -> None:
    r = np.random.default_rng(5)
    attained = 0
    for _ in range(400):
        n = int(r.integers(2, 5))
        T = r.choice([4, 5, 6, 8, 10, 12, 15, 20], size=n) * 10
        C = np.maximum(1, (T * r.uniform(0.05, 0.45, n)).astype(np.int64))
        D = np.array([int(r.integers(c, t + 1)) for c, t in zip(C, T, strict=True)])
        tasks = _tasks(C, T, D)
        R = edf.rta(tasks)
        ok = all(x is not None and x <= d for x, d in zip(R, D, strict=True))
        assert ok == edf.qpa(tasks), (C, T, D, R)       # exact: same verdict as QPA
        if R[0] is None:
            continue
        H = math.lcm(*T.tolist())
        for trial in range(3):
            offs = [0] * n if trial == 0 else [int(r.integers(0, t)) for t in T]
            s = sim.simulate_uni(C.tolist(), D.tolist(),
                                 sim.periodic_releases(T.tolist(), 2 * H + max(offs), offs),
                                 "edf")
            for i in range(n):
                assert s.max_response[i] <= R[i], (C, T, D, offs, i)
                attained += s.max_response[i] == R[i]
    assert attained > 100  # the bound is reached, not just safe


def test_config_policies_get_their_analysis() -> None:
    expect = {"bounds_fp": "fp-rta", "bounds_pedf": "edf-rta", "bounds_gedf": "gedf-best"}
    for name, test in expect.items():
        doc = analyze_file(SYS / f"{name}.yaml", auto_overheads=False)
        assert doc["overheads"]["source"] is None
        for t in doc["tasks"].values():
            assert t["test"] == test and t["schedulable"] and t["bound_ns"] <= t["deadline_ns"]
    pedf = analyze_file(SYS / "bounds_pedf.yaml", auto_overheads=False)["tasks"]
    assert {t["cpu"] for t in pedf.values()} == {0, 1}
    # --test edf-qpa on the P-EDF instances: the deadline as bound
    qpa = analyze_file(SYS / "bounds_pedf.yaml", "edf-qpa", auto_overheads=False)["tasks"]
    assert all(t["bound_ns"] == t["deadline_ns"] for t in qpa.values())
    assert all(qpa[n]["bound_ns"] >= pedf[n]["bound_ns"] for n in qpa)


def test_overheads_charged_by_default_when_measured(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    kj = tmp_path / "kernel.json"
    kj.write_text(json.dumps({"cycles_per_sec": 1_000_000_000, "results": [
        {"op": "context_switch", "variant": "kernel", "cycles": 640},
        {"op": "release", "variant": "kernel", "cycles": 1502}]}))
    monkeypatch.setattr(cli, "default_kernel_json", lambda: kj)
    cfg = SYS / "bounds_fp.yaml"
    plain = analyze_file(cfg, auto_overheads=False)
    auto = analyze_file(cfg)
    per_job = overheads.per_job_ns(overheads.load_costs_ns(kj))
    assert per_job == 1502 + 2 * 640
    assert auto["overheads"] == {"source": str(kj), "per_job_ns": per_job, "harts": 2,
                                 "charged_ns": 2 * per_job}
    for n, t in auto["tasks"].items():
        assert t["wcet_ns"] == plain["tasks"][n]["wcet_ns"] + 2 * per_job
        assert t["bound_ns"] > plain["tasks"][n]["bound_ns"]
    # a task-set file is not inflated unless asked
    ts = tmp_path / "ts.yaml"
    ts.write_text("tasks:\n  - {name: a, wcet_ms: 1, period_ms: 5}\n")
    assert analyze_file(ts)["tasks"]["a"]["bound_ns"] == 1_000_000
    assert analyze_file(ts, overheads_json=kj)["tasks"]["a"]["bound_ns"] == 1_000_000 + per_job
    # a missing overheads file is an error, never a silent change of the bounds
    monkeypatch.setattr(cli, "default_kernel_json", lambda: tmp_path / "none.json")
    with pytest.raises(cli.AnalysisInputError, match="none.json does not exist"):
        analyze_file(cfg)
    assert analyze_file(cfg, auto_overheads=False)["overheads"]["source"] is None


def test_overheads_source_is_explicit(tmp_path: Path) -> None:
    """The default is the committed file (a benchmark run does not change analyses); a
    configuration may name its own with `overheads:` (issue 11, item 12)."""
    root = Path(cli.__file__).resolve().parents[3]
    assert cli.default_kernel_json() == root / "configs" / "overheads" / "kernel.json"
    cfg = SYS / "bounds_fp.yaml"
    assert analyze_file(cfg)["overheads"]["source"] == str(cli.default_kernel_json())
    kj = tmp_path / "mine.json"
    kj.write_text(json.dumps({"cycles_per_sec": 1_000_000_000, "results": [
        {"op": "context_switch", "variant": "kernel", "cycles": 1},
        {"op": "release", "variant": "kernel", "cycles": 1}]}))
    own = tmp_path / "own.yaml"
    own.write_text(cfg.read_text() + "overheads: mine.json\n")
    doc = analyze_file(own)
    assert doc["overheads"]["source"] == str(kj) and doc["overheads"]["per_job_ns"] == 3
