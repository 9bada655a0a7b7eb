"""`partita report OUT_DIR`: per-task jobs, misses, overruns, response times and lateness,
the cpus each task ran on, migrations, and the analysis bound beside the observed maximum."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partita.stats import TaskStats, attach_bounds, attach_config, bound_violations, task_stats
from partita.timeline import Timeline


def collect(tl: Timeline, run_dir: Path | None = None,
            bounds: Path | None = None) -> dict[str, TaskStats]:
    """Statistics of a run with its configuration and bounds attached when they exist."""
    stats = task_stats(tl)
    if run_dir is not None and run_dir.is_dir() and (run_dir / "pt_config.json").exists():
        _with_json(run_dir / "pt_config.json", lambda d: attach_config(stats, d))
    if bounds is None and run_dir is not None and (run_dir / "bounds.json").exists():
        bounds = run_dir / "bounds.json"
    if bounds is not None:
        _with_json(bounds, lambda d: attach_bounds(stats, d))
    return stats


def _with_json(path: Path, use: Callable[[Any], None]) -> None:
    """Read a JSON side file and use it; any problem is one TraceFormatError naming it."""
    from partita.tracefmt import TraceFormatError

    try:
        use(json.loads(path.read_bytes()))
    except OSError as e:
        raise TraceFormatError(f"{path}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise TraceFormatError(f"{path}: not valid JSON ({e})") from None
    except (KeyError, TypeError, AttributeError, IndexError) as e:
        raise TraceFormatError(f"{path}: unexpected content ({type(e).__name__}: {e})") from None


def _us(ns: float | None) -> str:
    return "-" if ns is None else f"{ns / 1000:,.1f}"


def _exec(s: TaskStats) -> str:
    """Longest observed job execution, red when it exceeds the declared WCET."""
    text = _us(s.max_exec_ns)
    if s.max_exec_ns is not None and s.wcet_ns is not None and s.max_exec_ns > s.wcet_ns:
        return f"[red]{text}[/]"
    return text


def render(stats: dict[str, TaskStats], tl: Timeline, title: str = "Partita run") -> None:
    """Print the rich table."""
    from rich.console import Console
    from rich.table import Table

    with_bounds = any(s.bound_ns is not None for s in stats.values())
    t = Table(title=f"{title}: {tl.end_ns / 1e6:,.1f} ms virtual on {tl.ncpus} harts "
              "(times in µs)", header_style="bold")
    cols = ["task", "jobs", "done", "miss", "ovr", "C", "max exec", "D", "min R", "avg R",
            "max R"]
    if with_bounds:
        cols += ["bound", "verdict"]
    cols += ["max late", "cpus", "migr"]
    for c in cols:
        t.add_column(c, justify="left" if c in ("task", "cpus", "verdict") else "right")
    for s in sorted(stats.values(), key=lambda s: s.name):
        name = s.name + (" [red](stopped)[/]" if s.stopped else "")
        miss = f"[red]{s.misses}[/]" if s.misses else "0"
        row = [name, str(s.released), str(s.completed), miss, str(s.overruns),
               _us(s.wcet_ns), _exec(s), _us(s.deadline_ns), _us(s.min_response_ns),
               _us(s.avg_response_ns),
               _us(s.max_response_ns)]
        if with_bounds:
            v = s.verdict
            row += [_us(s.bound_ns), f"[red]{v}[/]" if v == "EXCEEDS" else v]
        late = s.max_lateness_ns
        row += ["-" if late is None else
                (f"[red]{late / 1000:,.1f}[/]" if late > 0 else f"{late / 1000:,.1f}"),
                ",".join(map(str, s.cpus)), str(s.migrations)]
        t.add_row(*row)
    con = Console()
    if not con.is_terminal:  # files and pipes: wide enough for every column
        con = Console(width=170)
    con.print(t)
    misses = sum(s.misses for s in stats.values())
    faults = [s for s in stats.values() if s.faults or s.stopped]
    con.print(f"deadline misses: {misses}; trace records lost: {tl.lost}; "
              f"exit code: {tl.exit_code}")
    if with_bounds:
        bad = bound_violations(tl, {s.name: s.bound_ns for s in stats.values()
                                    if s.bound_ns is not None})
        jobs = sum(s.released for s in stats.values() if s.bound_ns is not None)
        con.print("jobs above their analysis bound: "
                  + (f"[red]{len(bad)}[/] of {jobs}" if bad else f"0 of {jobs}"))
        for v in bad[:5]:
            con.print(f"[red]  {v}[/]")
    for s in faults:
        addr = "" if s.fault_addr is None else f" at 0x{s.fault_addr:x}"
        what = f"faulted{addr}" if s.faults else "was hit"
        stopped = f", stopped ({s.stop_reason})" if s.stopped else ""
        con.print(f"[red]thread {s.name} {what}{stopped}[/]")


def as_json(stats: dict[str, TaskStats], tl: Timeline) -> dict[str, Any]:
    return {"end_ns": tl.end_ns, "ncpus": tl.ncpus, "lost_records": tl.lost,
            "exit_code": tl.exit_code,
            "tasks": {n: s.to_dict() for n, s in sorted(stats.items())}}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", help="output directory of a run (with trace.bin)")
    p.add_argument("--bounds",
                   help="bounds.json of `partita analyze` (default RUN_DIR/bounds.json)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from partita.trace import load_run
    from partita.tracefmt import TraceFormatError

    run_dir = Path(args.run_dir)
    try:
        area, tl = load_run(run_dir)
        stats = collect(tl, run_dir, Path(args.bounds) if args.bounds else None)
    except TraceFormatError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"error: {run_dir}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(stats, tl), indent=1))
    else:
        render(stats, tl, title=f"Partita run {run_dir}")
        from partita.spm.report import render_extra  # brief 0: TDMA slots, I/O, invariants
        render_extra(area)
    return 0
