"""Bad inputs give clear errors naming the task and field; the CLI and overheads work."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from partita.analysis import edf, fp, gedf, generators, overheads, partition, spm
from partita.analysis.cli import analyze_file
from partita.analysis.errors import AnalysisInputError, as_arrays
from partita.model import Platform, ThreePhaseTask


def test_negative_period_names_task() -> None:
    with pytest.raises(AnalysisInputError, match="task b: period_ns"):
        as_arrays(C=[1, 1], T=[10, -5], names=["a", "b"])


def test_empty_set() -> None:
    with pytest.raises(AnalysisInputError, match="empty"):
        as_arrays(C=[], T=[])


def test_d_greater_than_t_rejected_where_unsupported() -> None:
    with pytest.raises(AnalysisInputError, match="task x: deadline_ns 20 > period_ns 10"):
        as_arrays(C=[1], T=[10], D=[20], names=["x"], constrained=True)
    for test in (gedf.bak, gedf.bcl, gedf.bcl_iterative, gedf.rta):
        with pytest.raises(AnalysisInputError, match=r"set 0, task 0: deadline 20 > period 10"
                                                     r".* \(D <= T\) only; gfb accepts"):
            test(np.array([1]), np.array([10]), np.array([20]), 2)
    # GFB's density form holds for arbitrary deadlines (lambda = C / min(D, T))
    assert gedf.gfb(np.array([1]), np.array([10]), np.array([20]), 2)[0]
    # the scalar FP RTA supports D > T through the busy period
    assert fp.rta_one([5, 6], [10, 15], [10, 30], 1) == 16  # q = 0: 16, q = 1: 27 - 15


def test_utilization_over_m(tmp_path: Path) -> None:
    f = tmp_path / "ts.yaml"
    f.write_text("platform: {cores: 2}\ntest: gfb\ntasks:\n"
                 + "".join(f"  - {{name: t{i}, wcet_ms: 9, period_ms: 10}}\n" for i in range(3)))
    with pytest.raises(AnalysisInputError, match="exceeds m = 2"):
        analyze_file(f)


def test_bad_task_field_in_yaml(tmp_path: Path) -> None:
    f = tmp_path / "ts.yaml"
    f.write_text("tasks:\n  - {name: good, wcet_ms: 1, period_ms: 10}\n"
                 "  - {name: bad, wcet_ms: 1, period_ms: -10}\n")
    with pytest.raises(AnalysisInputError, match="task bad: period_ns"):
        analyze_file(f)


def test_generators_reject_bad_parameters() -> None:
    g = generators.rng(0)
    with pytest.raises(AnalysisInputError):
        generators.randfixedsum(3, 3.5, g)
    with pytest.raises(AnalysisInputError):
        generators.uunifast(0, 1.0, g)


def test_generators_reproducible_and_correct() -> None:
    a = generators.randfixedsum(6, 2.0, generators.rng(7), sets=500)
    b = generators.randfixedsum(6, 2.0, generators.rng(7), sets=500)
    assert np.array_equal(a, b)
    assert np.allclose(a.sum(axis=1), 2.0) and a.min() >= 0 and a.max() <= 1
    u = generators.uunifast_discard(4, 1.5, generators.rng(1), sets=100)
    assert np.allclose(u.sum(axis=1), 1.5) and u.max() <= 1


def test_cli_writes_bounds_json(tmp_path: Path) -> None:
    f = tmp_path / "ts.yaml"
    f.write_text("tasks:\n  - {name: a, wcet_ms: 3, period_ms: 7}\n"
                 "  - {name: b, wcet_ms: 3, period_ms: 12}\n"
                 "  - {name: c, wcet_ms: 5, period_ms: 20}\n")
    from partita.cli import main
    out = tmp_path / "bounds.json"
    assert main(["analyze", str(f), "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc == {"test": "fp-rta", "tasks": {
        "a": {"bound_ns": 3_000_000, "deadline_ns": 7_000_000, "schedulable": True},
        "b": {"bound_ns": 6_000_000, "deadline_ns": 12_000_000, "schedulable": True},
        "c": {"bound_ns": 20_000_000, "deadline_ns": 20_000_000, "schedulable": True}}}
    for t in ("edf-qpa", "np-fp-rta", "hyperbolic"):
        assert analyze_file(f, t)["test"] == t
    assert analyze_file(f, "pedf-best-fit", cores=2)["tasks"]["a"]["schedulable"]


def test_cli_analyzes_system_config() -> None:
    cfg = Path(__file__).resolve().parents[3] / "configs" / "demo.yaml"
    if not cfg.exists():
        pytest.skip("no demo configuration")
    doc = analyze_file(cfg)
    assert doc["tasks"] and all("deadline_ns" in v for v in doc["tasks"].values())


def test_overheads_from_kernel_json(tmp_path: Path) -> None:
    p = tmp_path / "kernel.json"
    p.write_text(json.dumps({"cycles_per_sec": 250_000_000, "results": [
        {"op": "context_switch", "threads": 1, "variant": "kernel", "cycles": 100},
        {"op": "context_switch", "threads": 64, "variant": "kernel", "cycles": 125},
        {"op": "release", "threads": 1, "variant": "kernel", "cycles": 250}]}))
    costs = overheads.load_costs_ns(p)
    assert costs == {"context_switch": 500, "release": 1000}
    assert overheads.per_job_ns(costs) == 2000
    t = generators.to_tasks([1000], [10_000])
    assert overheads.inflate(t, costs)[0].wcet_ns == 3000
    with pytest.raises(AnalysisInputError, match="lack op"):
        overheads.per_job_ns({"release": 1})
    with pytest.raises(AnalysisInputError, match="make bench"):
        overheads.load_costs_ns(tmp_path / "missing.json")


def test_spm_rejects_copy_longer_than_slot() -> None:
    t = ThreePhaseTask(name="big", wcet_ns=1000, period_ns=10**6, load_bytes=10_000,
                       unload_bytes=0)
    with pytest.raises(AnalysisInputError, match="task big"):
        spm.analyze([t], Platform(cores=2, tdma_slot_ns=1000, dma_ns_per_byte=1.0))
    r = spm.analyze([t], Platform(cores=2, dma_ns_per_byte=1.0))
    assert r.schedulable and r.bounds_ns[0] is not None


def test_partition_reports_first_task_that_does_not_fit() -> None:
    t = generators.to_tasks([6, 6, 6], [10, 10, 10])
    res = partition.partition(t, 2, "first-fit", "edf")
    assert not res.ok and res.failed == "t2"


def test_qpa_rejects_jitter() -> None:
    from partita.model import Task
    with pytest.raises(AnalysisInputError, match="jitter"):
        edf.qpa([Task(name="j", wcet_ns=1, period_ns=10, jitter_ns=2)])


def test_paper_recipes() -> None:
    g = generators.rng(5)
    bi, T, _ = generators.spm_fig7(0.6, g)
    spm_c = np.array([r[1] for r in generators.TABLE_V]) * 1000
    assert abs((spm_c[bi] / T).sum() - 0.6) < 1e-6
    assert (np.diff(T) >= 0).all() and T[:-1].min() >= 10_000_000
    C, T2 = generators.coloring_sec4(
        4, g, lambda c, t: bool(gedf.gfb(c, t, None, 4)[0]))
    assert len(C) >= 1 and gedf.gfb(C, T2, None, 4)[0]
    assert set(T2.tolist()) <= {25_000_000, 50_000_000, 100_000_000, 200_000_000}
    u = C / T2
    assert (u >= 0.1 - 1e-6).all() and (u <= 0.7 + 1e-6).all()
    tasks = generators.spm_fig7_tasks(0.3, g, dma_ns_per_byte=13.18)
    assert spm.analyze(tasks, Platform(cores=2, dma_ns_per_byte=13.18)).bounds_ns


def test_taskset_errors_name_file_line_and_field(tmp_path: Path) -> None:
    """Task-set files report like configurations (issue 11, item 6)."""
    f = tmp_path / "ts.yaml"
    f.write_text("tasks:\n  - {name: a, wcet_ms: 1, period_ms: 10}\n"
                 "  - {name: b, wcet_ms: 1, period_ms: 0.0000001}\n")
    with pytest.raises(AnalysisInputError) as ei:
        analyze_file(f)
    assert str(ei.value) == (f"{f}:3: tasks[1].period: task b: 1e-07 ms is not a whole "
                             "number of nanoseconds")
    f.write_text("tasks:\n  - {name: a, wcet_ms: 1, periodms: 10}\n")
    with pytest.raises(AnalysisInputError) as ei:
        analyze_file(f)
    assert str(ei.value).startswith(f"{f}:2: tasks[0].periodms: task a: periodms: unknown "
                                    "field (did you mean 'period_ms'?)")
    f.write_text("tasks:\n  - {name: a, wcet_ms: 1, period_ms: 10, period_us: 5}\n")
    with pytest.raises(AnalysisInputError, match="give only one of period_us, period_ms"):
        analyze_file(f)


def test_taskset_accepts_the_units_of_configurations(tmp_path: Path) -> None:
    f = tmp_path / "ts.yaml"
    f.write_text("tasks:\n  - {name: a, wcet_us: 1500, period_s: 0.01, deadline_ns: 8000000}\n")
    b = analyze_file(f)["tasks"]["a"]
    assert (b["bound_ns"], b["deadline_ns"]) == (1_500_000, 8_000_000)
