"""Analysis speed benchmark: task sets analysed per second per test (n = 20, m = 4, one
core), the per-set time of the single-set paths beside SchedCAT's (issue 10), and the wall
time of the full `gedf-vs-pedf` experiment.

`run(out_dir)` writes `out_dir/analysis.json` and returns a Markdown table;
`python -m partita.analysis.bench [--single-only] [--out DIR]` prints it.

SchedCAT figures: issue 10 gives, per set at n = 20, m = 4, the speed of the code then
(commit 9262522) relative to SchedCAT's native code, as ratios (BAK 0.72, BCL 0.40,
iterative BCL 0.14, QPA 0.17, FP RTA 0.88) and one absolute pair (P-EDF first-fit: 614 us vs
9.5 us). SchedCAT is not installed here; its per-set time is estimated as ratio x the time of
the issue's path in the code of 9262522 (a batch of one set; P-EDF: `partition` on Task
models), measured once on the project's 2-core machine with the sets and timer of
`measure_single` (`OLD_US`; P-EDF there took 619 us, the issue's machine 614 us).
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

#: Issue 10: Partita's per-set speed relative to SchedCAT on the path it timed.
SCHEDCAT_RATIO = {"bak": 0.72, "bcl": 0.40, "bcl-iter": 0.14, "edf-qpa": 0.17,
                  "fp-rta": 0.88}
#: That path in the code of commit 9262522, us per set (mean of two runs, CPU time).
OLD_US = {"bak": 39.6, "bcl": 44.2, "bcl-iter": 441.5, "edf-qpa": 213.0, "fp-rta": 228.4,
          "pedf-first-fit": 619.5}
SCHEDCAT_US = {k: round(r * OLD_US[k], 1) for k, r in SCHEDCAT_RATIO.items()}
SCHEDCAT_US["pedf-first-fit"] = 9.5         # quoted in the issue (614 us for Partita then)


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


def _per_set_us(fn: Callable[[int], Any], sets: int, repeat: int = 5) -> float:
    """Best-of-`repeat` CPU time per call of fn(s) over sets s = 0..sets-1, in us."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for s in range(sets):
            fn(s)
        best = min(best, time.process_time() - t0)
    return best / sets * 1e6


def measure_single(sets: int = 100, repeat: int = 5) -> dict[str, dict[str, float]]:
    """Per-set time (us) of every single-set path and of the path issue 10 timed (a batch of
    one), on the same sets: n = 20, m = 4 (G-EDF and P-EDF, U = 2.4) or one core (U = 0.8;
    QPA with D = 0.8 T)."""
    g = generators.rng(7)
    C, T, D = generators.implicit_batch(sets, N, 0.6 * M, g)
    Cu, Tu, Du = generators.implicit_batch(sets, N, 0.8, g)
    Dc = np.maximum(Cu, (Du * 0.8).astype(np.int64))
    L = [(C[s].tolist(), T[s].tolist(), D[s].tolist()) for s in range(sets)]
    Lu = [(Cu[s].tolist(), Tu[s].tolist(), Du[s].tolist()) for s in range(sets)]
    Lc = [(Cu[s].tolist(), Tu[s].tolist(), Dc[s].tolist()) for s in range(sets)]
    tasks = [generators.to_tasks(C[s], T[s]) for s in range(sets)]
    rows: dict[str, tuple[Callable[[int], Any], Callable[[int], Any]]] = {
        "gfb": (lambda s: gedf.gfb(C[s], T[s], D[s], M), lambda s: gedf.gfb_set(*L[s], M)),
        "bak": (lambda s: gedf.bak(C[s], T[s], D[s], M), lambda s: gedf.bak_set(*L[s], M)),
        "bcl": (lambda s: gedf.bcl(C[s], T[s], D[s], M), lambda s: gedf.bcl_set(*L[s], M)),
        "bcl-iter": (lambda s: gedf.bcl_iterative(C[s], T[s], D[s], M),
                     lambda s: gedf.bcl_iterative_set(*L[s], M)),
        "edf-qpa": (lambda s: edf.qpa_batch(Cu[s], Tu[s], Dc[s]),
                    lambda s: edf.qpa_set(*Lc[s])),
        "fp-rta": (lambda s: fp.rta_batch(Cu[s], Tu[s], Du[s]), lambda s: fp.rta_set(*Lu[s])),
        "pedf-first-fit": (lambda s: partition.partition(tasks[s], M),
                           lambda s: partition.pack(*L[s], M)),
    }
    out: dict[str, dict[str, float]] = {}
    for name, (old, new) in rows.items():
        o = _per_set_us(old, sets, repeat)
        n = _per_set_us(new, sets, repeat)
        row = {"batch_of_one_us": round(o, 2), "single_us": round(n, 2)}
        if name in SCHEDCAT_US:
            row["before_us"] = OLD_US[name]
            row["schedcat_est_us"] = SCHEDCAT_US[name]
        out[name] = row
    return out


def single_markdown(single: dict[str, dict[str, float]]) -> str:
    lines = ["| test (one set, n = 20, m = 4) | before (9262522, µs) | batch of one (µs) | "
             "single-set path (µs) | SchedCAT, est. (µs) | single vs SchedCAT |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, r in single.items():
        est = r.get("schedcat_est_us")
        before = f"{r['before_us']:,.1f}" if "before_us" in r else "—"
        lines.append(f"| {name} | {before} | {r['batch_of_one_us']:,.1f} | "
                     f"{r['single_us']:,.1f} | "
                     + (f"{est:,.1f} | {est / r['single_us']:.2f}x |" if est else "— | — |"))
    return "\n".join(lines) + "\n"


def run(out_dir: Path, experiment: bool = True, single_only: bool = False) -> str:
    """Measure, write out_dir/analysis.json, return a Markdown table."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    single = measure_single()
    if single_only:
        (out_dir / "analysis.json").write_text(json.dumps({"n": N, "m": M, "single": single},
                                                          indent=1) + "\n")
        return single_markdown(single)
    rates = measure()
    doc: dict[str, Any] = {"n": N, "m": M, "sets_per_sec": rates, "single": single}
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
    return "\n".join(lines) + "\n\n" + single_markdown(single)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("out/bench"))
    ap.add_argument("--single-only", action="store_true",
                    help="only the single-set table (no batch rates, no experiment)")
    ap.add_argument("--no-experiment", action="store_true")
    a = ap.parse_args()
    print(run(a.out, experiment=not a.no_experiment, single_only=a.single_only))
