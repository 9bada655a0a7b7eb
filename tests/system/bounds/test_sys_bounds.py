"""Analysis and system agree: boot a task set in QEMU, analyse the same YAML with
`partita.analysis` and check every traced job's response time against its task's bound.

- Fixed configurations (bounds_*.yaml): fixed priority per core
  (fp-rta, with jitter), P-EDF (Spuri's EDF RTA per cpu), G-EDF (Bertogna-Cirinei RTA,
  gedf-best). Their declared WCETs were calibrated by measurement (see each file's header);
  the test also checks that no job executed longer than its declared WCET, so a failure says
  whether the WCET calibration or the scheduling broke.
- Seed-driven random sets on 2 harts (FP per core, P-EDF pinned, G-EDF). They are booted
  with provisional WCETs; the kernel's schedule does not depend on the declared WCET (no
  budget enforcement, cpus pinned, priorities explicit or by deadline), so the analysis is
  then run on the same YAML with each WCET set to 1.25 x max(measured execution, 2 x isolated
  cost) — the calibration rule of the fixed files, applied after the fact.
- Unit checks that the comparison flags a response above a bound, an unfinished job older
  than its bound and a task without a bound (the check can fail).

The kernel overheads of out/bench/kernel.json are included when that file exists (as
`partita analyze` does); without it the bounds use the declared WCETs alone.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from partita.analysis.cli import analyze_file
from partita.run.report import collect
from partita.run.run import RunResult
from partita.trace.stats import bound_violations, job_exec_ns
from partita.trace.timeline import Job, Timeline

CONFIGS = Path(__file__).resolve().parent

# Isolated cost per iteration of the automotive kernels on one hart (icount shift 0), ns,
# measured with one task alone (bounds_*.yaml headers); +800 ns per job.
PER_ITER_NS = {"app_fir": 17_460, "app_iir": 6_810, "app_fft": 88_020, "app_matmul": 38_240,
               "app_table_lookup": 15_360, "app_bitmanip": 11_590}
JOB_NS = 800
MARGIN = 1.25
BUSY_HARTS = 2


def _check(r: RunResult, cfg: Path, expect_test: str | None = None) -> dict[str, Any]:
    """Analyse `cfg`, compare with the run; returns figures for the docs."""
    doc = analyze_file(cfg)
    system = yaml.safe_load(cfg.read_text())
    periodic = [t["name"] for t in system["threads"] if t.get("kind", "periodic") != "aperiodic"]
    tasks = doc["tasks"]
    assert sorted(tasks) == sorted(periodic), "every periodic thread must be analysed"
    if expect_test is not None:
        assert all(expect_test in x["test"] for x in tasks.values()), doc["test"]
    unbounded = [n for n, x in tasks.items() if x["bound_ns"] is None or not x["schedulable"]]
    assert not unbounded, f"analysis gives no bound <= D for {unbounded}: {doc}"
    tl = r.timeline
    assert tl is not None
    figures: dict[str, Any] = {}
    for name, x in tasks.items():
        tid = tl.tid_of(name)
        assert tid is not None, f"{name} never appeared in the trace"
        jobs = [j for j in tl.jobs.get(tid, {}).values() if j.complete_ns is not None]
        assert len(jobs) >= 3, f"{name}: only {len(jobs)} completed jobs"
        execs = job_exec_ns(tl, tid)
        declared = x["wcet_ns"] - doc["overheads"]["charged_ns"]  # as in the YAML
        assert max(execs) <= declared, (
            f"{name}: a job executed {max(execs)} ns > declared WCET {declared} ns "
            "(WCET calibration no longer holds; re-measure, see the YAML header)")
        worst = max(j.response_ns or 0 for j in jobs)
        figures[name] = (worst, x["bound_ns"], len(jobs))
    bad = bound_violations(tl, {n: x["bound_ns"] for n, x in tasks.items()})
    assert not bad, "observed response above the analysis bound:\n" + "\n".join(
        map(str, bad[:20]))
    return figures


def _report(title: str, figures: dict[str, Any]) -> None:
    worst = max(o / b for o, b, _ in figures.values())
    print(f"\n{title}: " + ", ".join(f"{n} {o / 1e3:.0f}/{b / 1e3:.0f} us ({o / b:.2f})"
                                   for n, (o, b, _) in sorted(figures.items()))
          + f"; max observed/bound {worst:.2f}")


# ------------------------------------------------------------------ fixed configurations

FIXED = {"bounds_fp": "fp-rta", "bounds_pedf": "edf-rta", "bounds_gedf": "gedf-best"}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_observed_responses_within_bounds(boot: Callable[..., RunResult], name: str) -> None:
    r = boot(name)
    cfg = CONFIGS / f"{name}.yaml"
    figures = _check(r, cfg, FIXED[name])
    _report(name, figures)
    # the report shows the same bound beside the observed maximum
    doc = analyze_file(cfg)
    bounds = r.out / f"bounds-{name}.json"
    bounds.write_text(json.dumps(doc))
    assert r.timeline is not None
    stats = collect(r.timeline, r.out, bounds)
    for task, x in doc["tasks"].items():
        assert stats[task].bound_ns == x["bound_ns"] and stats[task].verdict == "ok"


# ------------------------------------------------------------------ random task sets

SEEDS = list(range(8))
PERIODS_MS = (20, 25, 30, 40, 50)


def _iso_ns(entry: str, arg: int) -> int:
    return PER_ITER_NS[entry] * arg + JOB_NS


def random_system(seed: int) -> dict[str, Any]:
    """A small task set on 2 harts; policy by seed: fp per core, P-EDF (pinned) or G-EDF."""
    g = random.Random(seed)
    policy = ("fp", "pedf", "gedf")[seed % 3]
    threads = []
    for k in range(g.randint(4, 5)):
        entry = g.choice(sorted(PER_ITER_NS))
        period = g.choice(PERIODS_MS) * 1_000_000
        u = g.uniform(0.03, 0.08)
        arg = max(5, round(u * period / PER_ITER_NS[entry]))
        iso = _iso_ns(entry, arg)
        deadline = period if g.random() < 0.6 else period - g.randrange(0, period // 4, 1000)
        t: dict[str, Any] = {"name": f"r{k}", "entry": entry, "arg": arg,
                             "period_us": period // 1000, "deadline_us": deadline // 1000,
                             "wcet_us": min(deadline, math.ceil(BUSY_HARTS * iso * MARGIN))
                             // 1000}
        if policy != "gedf":
            t["cpu"] = k % 2
        if policy == "fp":
            t["priority"] = 10 + k  # arbitrary (not rate-monotonic) priorities
        threads.append(t)
    scheds = ([{"name": "f0", "policy": "fp", "cpus": [0]},
               {"name": "f1", "policy": "fp", "cpus": [1]}] if policy == "fp" else
              [{"name": "pe", "policy": "edf", "cpus": [0, 1]}] if policy == "pedf" else
              [{"name": "gc", "policy": "gedf", "cpus": [0, 1]}])
    return {"name": "bounds_rand", "ncpus": 2, "run_for_ms": 200, "schedulers": scheds,
            "threads": threads}


def _calibrated(system: dict[str, Any], tl: Timeline) -> dict[str, Any]:
    """The same system with WCET = MARGIN x max(measured execution, BUSY_HARTS x isolated)."""
    out = {**system, "threads": []}
    for t in system["threads"]:
        measured = max(job_exec_ns(tl, tl.tid_of(t["name"]) or -1), default=0)
        c = max(measured, BUSY_HARTS * _iso_ns(t["entry"], t["arg"]))
        out["threads"].append({**t, "wcet_us": math.ceil(MARGIN * c / 10_000) * 10})
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_random_sets_within_bounds(boot: Callable[..., RunResult], tmp_path: Path,
                                   seed: int) -> None:
    system = random_system(seed)
    cfg = tmp_path / f"bounds_rand_{seed}.yaml"
    cfg.write_text(yaml.safe_dump(system, sort_keys=False))
    r = boot(str(cfg))
    assert r.timeline is not None
    cal = _calibrated(system, r.timeline)
    # only the declared WCETs differ between the booted and the analysed YAML
    strip = re.compile(r"wcet_us: \d+")
    cal_cfg = tmp_path / f"bounds_rand_{seed}_cal.yaml"
    cal_cfg.write_text(yaml.safe_dump(cal, sort_keys=False))
    assert strip.sub("", cal_cfg.read_text()) == strip.sub("", cfg.read_text())
    figures = _check(r, cal_cfg)
    _report(f"random seed {seed} ({system['schedulers'][0]['policy']}, "
            f"{len(system['threads'])} tasks)", figures)


# ------------------------------------------------------------------ the check can fail


def _timeline(jobs: list[tuple[int, int | None]], end: int = 100_000) -> Timeline:
    tl = Timeline(1_000_000_000, 1, end, 0, 0, names={5: "a"})
    tl.jobs[5] = {k: Job(5, k, release_ns=rel, complete_ns=done)
                  for k, (rel, done) in enumerate(jobs)}
    return tl


def test_check_flags_a_response_above_its_bound() -> None:
    tl = _timeline([(0, 900), (10_000, 11_001), (20_000, 20_500)])
    assert bound_violations(tl, {"a": 1_001}) == []
    bad = bound_violations(tl, {"a": 1_000})
    assert [(v.job, v.response_ns, v.bound_ns) for v in bad] == [(1, 1_001, 1_000)]
    assert "1001 ns > bound 1000 ns" in str(bad[0])


def test_check_flags_an_unfinished_job_and_a_missing_bound() -> None:
    tl = _timeline([(0, 900), (10_000, None)], end=15_000)
    assert bound_violations(tl, {"a": 5_000}) == []  # still within its bound at the end
    bad = bound_violations(tl, {"a": 4_000})
    assert len(bad) == 1 and not bad[0].finished and bad[0].response_ns == 5_000
    assert len(bound_violations(tl, {"a": None})) == 1
