"""`partita run CFG.yaml [--out DIR]`: build, boot under QEMU with icount, collect the trace,
write trace.bin / trace.json / gantt.png and print the report. The same steps as a Python API
(`run_config`) for the system tests.

Exit status (a CI gate, `gate()`): 0 when the guest powered off cleanly and no job missed its
deadline, was aborted at its budget or exceeded its analysis bound; 1 otherwise (each reason on
stderr, one line each); 2 for a bad configuration. `--allow-misses` accepts deadline misses and
budget aborts for configurations meant to miss; a kernel panic, a guest killed by the host
timeout and a job above its analysis bound always fail. The analysis (bounds.json) runs in
this process before the build: when it fails (an input it cannot analyse), the run stops with
exit status 2 and the analysis's reason, instead of booting with no bounds to check."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from partita.config import ConfigError, load_resolved
from partita.run.build import (
    ROOT,
    Build,
    BuildError,
    add_app_dir_argument,
    build,
    locked,
    report_errors,
)
from partita.run.qemu import (
    QEMU,
    BootResult,
    DeviceQemuError,
    TraceDrainer,
    boot,
    device_qemu,
    gdb_args,
    gdb_command,
    read_trace_area,
)
from partita.trace.format import Area, TraceFormatError
from partita.trace.stats import TaskStats
from partita.trace.timeline import Timeline

if TYPE_CHECKING:
    from partita.subsys.uk.launch import UkOptions, UkProcess


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


def gate(r: RunResult, *, allow_misses: bool = False) -> list[str]:
    """Why the run should fail a CI gate, one line each (empty: it passes)."""
    why: list[str] = []
    name = r.build.system.name
    panic = next((ln.strip() for ln in r.boot.console.splitlines() if "PANIC" in ln), None)
    if r.boot.timed_out:
        run_for = r.build.system.run_for_ns
        likely = ("the configuration has no run_for_ms, so the kernel never powers off: add "
                  "run_for_ms (virtual time) to it" if run_for == 0 else
                  f"run_for_ms is {run_for / 1e6:g} ms of virtual time; if that is meant, raise "
                  "--timeout, else the guest hung (see console.log)")
        why.append(f"{name}: QEMU was killed by the host timeout after {r.boot.wall_s:.1f} s "
                   f"of wall-clock time; likely cause: {likely}")
    elif panic is not None:
        why.append(f"{name}: kernel panic: {panic}")
    elif r.boot.returncode != 0:
        why.append(f"{name}: QEMU exited with code {r.boot.returncode}")
    if r.error:
        why.append(f"{name}: {r.error}")
    if r.timeline is None:
        return why
    if not allow_misses:
        missed = {n: s.misses for n, s in r.stats.items() if s.misses}
        if missed:
            why.append(f"{sum(missed.values())} deadline miss(es): " + ", ".join(
                f"{n} {k}" for n, k in sorted(missed.items()))
                + " (use --allow-misses for a configuration meant to miss)")
        cut = {n: s.budget_stops for n, s in r.stats.items() if s.budget_stops}
        if cut:
            why.append(f"{sum(cut.values())} job(s) aborted at their budget: " + ", ".join(
                f"{n} {k}" for n, k in sorted(cut.items()))
                + " (use --allow-misses for a configuration meant to overrun)")
    from partita.trace.stats import bound_violations

    bounds = {n: s.bound_ns for n, s in r.stats.items() if s.bound_ns is not None}
    above = bound_violations(r.timeline, bounds) if bounds else []
    if above:
        why.append(f"{len(above)} job(s) above their analysis bound, first: {above[0]}")
    return why


def default_timeout(run_for_ns: int) -> float:
    """Wall-clock limit: generous for icount (a few hundred MIPS on one host thread)."""
    return 60.0 + 30.0 * run_for_ns / 1e9


class AnalysisFailed(RuntimeError):
    """`partita analyze` could not analyse the configuration; the message says why."""


def write_bounds(cfg: Path, out: Path, app_dirs: Sequence[str | Path] = ()) -> dict[str, Any]:
    """Analyse `cfg` in this process (the kernel's threads and every subsystem's tasks, as
    `partita analyze` does) and write OUT/bounds.json. Raises AnalysisFailed naming the
    configuration and the reason when the analysis cannot run."""
    from partita.analysis.cli import analyze_file
    from partita.analysis.errors import AnalysisInputError

    try:
        doc = analyze_file(cfg, app_dirs=app_dirs)
    except (AnalysisInputError, ValueError, RuntimeError) as e:
        raise AnalysisFailed(f"{cfg}: analysis failed: {e}") from None
    out.mkdir(parents=True, exist_ok=True)
    (out / "bounds.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def qemu_for(system: Any, quiet: bool = True) -> tuple[str | Path, list[str]]:
    """The QEMU binary a resolved configuration boots on and its -device options: Debian's
    and none, or, when a section declares an emulated device, build/qemu's (built first if
    stale; BuildError if that fails) and the devices (docs/devices.md)."""
    from partita import subsys

    devices = subsys.qemu_devices(system.subsys)
    if not devices:
        return QEMU, []
    try:
        qemu = device_qemu(quiet=quiet)
    except DeviceQemuError as e:
        raise BuildError(str(e)) from None
    return qemu, [a for d in devices for a in ("-device", d)]


def run_config(cfg: str | Path, out: str | Path, *, timeout_s: float | None = None,
               echo: bool = False, png: bool = True, bounds: bool = True,
               gantt_ms: float | None = None, drain: bool = True,
               app_dirs: Sequence[str | Path] = (), gdb_port: int | None = None,
               model: str | None = None, uk: UkOptions | None = None,
               **gantt_opts: object) -> RunResult:
    """Build and boot `cfg`, decode the trace into `out`. Raises ConfigError / BuildError.
    With `drain` (default) the host empties the trace rings while the guest runs.
    `app_dirs`: application directories outside the configuration (--app-dir). `gdb_port`:
    start QEMU halted with its gdb stub on that port, print the gdb-multiarch command, and
    wait without a time limit. `model`: a timing model to load (partita.subsys.model_names(),
    `none` for none even if the configuration has one's section). `uk`: run the user-level
    kernel (uk/) beside QEMU (the configuration needs a `uk:` section; docs/proxy-kernel.md);
    its log is `out/uk.log`."""
    from partita import subsys
    from partita.run.report import collect
    from partita.trace.cli import write_artifacts

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    system = load_resolved(cfg, app_dirs=app_dirs)
    models = [(n, subsys.get_model(n)) for n in subsys.models_for(system.subsys, model)]
    for name in subsys.model_names():  # no stale model output from an earlier run
        for f in subsys.get_model(name).OUTPUTS:
            (out / f).unlink(missing_ok=True)
    if bounds:  # before the boot: a configuration the analysis rejects fails at once
        write_bounds(Path(cfg).resolve(), out.resolve(), app_dirs)
    build_dir = ROOT / "build" / system.name
    with locked(build_dir):
        b = build(cfg, quiet=True, app_dirs=app_dirs)
        shutil.copyfile(b.gen_dir / "pt_config.json", out / "pt_config.json")
        extra: list[str] = []
        if gdb_port is not None:
            extra = gdb_args(gdb_port)
            cmd = " ".join(f"'{a}'" if " " in a else a for a in gdb_command(b.elf, gdb_port))
            print(f"QEMU is halted before the first instruction, waiting for gdb on port "
                  f"{gdb_port} ({system.ncpus} hart(s) = gdb threads 1..{system.ncpus}). "
                  f"In another terminal:\n    {cmd}\nthen e.g. `break pt_panic`, "
                  "`continue`, `info threads`; `kill` or the guest's power-off ends the run.",
                  flush=True)
        for _, m in models:
            extra += m.qemu_args(system, b.elf, b.ram_file, out)
        qemu, devargs = qemu_for(system, quiet=not echo)
        extra += devargs
        try:
            drainer: TraceDrainer | None = TraceDrainer(b.ram_file, b.elf) if drain else None
        except TraceFormatError:
            drainer = None
        ukp = _uk_process(cfg, system, b, out, uk) if uk is not None else None
        polls = [p for p in (drainer.poll if drainer else None,
                             ukp.poll if ukp else None) if p is not None]
        try:
            res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus,
                       icount_shift=system.icount_shift,
                       timeout_s=None if gdb_port is not None
                       else timeout_s or default_timeout(system.run_for_ns),
                       console_file=out / "console.log", echo=echo, extra_args=extra,
                       poll=(lambda: [p() for p in polls]) if polls else None,
                       poll_s=0.005 if ukp else 0.02,
                       on_start=ukp.started if ukp else None, qemu=qemu)
        finally:
            if ukp is not None:
                ukp.stop()
        try:
            area = drainer.area() if drainer else read_trace_area(b.ram_file, b.elf)
        except (TraceFormatError, KeyError, ValueError) as e:
            return RunResult(b, out, res, None, None, {}, error=f"no trace: {e}")
    tl = write_artifacts(area, out, png=png, gantt_ms=gantt_ms,
                         **gantt_opts)  # type: ignore[arg-type]
    from partita.trace import printlog

    printlog.write(area, out / "print.log", tl.names)
    model_error = None
    for name, m in models:
        try:
            m.collect(out, tl.names, res.wall_s)
        except (FileNotFoundError, ValueError, KeyError) as e:
            model_error = f"model {name}: {e}"
    (out / "run.json").write_text(json.dumps({
        "config": str(cfg), "returncode": res.returncode, "timed_out": res.timed_out,
        "wall_s": res.wall_s, "command": res.command}, indent=1))
    stats = collect(tl, out, area=area)
    return RunResult(b, out, res, area, tl, stats, error=model_error,
                     drain_backlog=drainer.max_backlog if drainer else 0)


def _uk_process(cfg: str | Path, system: Any, b: Build, out: Path,
                opts: UkOptions) -> UkProcess:
    from partita.subsys.uk.config import parse
    from partita.subsys.uk.launch import UkProcess, sandbox_dir

    raw = system.subsys.get("uk")
    section, problems = parse(raw) if raw is not None else (None, [])
    if section is None:
        raise ConfigError(f"{cfg}: --uk needs a `uk:` section (it links the proxy kernel's "
                          "side, subsys/uk)" + "".join(f"; {p.message}" for p in problems))
    (out / "uk.log").unlink(missing_ok=True)
    sandbox = opts.sandbox or sandbox_dir(Path(cfg), section.sandbox)
    return UkProcess(b.elf, b.ram_file, sandbox,
                     out / "uk.log", section.uk_poll, opts)


def load_result(cfg: str | Path, out: str | Path) -> RunResult:
    """The RunResult of a finished `run_config(cfg, out)`, read back from `out`."""
    from partita.run.report import collect
    from partita.trace.cli import load_run

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
    from partita.trace.cli import add_gantt_arguments

    add_gantt_arguments(p)
    p.add_argument("--wide", action="store_true",
                   help="report every column (default: a compact table that fits 100 columns)")
    p.add_argument("--gdb", action="store_true",
                   help="start QEMU halted with its gdb stub (no time limit) and print the "
                   "gdb-multiarch command to attach (symbols loaded, one gdb thread per hart)")
    from partita import subsys

    p.add_argument("--model", default=None, choices=[*subsys.model_names(), "none"],
                   help="load a timing model into QEMU: "
                   f"{', '.join(subsys.model_names())} (docs/memory.md, 'Timing model'), or "
                   "none; a configuration with the model's section loads it by default")
    p.add_argument("--gdb-port", type=int, default=1234, help="gdb stub port (default 1234)")
    add_app_dir_argument(p)
    p.add_argument("--uk", action="store_true",
                   help="run the user-level kernel (uk/) beside QEMU, started once QEMU runs "
                   "and stopped at the end (a `uk:` section; docs/proxy-kernel.md)")
    p.add_argument("--uk-delay", type=float, default=0.0, metavar="S",
                   help="with --uk: start the UK S wall-clock seconds after QEMU")
    p.add_argument("--allow-misses", action="store_true",
                   help="exit 0 despite deadline misses and budget aborts (configurations "
                   "meant to miss); panics, host time-outs and bound violations still fail")


def run(args: argparse.Namespace) -> int:
    try:
        return report_errors(lambda: _run(args))
    except AnalysisFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _uk_options(args: argparse.Namespace) -> UkOptions | None:
    if not args.uk:
        return None
    from partita.subsys.uk.launch import UkOptions

    return UkOptions(start_after_s=args.uk_delay)


def _run(args: argparse.Namespace) -> int:
    from partita.run.report import render
    from partita.trace.cli import gantt_options

    try:
        opts = gantt_options(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    r = run_config(args.config, args.out, timeout_s=args.timeout, echo=not args.quiet,
                   png=not args.no_png, app_dirs=args.app_dir,
                   gdb_port=args.gdb_port if args.gdb else None, model=args.model,
                   uk=_uk_options(args), **opts)
    if r.timeline is not None:
        render(r.stats, r.timeline, title=f"Partita {r.build.system.name}", wide=args.wide)
        from partita import subsys

        for sub in subsys.registered():  # each prints its part if the trace has its events
            sub.render_report(r.area, r.out)
        printed = (r.out / "print.log").read_text().splitlines()
        if printed:  # pt_printf lines: the first few here, all of them in print.log
            print(f"pt_printf ({len(printed)} lines, {r.out}/print.log):")
            for ln in printed[:10]:
                print("  " + ln.strip())
        gantt_file = "" if args.no_png else f", {r.out}/gantt.{args.gantt_format}"
        print(f"wrote {r.out}/trace.json{gantt_file}, {r.out}/trace.bin, {r.out}/print.log")
    why = gate(r, allow_misses=args.allow_misses)
    for line in why:
        print(f"error: {line}", file=sys.stderr)
    if not r.ok and args.quiet:  # the console was not echoed: show its tail
        print(r.describe(), file=sys.stderr)
    if r.timeline is not None and r.timeline.lost:
        print(f"warning: {r.timeline.lost} trace records lost; verdicts of the jobs they "
              "covered are uncertain", file=sys.stderr)
    return 1 if why else 0
