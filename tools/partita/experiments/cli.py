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
    "gedf-vs-pedf": ("partita.experiments.gedf_vs_pedf", 1000),
}


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


def run_experiment(name: str, out: Path, seed: int = 1, sets: int | None = None,
                   jobs: int = 1, quiet: bool = True, executor: str | None = None) -> Path:
    modname, default_sets = EXPERIMENTS[name]
    mod = importlib.import_module(modname)
    return mod.run(out / name, seed, sets or default_sets, max(1, jobs), quiet,
                   executor=executor)


def run(args: argparse.Namespace) -> int:
    from partita.experiments.runner import ExecutorError, check_executor

    try:
        check_executor(args.executor)
    except ExecutorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    csv = run_experiment(args.name, args.out, args.seed, args.sets, args.jobs, args.quiet,
                         args.executor)
    print(f"wrote {csv} and the PNG beside it in {time.perf_counter() - t0:.1f} s")
    return 0
