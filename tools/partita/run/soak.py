"""`partita soak CFG [--virtual-s N]`: a long run (default one virtual hour) with the trace
rings drained by the host while it runs, then three checks:

- no loss: every trace record reached the host (no ring dropped any, critical ones included);
- no drift: every periodic task's nominal releases are exactly `period` apart from its first
  one, and it has exactly as many jobs as `run_for` holds (to within the one in flight);
- no leak: no backlog grows: every released job but the last completes, no thread is
  stopped, and the drainer never found a ring more than half full.

Exit code 0 when all hold, 1 otherwise (each failure named), 2 on a bad configuration.
A soak is not part of `make test` (`make soak` runs the demo's virtual hour, about two hours of
wall time); tests/system/trace/test_sys_trace.py runs a short one beyond the rings' capacity.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from partita.config import load_resolved
from partita.run.build import report_errors
from partita.trace.format import RING_RECORDS


@dataclass
class SoakResult:
    virtual_s: float
    records: int
    lost: int
    max_backlog: int
    problems: list[str] = field(default_factory=list)
    tasks: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # jobs, done, expected

    @property
    def ok(self) -> bool:
        return not self.problems


def soak_config(cfg: Path, virtual_s: float, workdir: Path) -> Path:
    """A copy of `cfg` that runs for `virtual_s` seconds (same name: same build directory)."""
    doc = yaml.safe_load(cfg.read_text())
    for unit in ("ns", "us", "ms", "s"):
        doc.pop(f"run_for_{unit}", None)
    doc["run_for_ms"] = round(virtual_s * 1000, 6)
    out = workdir / cfg.name
    out.write_text(yaml.safe_dump(doc, sort_keys=False))
    return out


def soak(cfg: str | Path, virtual_s: float, out: str | Path, *,
         timeout_s: float | None = None) -> SoakResult:
    """Run `cfg` for `virtual_s` virtual seconds with draining; check loss, drift, leaks."""
    from partita.run.run import run_config

    out = Path(out)
    with tempfile.TemporaryDirectory() as tmp:
        long_cfg = soak_config(Path(cfg), virtual_s, Path(tmp))
        system = load_resolved(long_cfg)
        r = run_config(long_cfg, out, png=False, bounds=False, timeout_s=timeout_s)
    res = SoakResult(virtual_s, 0, 0, 0)
    if r.area is None or r.timeline is None:
        res.problems.append(f"no trace: {r.error}")
        return res
    if not r.ok:
        res.problems.append(r.describe().splitlines()[0])
    area, tl = r.area, r.timeline
    res.records = sum(len(x.records) for x in area.rings)
    res.lost = area.lost + area.lost_critical
    drainer_backlog = r.drain_backlog
    res.max_backlog = drainer_backlog
    if res.lost:
        res.problems.append(f"loss: {res.lost} trace records dropped")
    if drainer_backlog > RING_RECORDS // 2:
        res.problems.append(f"leak: a ring held {drainer_backlog} undrained records")
    run_ns = system.run_for_ns
    for t in system.threads:
        if t.kind != "periodic":
            continue
        tid = tl.tid_of(t.name)
        jobs = sorted(tl.jobs.get(tid, {}).values(), key=lambda j: j.number) if tid else []
        expected = max(0, (run_ns - t.offset_ns + t.period_ns - 1) // t.period_ns)
        done = sum(1 for j in jobs if j.complete_ns is not None)
        res.tasks[t.name] = (len(jobs), done, expected)
        if abs(len(jobs) - expected) > 1:
            res.problems.append(f"drift: {t.name} has {len(jobs)} jobs, {expected} expected "
                                f"in {run_ns / 1e9:g} s")
        rel = [j.release_ns for j in jobs if j.release_ns is not None]
        if rel:
            off = [x - rel[0] - i * t.period_ns for i, x in enumerate(rel)]
            worst = max(abs(o) for o in off)
            if worst > 1:  # ns of rounding at most
                res.problems.append(f"drift: {t.name} releases stray {worst} ns from "
                                    f"first + k x {t.period_ns} ns")
        if done < len(jobs) - 1:
            res.problems.append(f"leak: {t.name} left {len(jobs) - done} jobs incomplete")
    stopped = [s.name for s in r.stats.values() if s.stopped]
    if stopped:
        res.problems.append(f"stopped threads: {', '.join(stopped)}")
    return res


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="system configuration (YAML); its run_for is replaced")
    p.add_argument("--virtual-s", type=float, default=3600.0,
                   help="virtual seconds to run (default 3600: one virtual hour)")
    p.add_argument("--out", default="out/soak", help="output directory (default out/soak)")
    p.add_argument("--timeout", type=float, default=None, help="wall-clock limit in seconds")


def run(args: argparse.Namespace) -> int:
    return report_errors(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    if args.virtual_s <= 0:
        print(f"error: --virtual-s {args.virtual_s}: must be positive", file=sys.stderr)
        return 2
    res = soak(args.config, args.virtual_s, args.out, timeout_s=args.timeout)
    print(f"soak {args.config}: {res.virtual_s:g} virtual s, {res.records} trace records "
          f"received, {res.lost} lost, fullest ring {res.max_backlog} of {RING_RECORDS}")
    for name, (jobs, done, expected) in sorted(res.tasks.items()):
        print(f"  {name:16} jobs {jobs:>9}  done {done:>9}  expected {expected:>9}")
    for p in res.problems:
        print(f"FAIL {p}")
    print("soak: ok (no loss, no drift, no leak)" if res.ok else
          f"soak: {len(res.problems)} problem(s)")
    return 0 if res.ok else 1
