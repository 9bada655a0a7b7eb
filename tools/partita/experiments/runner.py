"""Parallel, seeded execution of experiment chunks with a rich progress bar.

Work is cut into chunks (point, chunk index); each chunk's generator is seeded from
SeedSequence([seed, point, chunk]), so results do not depend on --jobs or on scheduling.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
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
