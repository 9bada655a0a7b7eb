"""Seeded, reproducible task-set generators.

Every generator takes a `numpy.random.Generator` (make one with `rng(seed)`), so a seed fixes
the result. Batch forms return arrays of shape (sets, n) for the vectorised analyses.

- UUniFast: Bini & Buttazzo, "Measuring the performance of schedulability tests",
  Real-Time Systems 30(1-2), 2005.
- UUniFast-Discard: Davis & Burns, "Improved priority assignment for global fixed priority
  pre-emptive scheduling in multiprocessor real-time systems", Real-Time Systems 47(1), 2011.
- RandFixedSum: R. Stafford, "Random vectors with fixed sum" (2006), as used for task sets by
  Emberson, Stafford & Davis, "Techniques for the synthesis of multiprocessor tasksets",
  WATERS 2010. Implemented here from the published description (uniform sampling of the
  simplex slice {x in [a, b]^n : sum x = s} by decomposing it into simplices).
- Log-uniform periods: Emberson, Stafford & Davis (WATERS 2010), §4.
- The papers' recipes: `spm_fig7` (seed 000, Fig. 7 / Table V) and `coloring_sec4`
  (seed 001, §IV).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from partita.analysis.errors import AnalysisInputError
from partita.model import Task, ThreePhaseTask

NS_PER_MS = 1_000_000
NS_PER_US = 1_000


def rng(seed: int | None) -> np.random.Generator:
    """The project's random generator (PCG64) for `seed`."""
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- utilizations


def uunifast(n: int, total: float, gen: np.random.Generator, sets: int | None = None
             ) -> np.ndarray:
    """UUniFast (Bini & Buttazzo 2005): n utilizations summing to `total`, uniform on the
    simplex. Returns (n,) or, with `sets`, (sets, n)."""
    if n < 1:
        raise AnalysisInputError(f"uunifast: n must be >= 1, got {n}")
    if total <= 0:
        raise AnalysisInputError(f"uunifast: total utilization must be > 0, got {total}")
    s = 1 if sets is None else sets
    # sum_i = total * prod_{k<=i} r_k^(1/(n-k)) ; vectorised over sets.
    expo = 1.0 / np.arange(n - 1, 0, -1, dtype=float)
    r = gen.random((s, n - 1)) ** expo
    sums = total * np.concatenate([np.ones((s, 1)), np.cumprod(r, axis=1)], axis=1)
    u = sums - np.concatenate([sums[:, 1:], np.zeros((s, 1))], axis=1)
    return u[0] if sets is None else u


def uunifast_discard(n: int, total: float, gen: np.random.Generator, umax: float = 1.0,
                     sets: int | None = None, max_tries: int = 10_000) -> np.ndarray:
    """UUniFast-Discard (Davis & Burns 2011): UUniFast, discarding vectors with any
    u_i > umax. Raises if `max_tries` batches do not yield enough vectors (total close to
    n*umax makes discarding hopeless; use `randfixedsum` there)."""
    if total > n * umax:
        raise AnalysisInputError(f"uunifast_discard: total {total} > n*umax = {n * umax}")
    want = 1 if sets is None else sets
    out: list[np.ndarray] = []
    got = 0
    for _ in range(max_tries):
        u = uunifast(n, total, gen, sets=max(want - got, 1) * 2)
        ok = u[(u <= umax).all(axis=1)]
        out.append(ok)
        got += len(ok)
        if got >= want:
            res = np.concatenate(out)[:want]
            return res[0] if sets is None else res
    raise AnalysisInputError(
        f"uunifast_discard: no valid vector in {max_tries} tries (n={n}, total={total})"
    )


