"""Parallel, seeded execution of experiment chunks with a rich progress bar.

Work is cut into chunks (point, chunk index); each chunk's generator is seeded from
SeedSequence([seed, point, chunk]), so results do not depend on --jobs or on scheduling.
"""

from __future__ import annotations

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


def run_chunks(fn: Callable[[Chunk], Any], work: Sequence[Chunk], jobs: int, title: str,
               quiet: bool = False) -> list[Any]:
    from rich.progress import BarColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    out: list[Any] = []
    with Progress("[bold]{task.description}", BarColumn(), "{task.completed}/{task.total}",
                  TimeElapsedColumn(), TimeRemainingColumn(), disable=quiet) as prog:
        bar = prog.add_task(title, total=len(work))
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
    """One row per (point, method): the point's key columns, then accepted, sets and ratio."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        f.write(",".join([*keys, "method", "accepted", "sets", "ratio"]) + "\n")
        for p, key in enumerate(points):
            for j, meth in enumerate(methods):
                cols = [*map(str, key), meth, str(tot[p, j]), str(cnt[p]),
                        f"{tot[p, j] / cnt[p]:.4f}"]
                f.write(",".join(cols) + "\n")
    return path
