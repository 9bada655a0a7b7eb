"""`gedf-vs-pedf`: acceptance ratio of the G-EDF tests and P-EDF heuristics vs utilization.

Task sets: n = 3m implicit-deadline tasks, utilizations by RandFixedSum (u_i in (0, 1],
Emberson et al. 2010), periods log-uniform in [10, 1000] ms (1 us granularity). Points:
normalised utilization U/m = 0.025 .. 1.0 in steps of 0.025, for m = 2, 4, 8. Tests: GFB,
BAK, BCL, iterative BCL, Bertogna-Cirinei RTA; P-EDF with first/next/best/worst-fit
decreasing (exact U <= 1 admission per core).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from partita.analysis import gedf, generators, partition
from partita.experiments.runner import Chunk, accumulate, chunk_rng, chunks, run_chunks, write_csv

MS = (2, 4, 8)
STEPS = np.round(np.arange(1, 41) * 0.025, 3)
METHODS = ["GFB", "BAK", "BCL", "BCL-iter", "RTA", "P-EDF FFD", "P-EDF NFD", "P-EDF BFD",
           "P-EDF WFD"]
CHUNK = 250


def _points() -> list[tuple[int, float]]:
    return [(m, float(u)) for m in MS for u in STEPS]


def _chunk(seed: int, w: Chunk) -> tuple[int, list[int], int]:
    p, c, k = w
    m, un = _points()[p]
    g = chunk_rng(seed, p, c)
    C, T, D = generators.implicit_batch(k, 3 * m, un * m, g)
    acc = [gedf.gfb(C, T, D, m), gedf.bak(C, T, D, m), gedf.bcl(C, T, D, m),
           gedf.bcl_iterative(C, T, D, m), gedf.rta(C, T, D, m)]
    for h in partition.HEURISTICS:
        acc.append(partition.partition_batch(C, T, m, h, "edf")[1])
    return p, [int(a.sum()) for a in acc], k


def run(out: Path, seed: int, sets: int, jobs: int, quiet: bool = False,
        executor: str | None = None) -> Path:
    work = chunks(len(_points()), sets, CHUNK)
    res = run_chunks(functools.partial(_chunk, seed), work, jobs, "gedf-vs-pedf", quiet,
                     executor)
    pts = _points()
    tot, cnt = accumulate(res, len(pts), len(METHODS))
    csv = write_csv(out / "results.csv", ["m", "u_norm"], pts, METHODS, tot, cnt)
    _plot(out / "acceptance.png", pts, tot / cnt[:, None], seed, sets)
    return csv


def _plot(path: Path, pts: list[tuple[int, float]], ratio: np.ndarray, seed: int,
          sets: int) -> None:
    # the object-oriented API: no pyplot state, no process-wide backend switch
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 3.6))
    axes = fig.subplots(1, len(MS), sharey=True)
    for ax, m in zip(axes, MS, strict=True):
        idx = [i for i, (mm, _) in enumerate(pts) if mm == m]
        x = [pts[i][1] for i in idx]
        for j, meth in enumerate(METHODS):
            ax.plot(x, ratio[idx, j], label=meth, lw=1.3,
                    ls="--" if meth.startswith("P-EDF") else "-")
        ax.set_title(f"m = {m}, n = {3 * m}")
        ax.set_xlabel("U / m")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("acceptance ratio")
    axes[-1].legend(fontsize=7, loc="lower left")
    fig.suptitle(f"G-EDF tests vs P-EDF heuristics ({sets} sets/point, seed {seed})",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
