"""`partita run CFG.yaml [--out DIR]`: build, boot under QEMU with icount, collect the trace,
write trace.bin / trace.json / gantt.png and print the report. The same steps as a Python API
(`run_config`) for the system tests."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from partita.build import ROOT, Build, build, locked, report_errors
from partita.config import load_resolved
from partita.qemu import BootResult, TraceDrainer, boot, read_trace_area
from partita.stats import TaskStats
from partita.timeline import Timeline
from partita.tracefmt import Area, TraceFormatError


@dataclass
class RunResult:
    build: Build
    out: Path
    boot: BootResult
    area: Area | None
    timeline: Timeline | None
    stats: dict[str, TaskStats]
    error: str | None = None
    drain_backlog: int = 0  # the fullest a ring was found by the host's drainer (records)

    @property
    def ok(self) -> bool:
        return self.error is None and self.boot.clean

    def describe(self) -> str:
        """One paragraph for test failures: how the boot ended and the console's tail."""
        how = ("timed out" if self.boot.timed_out else f"exit code {self.boot.returncode}")
        tail = "\n".join(self.boot.console.splitlines()[-25:])
        err = f"; {self.error}" if self.error else ""
        return f"QEMU {how} after {self.boot.wall_s:.1f}s{err}\n--- console tail ---\n{tail}"


def default_timeout(run_for_ns: int) -> float:
    """Wall-clock limit: generous for icount (a few hundred MIPS on one host thread)."""
    return 60.0 + 30.0 * run_for_ns / 1e9


def _bounds(cfg: Path, out: Path) -> None:
    """Ask the analysis (if installed) for bounds.json; the report works without it."""
    try:
        import partita.analysis.cli  # noqa: F401
    except ImportError:
        return
    subprocess.run([sys.executable, "-m", "partita.cli", "analyze", str(cfg), "--out",
                    str(out / "bounds.json")], cwd=ROOT, capture_output=True, timeout=120)


def run_config(cfg: str | Path, out: str | Path, *, timeout_s: float | None = None,
               echo: bool = False, png: bool = True, bounds: bool = True,
               gantt_ms: float | None = None, drain: bool = True,
               **gantt_opts: object) -> RunResult:
    """Build and boot `cfg`, decode the trace into `out`. Raises ConfigError / BuildError.
    With `drain` (default) the host empties the trace rings while the guest runs."""
    from partita.report import collect
    from partita.trace import write_artifacts

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    system = load_resolved(cfg)
    build_dir = ROOT / "build" / system.name
    with locked(build_dir):
        b = build(cfg, quiet=True)
        shutil.copyfile(b.gen_dir / "pt_config.json", out / "pt_config.json")
        try:
            drainer: TraceDrainer | None = TraceDrainer(b.ram_file, b.elf) if drain else None
        except TraceFormatError:
            drainer = None
        res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus,
                   icount_shift=system.icount_shift,
                   timeout_s=timeout_s or default_timeout(system.run_for_ns),
                   console_file=out / "console.log", echo=echo,
                   poll=drainer.poll if drainer else None)
        try:
            area = drainer.area() if drainer else read_trace_area(b.ram_file, b.elf)
        except (TraceFormatError, KeyError, ValueError) as e:
            return RunResult(b, out, res, None, None, {}, error=f"no trace: {e}")
    tl = write_artifacts(area, out, png=png, gantt_ms=gantt_ms,
                         **gantt_opts)  # type: ignore[arg-type]
    if bounds:
        _bounds(Path(cfg), out)
        from partita.spm.report import add_bounds  # brief 0: SPM task deadlines and bounds
        add_bounds(Path(cfg), out)
    (out / "run.json").write_text(json.dumps({
        "config": str(cfg), "returncode": res.returncode, "timed_out": res.timed_out,
        "wall_s": res.wall_s, "command": res.command}, indent=1))
    stats = collect(tl, out, area=area)
    return RunResult(b, out, res, area, tl, stats,
                     drain_backlog=drainer.max_backlog if drainer else 0)


def load_result(cfg: str | Path, out: str | Path) -> RunResult:
    """The RunResult of a finished `run_config(cfg, out)`, read back from `out`."""
    from partita.report import collect
    from partita.trace import load_run

    out = Path(out)
    meta = json.loads((out / "run.json").read_text())
    system = load_resolved(cfg)
    res = BootResult(meta["returncode"], meta["timed_out"], (out / "console.log").read_text(),
                     meta["wall_s"], meta["command"])
    area, tl = load_run(out)
    return RunResult(Build(system, ROOT / "build" / system.name), out, res, area, tl,
                     collect(tl, out, area=area))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="system configuration (YAML)")
    p.add_argument("--out", default="out", help="output directory (default out)")
    p.add_argument("--timeout", type=float, default=None, help="wall-clock limit in seconds")
    p.add_argument("--quiet", action="store_true", help="do not echo the guest console")
    from partita.trace import add_gantt_arguments

    add_gantt_arguments(p)
    p.add_argument("--wide", action="store_true",
                   help="report every column (default: a compact table that fits 100 columns)")


def run(args: argparse.Namespace) -> int:
    return report_errors(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    from partita.report import render
    from partita.trace import gantt_options

    try:
        opts = gantt_options(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    r = run_config(args.config, args.out, timeout_s=args.timeout, echo=not args.quiet,
                   png=not args.no_png, **opts)
    if r.timeline is not None:
        render(r.stats, r.timeline, title=f"Partita {r.build.system.name}", wide=args.wide)
        from partita.spm.report import render_extra  # brief 0: TDMA slots, I/O, invariants
        render_extra(r.area, r.out)
        print(f"wrote {r.out}/trace.json"
              + ("" if args.no_png else f", {r.out}/gantt.{args.gantt_format}")
              + f", {r.out}/trace.bin")
    if not r.ok:
        print(f"error: {r.describe() if args.quiet else r.describe().split(chr(10))[0]}",
              file=sys.stderr)
        return 1
    return 0