def randfixedsum(n: int, total: float, gen: np.random.Generator, lo: float = 0.0,
                 hi: float = 1.0, sets: int | None = None) -> np.ndarray:
    """Uniform samples of {x in [lo, hi]^n : sum(x) = total} (Stafford's RandFixedSum).

    The slice of the cube is rescaled to the unit cube with sum s; it is a union of simplices
    indexed by the integer part of the partial sums. A table of their relative volumes (w)
    and the split probabilities (t) is built by recursion on dimension, then each sample
    walks down the dimensions, choosing a sub-simplex with probability t and a point inside
    it by the usual power-of-uniform construction, and is finally shuffled.
    """
    if n < 1:
        raise AnalysisInputError(f"randfixedsum: n must be >= 1, got {n}")
    if not (lo < hi):
        raise AnalysisInputError(f"randfixedsum: need lo < hi, got [{lo}, {hi}]")
    if not (n * lo <= total <= n * hi):
        raise AnalysisInputError(
            f"randfixedsum: total {total} outside [n*lo, n*hi] = [{n * lo}, {n * hi}]"
        )
    m = 1 if sets is None else sets
    if n == 1:
        x = np.full((m, 1), float(total))
        return x[0] if sets is None else x
    s = (total - n * lo) / (hi - lo)
    k = int(max(min(math.floor(s), n - 1), 0))
    s = max(min(s, k + 1.0), float(k))
    s1 = s - np.arange(k, k - n, -1, dtype=float)          # s - k, s - k + 1, ...
    s2 = np.arange(k + n, k, -1, dtype=float) - s          # k + n - s, ...
    w = np.zeros((n, n + 1))
    w[0, 1] = np.finfo(float).max
    t = np.zeros((n - 1, n))
    tiny = np.finfo(float).tiny
    for i in range(2, n + 1):
        tmp1 = w[i - 2, 1:i + 1] * s1[0:i] / i
        tmp2 = w[i - 2, 0:i] * s2[n - i:n] / i
        w[i - 1, 1:i + 1] = tmp1 + tmp2
        tmp3 = w[i - 1, 1:i + 1] + tiny
        tmp4 = s2[n - i:n] > s1[0:i]
        t[i - 2, 0:i] = (tmp2 / tmp3) * tmp4 + (1.0 - tmp1 / tmp3) * (~tmp4)
    x = np.zeros((n, m))
    rt = gen.random((n - 1, m))
    rs = gen.random((n - 1, m))
    sv = np.full(m, s)
    j = np.full(m, k + 1, dtype=np.int64)
    sm = np.zeros(m)
    pr = np.ones(m)
    for i in range(n - 1, 0, -1):
        e = (rt[n - i - 1] <= t[i - 1, j - 1]).astype(float)
        sx = rs[n - i - 1] ** (1.0 / i)
        sm = sm + (1.0 - sx) * pr * sv / (i + 1)
        pr = sx * pr
        x[n - i - 1] = sm + pr * e
        sv = sv - e
        j = j - e.astype(np.int64)
    x[n - 1] = sm + pr * sv
    x = x.T  # (m, n)
    perm = np.argsort(gen.random((m, n)), axis=1)
    x = np.take_along_axis(x, perm, axis=1)
    x = (hi - lo) * x + lo
    return x[0] if sets is None else x


# ---------------------------------------------------------------------- periods


