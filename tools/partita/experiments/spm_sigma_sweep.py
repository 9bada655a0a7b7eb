"""`spm-sigma-sweep`: which TDMA slot reproduces seed 000's Fig. 7 conclusion.

The Fig. 7 recipe of `spm_schedulability` (same generator, same sets for every sigma: the
random stream depends on the utilization point only), SPM analysed with the exact and the
conservative analysis for sigma from 100 to 450 us, against the contention baseline. Per sigma
the CSV gives the acceptance ratio at every utilization; the plot shows U50, the utilization
per core where the acceptance falls below one half, against sigma. The paper's conclusion
(SPM accepts more sets than contention) holds where the SPM U50 lies above the baseline's.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from partita.analysis import fp, generators, spm
from partita.analysis.generators import NS_PER_US, TABLE_IV_NS
from partita.experiments.runner import Chunk, chunk_rng, chunks, run_chunks, write_csv
from partita.experiments.spm_schedulability import SIGMA_IMG, SIGMA_T4, SPM_NS, SRAM_NS, STEPS, M

SIGMAS_NS = sorted({*(s * NS_PER_US for s in range(100, 451, 50)), SIGMA_IMG, SIGMA_T4})
ANALYSES = ("exact", "conservative")
CHUNK = 25


def _chunk(seed: int, w: Chunk) -> tuple[int, list[int], int]:
    p, c, k = w
    si, ui = divmod(p, len(STEPS))
    g = chunk_rng(seed, ui, c)        # the same sets for every sigma
    sigma = SIGMAS_NS[si]
    acc = [0, 0, 0]
    cs, setup = TABLE_IV_NS["context_switch"], TABLE_IV_NS["dma_setup"]
    for _ in range(k):
        bi, T, _ = generators.spm_fig7(float(STEPS[ui]), g)
        c_spm = SPM_NS[bi] + cs + setup
        for j, how in enumerate(ANALYSES):
            acc[j] += spm.schedulable(c_spm, T, T, sigma, M, how)
        acc[2] += bool(fp.rta_batch_schedulable(np.minimum(SRAM_NS[bi] + 2 * cs, T), T, T)[0])
    return p, acc, k


def u50(ratio: np.ndarray) -> float:
    """Largest utilization of STEPS before the acceptance first drops below 0.5 (0 if the
    first point already is below)."""
    below = np.nonzero(ratio < 0.5)[0]
    return 0.0 if below.size and below[0] == 0 else float(
        STEPS[(below[0] if below.size else len(STEPS)) - 1])


def run(out: Path, seed: int, sets: int, jobs: int, quiet: bool = False,
        executor: str | None = None) -> Path:
    npts = len(SIGMAS_NS) * len(STEPS)
    work = chunks(npts, sets, CHUNK)
    res = run_chunks(functools.partial(_chunk, seed), work, jobs, "spm-sigma-sweep", quiet,
                     executor)
    tot = np.zeros((npts, 3), dtype=np.int64)
    cnt = np.zeros(npts, dtype=np.int64)
    for p, acc, k in res:
        tot[p] += np.asarray(acc, dtype=np.int64)
        cnt[p] += k
    keys = [(round(s / NS_PER_US, 2), float(u)) for s in SIGMAS_NS for u in STEPS]
    csv = write_csv(out / "results.csv", ["sigma_us", "utilization"], keys,
                    ["SPM exact", "SPM conservative", "Contention FP-RTA (SRAM)"], tot, cnt)
    ratio = tot / cnt[:, None]
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.6))
    ax = fig.subplots()
    xs = [s / NS_PER_US for s in SIGMAS_NS]
    for j, lab in enumerate(("SPM exact", "SPM conservative", "Contention FP-RTA (SRAM)")):
        ys = [u50(ratio[si * len(STEPS):(si + 1) * len(STEPS), j])
              for si in range(len(SIGMAS_NS))]
        ax.plot(xs, ys, marker="o", ms=3, label=lab)
    ax.set_xlabel("TDMA slot sigma (us)")
    ax.set_ylabel("U50 (utilization per core)")
    ax.set_title(f"Fig. 7 recipe vs sigma, M = 2 ({sets} sets/point, seed {seed})", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "u50.png", dpi=80)
    return csv
