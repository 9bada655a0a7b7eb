"""`partita report OUT_DIR`: per-task jobs, misses, overruns, response times and lateness,
the cpus each task ran on, migrations, and the analysis bound beside the observed maximum."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partita.trace.format import Area
from partita.trace.stats import (
    TaskStats,
    attach_bounds,
    attach_counters,
    attach_tasks,
    bound_violations,
    task_stats,
)
from partita.trace.timeline import Timeline


def collect(tl: Timeline, run_dir: Path | None = None,
            bounds: Path | None = None, area: Area | None = None) -> dict[str, TaskStats]:
    """Statistics of a run with its configuration, the kernel's counters (when the trace
    area has them) and the bounds attached when they exist."""
    stats = task_stats(tl)
    if run_dir is not None and run_dir.is_dir() and (run_dir / "pt_config.json").exists():
        from partita.config.resolve import Resolved

        _with_json(run_dir / "pt_config.json",
                   lambda d: attach_tasks(stats, Resolved.model_validate(d).tasks()))
    if area is not None and area.counters is not None:
        attach_counters(stats, area.counters, area.cycles_per_sec)
    if bounds is None and run_dir is not None and (run_dir / "bounds.json").exists():
        bounds = run_dir / "bounds.json"
    if bounds is not None:
        _with_json(bounds, lambda d: attach_bounds(stats, d))
    return stats


def _with_json(path: Path, use: Callable[[Any], None]) -> None:
    """Read a JSON side file and use it; any problem is one TraceFormatError naming it."""
    from partita.trace.format import TraceFormatError

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


EXIT_CODES = {0: "clean", 1: "kernel panic", 2: "kernel trap (panic)",
              3: "kernel stack overflow (panic)"}

# Columns: (header, width class). The compact set fits 100 columns; --wide shows all.
COMPACT = ["task", "jobs", "done", "miss", "abort", "max R", "bound", "verdict", "max late"]
WIDE = ["task", "jobs", "done", "miss", "ovr", "abort", "C", "max exec", "D", "min R",
        "avg R", "max R", "bound", "verdict", "max late", "rel lat", "cpus", "migr",
        "k.jobs", "k.miss", "k.lost"]
LEFT = {"task", "cpus", "verdict"}


def exit_text(tl: Timeline) -> str:
    """How the guest ended, for the report: never "0" after a panic or a host kill."""
    if tl.exit_code:
        return f"{tl.exit_code} ({EXIT_CODES.get(tl.exit_code, 'kernel error')})"
    if not tl.shutdown_seen:
        return "none (no shutdown record: the guest was stopped from outside, e.g. timed out)"
    return "0"


def _verdict(s: TaskStats) -> str:
    v = s.verdict
    if v == "EXCEEDS" or v == "ABORTED":
        return f"[red]{v}[/]"
    if v.startswith("uncertain"):
        return f"[yellow]{v}[/]"
    return v


def _cells(s: TaskStats, tl: Timeline) -> dict[str, str]:
    late = s.max_lateness_ns
    lat = [j.release_latency_ns for j in tl.jobs.get(s.tid, {}).values()
           if j.release_latency_ns is not None]
    k = s.kernel or {}
    return {
        "task": s.name + (" [red](stopped)[/]" if s.stopped else ""),
        "jobs": str(s.released), "done": str(s.completed),
        "miss": f"[red]{s.misses}[/]" if s.misses else "0",
        "ovr": str(s.overruns),
        "abort": f"[red]{s.budget_stops}[/]" if s.budget_stops else "0",
        "C": _us(s.wcet_ns), "max exec": _exec(s), "D": _us(s.deadline_ns),
        "min R": _us(s.min_response_ns), "avg R": _us(s.avg_response_ns),
        "max R": _us(s.max_response_ns), "bound": _us(s.bound_ns), "verdict": _verdict(s),
        "max late": "-" if late is None else (
            f"[red]{late / 1000:,.1f}[/]" if late > 0 else f"{late / 1000:,.1f}"),
        "rel lat": _us(max(lat)) if lat else "-",
        "cpus": ",".join(map(str, s.cpus)), "migr": str(s.migrations),
        "k.jobs": str(k["released"]) if k else "-", "k.miss": str(k["miss"]) if k else "-",
        "k.lost": str(k["dropped_records"]) if k else "-",
    }


def render(stats: dict[str, TaskStats], tl: Timeline, title: str = "Partita run", *,
           wide: bool = False) -> None:
    """Print the table (compact: fits 100 columns; wide: every column) and the summary."""
    from rich.console import Console
    from rich.table import Table

    with_bounds = any(s.bound_ns is not None for s in stats.values())
    with_kernel = any(s.kernel is not None for s in stats.values())
    cols = WIDE if wide else COMPACT
    cols = [c for c in cols if (with_bounds or c != "bound")
            and (with_kernel or not c.startswith("k."))]
    t = Table(title=f"{title}: {tl.end_ns / 1e6:,.1f} ms virtual on {tl.ncpus} harts "
              "(times in µs)", header_style="bold", pad_edge=False)
    for c in cols:
        t.add_column(c, justify="left" if c in LEFT else "right",
                     no_wrap=c != "verdict", overflow="fold")
    for s in sorted(stats.values(), key=lambda s: s.name):
        cells = _cells(s, tl)
        t.add_row(*[cells[c] for c in cols])
    con = Console()
    if not con.is_terminal:  # files and pipes: 100 columns compact, everything when wide
        con = Console(width=200 if wide else 100)
    con.print(t)
    misses = sum(s.misses for s in stats.values())
    aborts = sum(s.budget_stops for s in stats.values())
    faults = [s for s in stats.values() if s.faults or s.stopped]
    con.print(f"deadline misses: {misses}; budget aborts: {aborts}; trace records lost: "
              f"{tl.lost}; exit code: {exit_text(tl)}")
    uncertain = [s for s in stats.values() if s.uncertain_records]
    if tl.lost or tl.lost_critical or uncertain:
        names = ", ".join(s.name for s in sorted(uncertain, key=lambda s: s.name)) or "none"
        refused = sum((s.kernel or {}).get("dropped_records", 0) for s in stats.values())
        con.print(f"[bold yellow]TRACE INCOMPLETE: {tl.lost} records dropped by full rings, "
                  f"{tl.lost_critical} misses/overruns/stops lost despite the reserve, {refused} "
                  f"refused by the kernel's trace budgets; verdicts uncertain for: {names}[/]")
    if with_bounds:
        bad = bound_violations(tl, {s.name: s.bound_ns for s in stats.values()
                                    if s.bound_ns is not None})
        over = [v for v in bad if not v.aborted]
        jobs = sum(s.released for s in stats.values() if s.bound_ns is not None)
        con.print("jobs above their analysis bound: "
                  + (f"[red]{len(over)}[/] of {jobs}" if over else f"0 of {jobs}")
                  + f"; jobs aborted by budget enforcement: {len(bad) - len(over)}")
        for v in over[:5]:
            con.print(f"[red]  {v}[/]")
    for s in faults:
        addr = "" if s.fault_addr is None else f" at 0x{s.fault_addr:x}"
        what = f"faulted{addr}" if s.faults else "was hit"
        stopped = f", stopped ({s.stop_reason})" if s.stopped else ""
        con.print(f"[red]thread {s.name} {what}{stopped}[/]")


CSV_FIELDS = ["name", "tid", "released", "completed", "misses", "overruns", "budget_stops",
              "wcet_ns", "max_exec_ns", "deadline_ns", "min_response_ns", "avg_response_ns",
              "max_response_ns", "bound_ns", "verdict", "max_lateness_ns", "uncertain_records",
              "migrations", "stopped"]


def as_csv(stats: dict[str, TaskStats]) -> str:
    """One row per task, times in ns (the columns of CSV_FIELDS)."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for s in sorted(stats.values(), key=lambda s: s.name):
        d = s.to_dict()
        w.writerow(["" if d[f] is None else d[f] for f in CSV_FIELDS])
    return buf.getvalue()


