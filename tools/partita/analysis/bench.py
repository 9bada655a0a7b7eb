"""Analysis speed benchmark: task sets analysed per second per test (n = 20, m = 4, one
core) and the wall time of the full `gedf-vs-pedf` experiment.

`run(out_dir)` writes `out_dir/analysis.json` and returns a Markdown table.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from partita.analysis import edf, fp, gedf, generators, partition, spm

N, M = 20, 4


def _rate(fn: Callable[[], Any], sets: int, min_time: float = 0.5) -> float:
    fn()  # warm-up
    k, t0 = 0, time.perf_counter()
    while True:
        fn()
        k += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return sets * k / dt


def measure(min_time: float = 0.5) -> dict[str, float]:
    g = generators.rng(42)
    S = 2000
    C, T, D = generators.implicit_batch(S, N, 0.6 * M, g)       # multiprocessor sets
    Cu, Tu, Du = generators.implicit_batch(S, N, 0.8, g)        # uniprocessor sets
    Dc = np.maximum(Cu, (Du * 0.8).astype(np.int64))           # constrained variant
    small = 200
    rates: dict[str, float] = {
        "gfb": _rate(lambda: gedf.gfb(C, T, D, M), S, min_time),
        "bak": _rate(lambda: gedf.bak(C, T, D, M), S, min_time),
        "bcl": _rate(lambda: gedf.bcl(C, T, D, M), S, min_time),
        "bcl-iter": _rate(lambda: gedf.bcl_iterative(C, T, D, M), S, min_time),
        "gedf-rta": _rate(lambda: gedf.rta(C[:small], T[:small], D[:small], M), small,
                          min_time),
        "edf-util": _rate(lambda: edf.utilization_test(Cu, Tu), S, min_time),
        "edf-qpa (D<T)": _rate(lambda: edf.qpa_batch(Cu, Tu, Dc), S, min_time),
        "ll": _rate(lambda: fp.liu_layland(Cu, Tu), S, min_time),
        "hyperbolic": _rate(lambda: fp.hyperbolic(Cu, Tu), S, min_time),
        "fp-rta (batch)": _rate(lambda: fp.rta_batch(Cu, Tu, Du), S, min_time),
        "fp-rta (scalar)": _rate(lambda: [fp.rta_one(Cu[0].tolist(), Tu[0].tolist(),
                                                     Du[0].tolist(), i) for i in range(N)],
                                 1, min_time),
        "np-fp-rta (scalar)": _rate(lambda: [fp.np_rta_one(Cu[1].tolist(), Tu[1].tolist(),
                                                           Du[1].tolist(), i)
                                             for i in range(N)], 1, min_time),
    }
    for h in partition.HEURISTICS:
        rates[f"pedf-{h} (batch)"] = _rate(lambda h=h: partition.partition_batch(C, T, M, h),
                                           S, min_time)
    rates["pfp-first-fit (batch, hyperbolic)"] = _rate(
        lambda: partition.partition_batch(C, T, M, "first-fit", "fp"), S, min_time)
    tasks = generators.to_tasks(C[0], T[0])
    rates["pfp-first-fit (scalar, RTA)"] = _rate(
        lambda: partition.partition(tasks, M, "first-fit", "fp"), 1, min_time)
    bi, Ts, _ = generators.spm_fig7(0.4, g)
    cs = (generators.TABLE_V[0][1] * 0 + np.array([r[1] for r in generators.TABLE_V]))[bi]
    rates["spm (M=2, Fig. 7 set at U=0.4)"] = _rate(
        lambda: spm.schedulable(cs * 1000, Ts, Ts, 200_000, 2), 1, min_time)
    return rates


def run(out_dir: Path, experiment: bool = True) -> str:
    """Measure, write out_dir/analysis.json, return a Markdown table."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rates = measure()
    doc: dict[str, Any] = {"n": N, "m": M, "sets_per_sec": rates}
    if experiment:
        from partita.experiments.cli import run_experiment
        jobs = os.cpu_count() or 1
        t0 = time.perf_counter()
        run_experiment("gedf-vs-pedf", out_dir / "experiments", seed=1, jobs=jobs)
        doc["gedf_vs_pedf_wall_s"] = round(time.perf_counter() - t0, 2)
        doc["gedf_vs_pedf_jobs"] = jobs
    (out_dir / "analysis.json").write_text(json.dumps(doc, indent=1) + "\n")
    lines = ["| analysis (n = 20, m = 4, one core) | task sets / s |", "| --- | ---: |"]
    lines += [f"| {k} | {v:,.0f} |" for k, v in rates.items()]
    if experiment:
        lines.append(f"| full `gedf-vs-pedf` experiment ({doc['gedf_vs_pedf_jobs']} jobs) "
                     f"| {doc['gedf_vs_pedf_wall_s']} s wall |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run(Path("out/bench")))
