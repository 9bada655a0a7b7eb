"""`spm-schedulability`: seed 000 Fig. 7, SPM-centric analysis vs contention-based FP RTA.

Recipe (seed 000 §VII-E): benchmarks drawn from Table V, periods uniform in [10, 100] ms,
tasks added until the utilization (of SPM times) reaches the point; rate-monotonic
priorities; D = T; one application core analysed, M = 2 cores sharing the DMA.
Overheads (Table IV): SPM tasks get context switch + DMA setup (3.62 us) added to c
(paper §V); contention-based tasks use the SRAM column (contention included, paper) plus two
context switches, analysed with preemptive FP RTA. Two TDMA slot sizes are shown:
sigma = partition load time + DMA setup from Table IV (435.16 us), and sigma scaled to the
largest Table V image (rspeed, 14,420 bytes, at the Table IV rate 432 us per 32 KiB
partition, + setup: 190.1 + 3.16 = 193.3 us), since the paper does not state which slot
it used for Fig. 7. Each SPM curve is drawn with the exact analysis (the critical-instant
schedule with the TDMA phase, `spm.bound_one_exact`) and the conservative one (Lemma 1
intervals, `spm.bound_one`); docs/spm.md explains why sigma = 435 us loses with either.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np

from partita.analysis import fp, generators, spm
from partita.analysis.generators import NS_PER_US, TABLE_IV_NS, TABLE_V
from partita.experiments.runner import Chunk, accumulate, chunk_rng, chunks, run_chunks, write_csv

STEPS = np.round(np.arange(1, 21) * 0.05, 3)
SPM_NS = np.array([r[1] for r in TABLE_V], dtype=np.int64) * NS_PER_US
SRAM_NS = np.array([r[2] for r in TABLE_V], dtype=np.int64) * NS_PER_US
IMAGE_B = np.array([r[3] + r[4] for r in TABLE_V], dtype=np.int64)
NS_PER_BYTE = TABLE_IV_NS["load"] / 32768
SIGMA_T4 = TABLE_IV_NS["load"] + TABLE_IV_NS["dma_setup"]
SIGMA_IMG = int(math.ceil(IMAGE_B.max() * NS_PER_BYTE)) + TABLE_IV_NS["dma_setup"]
#: (sigma, analysis) of the SPM curves, then the contention baseline
SPM_CURVES = [(SIGMA_T4, "exact"), (SIGMA_T4, "conservative"),
              (SIGMA_IMG, "exact"), (SIGMA_IMG, "conservative")]
METHODS = [f"SPM {a} (sigma={s / 1e3:.0f}us, {'Table IV' if s == SIGMA_T4 else 'image'})"
           for s, a in SPM_CURVES] + ["Contention FP-RTA (SRAM)"]
CHUNK = 50
M = 2


def _chunk(seed: int, w: Chunk) -> tuple[int, list[int], int]:
    p, c, k = w
    g = chunk_rng(seed, p, c)
    acc = [0] * len(METHODS)
    cs, setup = TABLE_IV_NS["context_switch"], TABLE_IV_NS["dma_setup"]
    for _ in range(k):
        bi, T, _ = generators.spm_fig7(float(STEPS[p]), g)
        c_spm = SPM_NS[bi] + cs + setup
        for j, (sigma, how) in enumerate(SPM_CURVES):
            acc[j] += spm.schedulable(c_spm, T, T, sigma, M, how)
        c_sram = np.minimum(SRAM_NS[bi] + 2 * cs, T)
        acc[-1] += bool(fp.rta_batch_schedulable(c_sram, T, T)[0])
    return p, acc, k


def run(out: Path, seed: int, sets: int, jobs: int, quiet: bool = False,
        executor: str | None = None) -> Path:
    work = chunks(len(STEPS), sets, CHUNK)
    res = run_chunks(functools.partial(_chunk, seed), work, jobs, "spm-schedulability", quiet,
                     executor)
    tot, cnt = accumulate(res, len(STEPS), len(METHODS))
    csv = write_csv(out / "results.csv", ["utilization"], [(float(u),) for u in STEPS],
                    METHODS, tot, cnt)
    # the object-oriented API: no pyplot state, no process-wide backend switch
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.6))
    ax = fig.subplots()
    styles = ["-", "--", "-", "--", "-"]
    colors = ["C0", "C0", "C1", "C1", "C2"]
    for j, meth in enumerate(METHODS):
        ax.plot(STEPS, tot[:, j] / cnt, styles[j], color=colors[j], marker="o", ms=3,
                label=meth)
    ax.set_xlabel("utilization per core (SPM execution times)")
    ax.set_ylabel("schedulable task sets")
    ax.set_title(f"Seed 000 Fig. 7 recipe, M = 2 ({sets} sets/point, seed {seed})",
                 fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "schedulability.png", dpi=80)
    return csv