def periods_loguniform(shape: int | tuple[int, ...], lo_ns: int, hi_ns: int,
                       gen: np.random.Generator, granularity_ns: int = 1) -> np.ndarray:
    """Periods log-uniform in [lo, hi] (Emberson, Stafford & Davis 2010)."""
    if not 0 < lo_ns <= hi_ns:
        raise AnalysisInputError(f"periods: need 0 < lo <= hi, got [{lo_ns}, {hi_ns}]")
    p = np.exp(gen.uniform(math.log(lo_ns), math.log(hi_ns + granularity_ns), size=shape))
    p = np.minimum(p, hi_ns)
    return np.maximum((p // granularity_ns) * granularity_ns, granularity_ns).astype(np.int64)


def periods_from_set(shape: int | tuple[int, ...], choices: Sequence[int],
                     gen: np.random.Generator) -> np.ndarray:
    """Periods drawn uniformly from a finite set (e.g. {25, 50, 100, 200} ms)."""
    if len(choices) == 0 or min(choices) <= 0:
        raise AnalysisInputError("periods_from_set: need a non-empty set of positive periods")
    return gen.choice(np.asarray(choices, dtype=np.int64), size=shape)


def wcets(u: np.ndarray, periods: np.ndarray) -> np.ndarray:
    """C = max(1, round(u * T)) in integer ns."""
    return np.maximum(np.rint(u * periods), 1).astype(np.int64)


def to_tasks(C: Sequence[int], T: Sequence[int], D: Sequence[int] | None = None,
             prefix: str = "t") -> list[Task]:
    """Wrap arrays as `Task` models (priority = index, 0 highest)."""
    D = T if D is None else D
    return [Task(name=f"{prefix}{i}", wcet_ns=int(c), period_ns=int(t), deadline_ns=int(d),
                 priority=min(i, 255))
            for i, (c, t, d) in enumerate(zip(C, T, D, strict=True))]


def implicit_batch(sets: int, n: int, total: float, gen: np.random.Generator,
                   lo_ms: float = 10, hi_ms: float = 1000, method: str = "randfixedsum"
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch (sets, n) of implicit-deadline sets of total utilization `total`, u_i <= 1,
    log-uniform periods in [lo, hi] ms. Returns (C, T, D) sorted by period (RM/DM order)."""
    if method == "randfixedsum":
        u = randfixedsum(n, total, gen, 0.0, 1.0, sets=sets)
    elif method == "uunifast-discard":
        u = uunifast_discard(n, total, gen, 1.0, sets=sets)
    else:
        raise AnalysisInputError(f"unknown utilization method {method!r}")
    T = periods_loguniform((sets, n), int(lo_ms * NS_PER_MS), int(hi_ms * NS_PER_MS), gen,
                           granularity_ns=NS_PER_US)
    C = np.minimum(wcets(u, T), T)
    order = np.argsort(T, axis=1, kind="stable")
    T = np.take_along_axis(T, order, axis=1)
    C = np.take_along_axis(C, order, axis=1)
    return C, T, T.copy()


# ------------------------------------------------------------- papers' recipes

#: Seed 000 (Tabish et al., RTAS 2016), Table V: EEMBC automotive benchmarks on the
#: MPC5777M: (name, SPM time us, SRAM time us, relocatable code bytes, data bytes).
TABLE_V: tuple[tuple[str, int, int, int, int], ...] = (
    ("tblook", 1013, 1015, 1892, 10516),
    ("matrix", 1053, 1054, 4774, 4488),
    ("a2time", 1002, 1029, 2538, 1704),
    ("pntrch", 1036, 1145, 1398, 4924),
    ("ttsprk", 383, 425, 4772, 8160),
    ("iirflt", 1040, 1189, 3512, 1000),
    ("canrdr", 1009, 1359, 1562, 12440),
    ("bitmnp", 990, 1389, 3282, 1116),
    ("rspeed", 1012, 1457, 1208, 13212),
    ("puwm", 1036, 1540, 2500, 2412),
    ("aifirf", 1005, 1564, 2286, 1552),
    ("aifftr", 916, 1642, 4458, 8448),
    ("aiifft", 1170, 2092, 3540, 9224),
    ("idct", 1045, 2126, 4690, 244),
)

#: Seed 000, Table IV (us): partition load 432, unload 432, DMA setup 3.16, context switch 0.46.
TABLE_IV_NS = {"load": 432_000, "unload": 432_000, "dma_setup": 3_160, "context_switch": 460}


def spm_fig7(total: float, gen: np.random.Generator, period_lo_ms: float = 10,
             period_hi_ms: float = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One task set of seed 000's Fig. 7 recipe for one core.

    Benchmarks are drawn uniformly from Table V, each with a period uniform in [10, 100] ms;
    tasks are added while the SPM-time utilization is below `total` (the paper stops "when
    the sum reaches the required utilization"; the last task's period is stretched so the
    sum equals `total`, which the paper leaves unspecified, but never beyond the period
    range: when the leftover is too small for the drawn benchmark even at the longest period,
    the set stops there, within its C / period_hi of `total`). Every period lies in
    [period_lo_ms, period_hi_ms] (issue 13: a leftover of ~1e-12 once gave a period of
    ~10^16 ns). Returns (bench_index, period_ns, order) with tasks sorted by period (rate
    monotonic).
    """
    spm_c = np.array([r[1] for r in TABLE_V], dtype=np.int64) * NS_PER_US
    lo_ns, hi_ns = int(period_lo_ms * NS_PER_MS), int(period_hi_ms * NS_PER_MS)
    idx: list[int] = []
    per: list[int] = []
    acc = 0.0
    while acc < total - 1e-12:
        b = int(gen.integers(len(TABLE_V)))
        p = min(max(int(gen.uniform(period_lo_ms, period_hi_ms) * NS_PER_MS), lo_ns), hi_ns)
        u = spm_c[b] / p
        if acc + u > total:
            need = int(math.ceil(spm_c[b] / (total - acc)))
            if need > hi_ns:
                break  # the leftover is below C / period_hi: the set is as full as it gets
            p = max(need, lo_ns)
            u = spm_c[b] / p
        idx.append(b)
        per.append(p)
        acc += u
    bi = np.array(idx, dtype=np.int64)
    T = np.array(per, dtype=np.int64)
    order = np.argsort(T, kind="stable")
    return bi[order], T[order], order


def spm_fig7_tasks(total: float, gen: np.random.Generator, dma_ns_per_byte: float
                   ) -> list[ThreePhaseTask]:
    """`spm_fig7` as `ThreePhaseTask` models (execution = SPM time, image = code + data)."""
    bi, T, _ = spm_fig7(total, gen)
    out = []
    for k, (b, t) in enumerate(zip(bi, T, strict=True)):
        name, spm_us, _sram, code, data = TABLE_V[int(b)]
        out.append(ThreePhaseTask(name=f"{name}_{k}", wcet_ns=spm_us * NS_PER_US,
                                  period_ns=int(t), priority=min(k, 255),
                                  load_bytes=code + data, unload_bytes=data))
    return out


def coloring_sec4(m: int, gen: np.random.Generator, accept, max_tasks: int = 200
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Seed 001 §IV recipe: periods from {25, 50, 100, 200} ms, utilizations uniform in
    [0.1, 0.7]; tasks are added while `accept(C, T)` holds (GFB for G-EDF, best-fit for
    P-EDF in the paper). Returns (C, T) of the last accepted set."""
    C = np.zeros(0, dtype=np.int64)
    T = np.zeros(0, dtype=np.int64)
    for _ in range(max_tasks):
        t = int(periods_from_set(1, [25 * NS_PER_MS, 50 * NS_PER_MS, 100 * NS_PER_MS,
                                     200 * NS_PER_MS], gen)[0])
        c = int(round(gen.uniform(0.1, 0.7) * t))
        C2, T2 = np.append(C, c), np.append(T, t)
        if not accept(C2, T2):
            break
        C, T = C2, T2
    return C, T
