"""`partita trace RUN_DIR` or `partita trace RAM_FILE ELF`: decode the trace rings and write
trace.bin (raw rings), trace.json (Perfetto) and gantt.png."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from partita.trace import gantt, perfetto
from partita.trace.format import Area, TraceFormatError, pack, unpack
from partita.trace.timeline import Timeline, build


def write_artifacts(area: Area, out: Path, *, png: bool = True,
                    gantt_ms: float | None = None, gantt_start_ms: float = 0.0,
                    gantt_size: tuple[float, float] = gantt.DEFAULT_SIZE_IN,
                    gantt_format: str = "png") -> Timeline:
    """trace.bin, trace.json and gantt.<format> (unless `png` is False) of one run into
    `out`; returns the timeline."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "trace.bin").write_bytes(pack(area))
    tl = build(area)
    perfetto.write(tl, out / "trace.json")
    if png:
        gantt.write(tl, out / f"gantt.{gantt_format}", max_ms=gantt_ms,
                    start_ms=gantt_start_ms, size_in=gantt_size)
    return tl


def read_bin(path: Path) -> Area:
    """Decode a trace.bin; a missing, unreadable or corrupt file is a TraceFormatError whose
    one-line message names the file and the problem."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise TraceFormatError(f"{path}: is a directory, not a trace.bin") from None
    except OSError as e:
        raise TraceFormatError(f"{path}: cannot read: {e.strerror}") from None
    return unpack(data, what=str(path))


def load_run(run_dir: Path) -> tuple[Area, Timeline]:
    """The area and timeline of a run directory holding trace.bin (or of a trace.bin)."""
    area = read_bin(run_dir if run_dir.is_file() else run_dir / "trace.bin")
    return area, build(area)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", help="run directory (with trace.bin), or the guest RAM file")
    p.add_argument("elf", nargs="?", help="kernel ELF (when SOURCE is a RAM file)")
    p.add_argument("-o", "--out", help="output directory (default: the run directory / out)")
    add_gantt_arguments(p)


def add_gantt_arguments(p: argparse.ArgumentParser) -> None:
    """The Gantt chart's options, shared by `partita trace` and `partita run`."""
    g = p.add_argument_group("Gantt chart")
    g.add_argument("--gantt-ms", type=float, default=None,
                   help="length of the window in ms (0 = to the end of the run; default: "
                        f"{gantt.DEFAULT_WINDOW_MS:g} ms or the whole run if shorter)")
    g.add_argument("--gantt-start-ms", type=float, default=0.0,
                   help="start of the window in ms of virtual time (default 0)")
    g.add_argument("--gantt-size", default="14",
                   help="WIDTHxHEIGHT in inches (default 14 wide, height from the threads)")
    g.add_argument("--gantt-format", choices=gantt.FORMATS, default="png",
                   help="png (default), or svg / pdf (vector, for papers)")
    g.add_argument("--no-png", "--no-gantt", dest="no_png", action="store_true",
                   help="skip the Gantt chart")


def gantt_options(args: argparse.Namespace) -> dict[str, object]:
    """write_artifacts keyword arguments from the parsed Gantt options (ValueError if bad)."""
    return {"gantt_ms": args.gantt_ms, "gantt_start_ms": args.gantt_start_ms,
            "gantt_size": gantt.parse_size(args.gantt_size), "gantt_format": args.gantt_format}


def run(args: argparse.Namespace) -> int:
    src = Path(args.source)
    try:
        if src.is_dir():
            area = read_bin(src / "trace.bin")
            out = Path(args.out) if args.out else src
        elif not args.elf and src.name.endswith(".bin"):
            area = read_bin(src)
            out = Path(args.out) if args.out else src.parent
        elif args.elf:
            from partita.run.qemu import read_trace_area

            area = read_trace_area(src, Path(args.elf))
            out = Path(args.out or "out")
            gen = Path(args.elf).parent / "gen" / "pt_config.json"  # for `partita report`
            if gen.exists():
                out.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(gen, out / "pt_config.json")
        else:
            print(f"error: {src}: give a run directory, a trace.bin, or a RAM file and its ELF",
                  file=sys.stderr)
            return 2
    except TraceFormatError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {src}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        opts = gantt_options(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    tl = write_artifacts(area, out, png=not args.no_png, **opts)  # type: ignore[arg-type]
    n = sum(len(r.records) for r in area.rings)
    print(f"{n} records from {area.ncpus} harts ({area.lost} lost), "
          f"{len(tl.names)} threads, {tl.end_ns / 1e6:.1f} ms -> {out}/trace.json"
          + ("" if args.no_png else f", {out}/gantt.{args.gantt_format}"))
    return 0