def as_json(stats: dict[str, TaskStats], tl: Timeline) -> dict[str, Any]:
    return {"end_ns": tl.end_ns, "ncpus": tl.ncpus, "lost_records": tl.lost,
            "lost_critical_records": tl.lost_critical, "exit_code": tl.exit_code,
            "shutdown_seen": tl.shutdown_seen,
            "tasks": {n: s.to_dict() for n, s in sorted(stats.items())}}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", help="output directory of a run (with trace.bin)")
    p.add_argument("--bounds",
                   help="bounds.json of `partita analyze` (default RUN_DIR/bounds.json)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--wide", action="store_true",
                     help="every column (needs about 190 columns; default: a compact table "
                          "that fits 100)")
    fmt.add_argument("--json", action="store_true",
                     help="machine-readable: every field of every task, times in ns")
    fmt.add_argument("--csv", action="store_true",
                     help="one CSV row per task, times in ns")


def run(args: argparse.Namespace) -> int:
    from partita.trace.cli import load_run
    from partita.trace.format import TraceFormatError

    run_dir = Path(args.run_dir)
    try:
        area, tl = load_run(run_dir)
        stats = collect(tl, run_dir, Path(args.bounds) if args.bounds else None, area)
    except TraceFormatError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"error: {run_dir}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(stats, tl), indent=1))
    elif args.csv:
        sys.stdout.write(as_csv(stats))
    else:
        render(stats, tl, title=f"Partita run {run_dir}", wide=args.wide)
        from partita import subsys

        for sub in subsys.registered():  # each prints its part if the trace has its events
            sub.render_report(area, None)
    return 0
