"""`partita experiment <name> [--seed S] [--sets N] [--jobs J] [--executor E] [--out DIR]`.

The results depend only on the name, the seed and the number of sets: not on --jobs nor on
the executor (partita.experiments.runner)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

EXPERIMENTS = {
    "spm-schedulability": ("partita.experiments.spm_schedulability", 1000),
    "spm-sigma-sweep": ("partita.experiments.spm_sigma_sweep", 200),
    "gedf-vs-pedf": ("partita.experiments.gedf_vs_pedf", 1000),
    # sets per scheduler; each set boots QEMU 12 times (4 working sets x 3 scenarios)
    "coloring": ("partita.experiments.coloring", 10),  # the paper's 10
    # deterministic: one boot per (StS / DyS, scan / bitmap TSM); --sets does not apply
    "dataflow": ("partita.experiments.dataflow", 1),
}
#: --option -> partita.experiments.coloring_sets.Params field (coloring only)
COLORING_OPTIONS = {"cpus": "cpus", "time_div": "time_div", "llc_kib": "llc_bytes",
                    "llc_ways": "llc_ways", "l1_kib": "l1_bytes"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", choices=sorted(EXPERIMENTS))
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    p.add_argument("--sets", type=int, help="task sets per point (default 1000)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="worker processes (default: all cores)")
    p.add_argument("--executor", default="process", metavar="E",
                   help="process (default: a local process pool), local (a Dask LocalCluster "
                   "of --jobs workers) or dask://HOST:PORT (a running Dask scheduler)")
    p.add_argument("--out", type=Path, default=Path("out/experiments"),
                   help="parent directory (default out/experiments)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    g = p.add_argument_group("coloring (docs/coloring.md)")
    g.add_argument("--quick", action="store_true",
                   help="a small size for tests: 1 set per scheduler, 64 and 256 KiB")
    g.add_argument("--cpus", type=int, help="harts (default 4)")
    g.add_argument("--time-div", type=int,
                   help="the paper's periods are divided by this (default 20)")
    g.add_argument("--llc-kib", type=int, help="last-level cache KiB (default 8192)")
    g.add_argument("--llc-ways", type=int, help="last-level cache ways (default 16)")
    g.add_argument("--l1-kib", type=int, help="private L1 KiB, 8-way; 0 = none (default 32)")


def run_experiment(name: str, out: Path, seed: int = 1, sets: int | None = None,
                   jobs: int = 1, quiet: bool = True, executor: str | None = None,
                   **extra: object) -> Path:
    """`extra`: the coloring experiment's options (quick, Params fields)."""
    modname, default_sets = EXPERIMENTS[name]
    mod = importlib.import_module(modname)
    return mod.run(out / name, seed, sets or default_sets, max(1, jobs), quiet,
                   executor=executor, **extra)


def coloring_extra(args: argparse.Namespace) -> dict[str, object]:
    """The coloring options given on the command line, as Params fields (KiB -> bytes)."""
    extra: dict[str, object] = {"quick": True} if args.quick else {}
    for opt, fld in COLORING_OPTIONS.items():
        v = getattr(args, opt, None)
        if v is not None:
            extra[fld] = v * 1024 if opt.endswith("_kib") else v
    return extra


def run(args: argparse.Namespace) -> int:
    from partita.experiments.runner import ExecutorError, check_executor

    try:
        check_executor(args.executor)
    except ExecutorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    extra = coloring_extra(args)
    if extra and args.name != "coloring":
        given = [o for o in ("quick", *COLORING_OPTIONS) if getattr(args, o, None)]
        print(f"error: {', '.join('--' + o.replace('_', '-') for o in given)}: "
              "options of the coloring experiment only", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        csv = run_experiment(args.name, args.out, args.seed, args.sets, args.jobs, args.quiet,
                             args.executor, **extra)
    except ValueError as e:  # a parameter the experiment cannot use, named in the message
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {csv} and the PNG beside it in {time.perf_counter() - t0:.1f} s")
    return 0
