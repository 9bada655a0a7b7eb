"""Parallel, seeded execution of experiment chunks with a rich progress bar.

Work is cut into chunks (point, chunk index); each chunk's generator is seeded from
SeedSequence([seed, point, chunk]), so results do not depend on --jobs, on the executor or on
scheduling.

Executors (`--executor`):
- `process` (default): a local process pool of `jobs` workers (fork);
- `local`: a Dask LocalCluster of `jobs` single-threaded worker processes on this machine;
- `dask://HOST:PORT` (or `tcp://HOST:PORT`): the workers of a running Dask scheduler
  (`dask scheduler` + `dask worker tcp://HOST:PORT` on each machine, each with this package
  installed; for QEMU campaigns also the repository, QEMU and the cross compiler).
Dask is the optional `cluster` extra (`pip install 'partita[cluster]'`, part of `dev`).
"""

from __future__ import annotations

import csv
import multiprocessing as mp
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

Chunk = tuple[int, int, int]          # (point index, chunk index, sets in chunk)


def chunks(points: int, sets: int, size: int) -> list[Chunk]:
    return [(p, c, min(size, sets - c * size))
            for p in range(points) for c in range((sets + size - 1) // size)]


def chunk_rng(seed: int, p: int, c: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, p, c]))


class ExecutorError(ValueError):
    pass


def check_executor(spec: str | None) -> str:
    """Normalise an --executor value; a clear error for anything else."""
    spec = spec or "process"
    if spec in ("process", "local") or spec.startswith(("dask://", "tcp://")):
        return spec
    raise ExecutorError(f"--executor {spec!r}: use process, local or dask://HOST:PORT")


def _dask_map(fn: Callable[[Any], Any], work: Sequence[Any], jobs: int, spec: str,
              advance: Callable[[], None]) -> list[Any]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        raise ExecutorError(f"--executor {spec}: dask is not installed "
                            "(pip install 'partita[cluster]')") from e
    cluster = None
    if spec == "local":
        cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                               dashboard_address=":0")
        client = Client(cluster)
    else:
        client = Client("tcp://" + spec.split("://", 1)[1])
    try:
        futures = client.map(fn, list(work), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Any] = [None] * len(futures)
        for fut in as_completed(futures):
            out[index[fut.key]] = fut.result()
            advance()
        return out
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def map_work(fn: Callable[[Any], Any], work: Sequence[Any], jobs: int, title: str,
             quiet: bool = False, executor: str | None = None) -> list[Any]:
    """[fn(w) for w in work] on the chosen executor, in the order of `work`, with a progress
    bar. `fn` must be picklable (a module-level function or a functools.partial of one)."""
    from rich.progress import BarColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    spec = check_executor(executor)
    out: list[Any] = []
    with Progress("[bold]{task.description}", BarColumn(), "{task.completed}/{task.total}",
                  TimeElapsedColumn(), TimeRemainingColumn(), disable=quiet) as prog:
        bar = prog.add_task(title, total=len(work))
        if spec != "process":
            return _dask_map(fn, work, jobs, spec, lambda: prog.advance(bar))
        if jobs <= 1:
            for w in work:
                out.append(fn(w))
                prog.advance(bar)
        else:
            ctx = mp.get_context("fork")
            with ctx.Pool(jobs) as pool:
                for r in pool.imap(fn, work, chunksize=1):
                    out.append(r)
                    prog.advance(bar)
    return out


def run_chunks(fn: Callable[[Chunk], Any], work: Sequence[Chunk], jobs: int, title: str,
               quiet: bool = False, executor: str | None = None) -> list[Any]:
    """The seeded chunks of an experiment on the chosen executor (see map_work)."""
    return map_work(fn, work, jobs, title, quiet, executor)


def accumulate(res: Sequence[tuple[int, Sequence[int], int]], points: int, methods: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Sum chunk results (point, accepted per method, sets) into per-point totals."""
    tot = np.zeros((points, methods), dtype=np.int64)
    cnt = np.zeros(points, dtype=np.int64)
    for p, acc, k in res:
        tot[p] += np.asarray(acc, dtype=np.int64)
        cnt[p] += k
    return tot, cnt


def write_csv(path: Path, keys: Sequence[str], points: Sequence[Sequence[object]],
              methods: Sequence[str], tot: np.ndarray, cnt: np.ndarray) -> Path:
    """One row per (point, method): the point's key columns, then accepted, sets and ratio.
    Written by the csv module: a method name with a comma ("SPM (sigma=435us, Table IV)") is
    quoted, so every row has the header's columns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow([*keys, "method", "accepted", "sets", "ratio"])
        for p, key in enumerate(points):
            for j, meth in enumerate(methods):
                w.writerow([*map(str, key), meth, str(tot[p, j]), str(cnt[p]),
                            f"{tot[p, j] / cnt[p]:.4f}"])
    return path
