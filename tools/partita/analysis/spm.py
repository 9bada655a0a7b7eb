"""Scratchpad-centric three-phase tasks with TDMA-scheduled DMA (brief 0).

Model (seed 000: Tabish, Mancuso, Wasly, Alhammad, Phatak, Pellizzoni & Caccamo, "A real-time
scratchpad-centric OS for multi-core embedded systems", RTAS 2016, §IV-§V): per application
core, partitioned non-preemptive fixed priority; two scratchpad partitions; one DMA shared by
M cores in TDMA slots of length sigma, core k owning one slot in every M. At each of its slots
the I/O core applies Rule 1 (load the highest-priority released, unloaded job into a free
partition) else Rule 2 (unload a completed job). A job's response ends when it is unloaded.

Bound (paper §V for M = 2; general M derived in docs/analysis.md):
    R_i = B + H + F
    B   = max(c_u, M sigma) - (M - 1) sigma          (paper: max(c_u, 2 sigma) - sigma)
    F   = max(c_i + (2M + 1) sigma, (3M + 1) sigma)  (paper: max(c_i + 5 sigma, 7 sigma))
    H   = sum over the intervals of max(exec, DMA), one interval per higher-priority job
          released in [0, B + H] (fixed point), plus one lower-priority job; DMA per interval
          is 2M sigma, or (2M + 1) sigma for (number of jobs with c > 2M sigma) + 1 of them
          (paper Lemma 1: 4 sigma / 5 sigma and threshold 4 sigma).
Where the paper relies on Wasly & Pellizzoni (RTAS 2014, not available here) to bound
sum max(exec, DMA), we pair the execution list sorted descending with the DMA list sorted
ascending, which maximises the sum over all pairings (safe by construction). The two
lower-priority execution times go to B and to the extra interval in both ways; the larger
result is kept. Jobs of tau_i itself: if a job finishes after the next release of tau_i,
the next job (q = 1, 2, ...) is analysed with q earlier own jobs as extra intervals (our
extension; under the kernel's pending-release rule a lower-priority job can slip in between,
so a bound above T is not validated, docs/analysis.md). This is `bound_one`, the
"conservative" analysis.

`bound_one_exact` ("exact", issue 13) computes the same critical instant (Lemma 2) on the
protocol itself with the exact simulator, so every interval has its real TDMA phase instead
of the 2M sigma / (2M + 1) sigma classes, and adds Lemma 3's late arrival exactly; it gives no
bound above the period. Derivation and validation: docs/spm.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from partita.analysis.errors import AnalysisInputError, as_arrays
from partita.analysis.fp import RtaResult, _reorder, priority_order
from partita.model import Platform, ThreePhaseTask

MAX_JOBS = 10_000


def _h_sum(execs: np.ndarray, sigma: int, M: int) -> int:
    """Safe bound of sum max(exec, DMA) over the intervals (anti-sorted pairing)."""
    k = execs.size
    if k == 0:
        return 0
    short, long_ = 2 * M * sigma, (2 * M + 1) * sigma
    n5 = min(k, int((execs > short).sum()) + 1)
    e = np.sort(execs)[::-1]
    return int(np.maximum(e[:k - n5], short).sum() + np.maximum(e[k - n5:], long_).sum())


def bound_one(c: Sequence[int], T: Sequence[int], D: Sequence[int], i: int, sigma: int,
              M: int = 2, limit: int | None = None) -> int | None:
    """Response-time bound of task i (tasks 0..i-1 have higher priority), or None if it
    exceeds `limit` (default D_i)."""
    c_a = np.asarray(c, dtype=np.int64)
    lim = D[i] if limit is None else limit
    hp_c, hp_t = c_a[:i], np.asarray(T[:i], dtype=np.int64)
    lp = sorted((int(x) for x in c_a[i + 1:]), reverse=True) + [0, 0]
    F = max(int(c_a[i]) + (2 * M + 1) * sigma, (3 * M + 1) * sigma)
    worst = 0
    for blk, extra in {(lp[0], lp[1]), (lp[1], lp[0])}:
        B = max(blk, M * sigma) - (M - 1) * sigma
        q = 0
        while True:
            own = np.full(q, int(c_a[i]), dtype=np.int64)
            n_hp = np.ones(i, dtype=np.int64)
            while True:
                execs = np.concatenate([np.repeat(hp_c, n_hp), own,
                                        np.array([extra], dtype=np.int64)])
                H = _h_sum(execs, sigma, M)
                t = B + H
                if t + F - q * int(T[i]) > lim:
                    return None
                nn = t // hp_t + 1
                if (nn == n_hp).all():
                    break
                n_hp = nn
            R = B + H + F - q * int(T[i])
            worst = max(worst, R)
            if B + H + F <= (q + 1) * int(T[i]):
                break
            q += 1
            if q > MAX_JOBS:
                return None
    return worst


#: lower-priority tasks (largest execution first) tried in the two pre-loaded roles
EXACT_LP = 3


def _critical_instant(c: Sequence[int], T: Sequence[int], i: int, sigma: int, M: int,
                      blk: int, extra: int, lim: int) -> int | None:
    """Largest response of task i in the critical-instant schedule (exact protocol, integer
    ns), or None above `lim`. Core 0 owns the slots at k P (P = M sigma). The lower-priority
    job `blk` is released at 0 (loaded in slot [0, sigma), executes from sigma), `extra` at 1
    (loaded at P, the slot after), task i and every higher-priority task at P + 1 and then
    every T (seed 000 Lemma 2: the release just misses the slot that starts loading `extra`).
    Only a response up to T_i is analysed (None above): when a job outlives its period, the
    kernel holds the next release pending until the unload and a lower-priority job may be
    loaded in between, which the critical instant does not cover. Lemma 3: if
    a partition is free at the slot that unloads a job of task i, a job released right at that
    slot is loaded first (Rule 1) and the unload moves one own slot later (+P)."""
    from partita.analysis.sim import SpmJobLog, simulate_spm

    P = M * sigma
    cs = [int(x) for x in c[:i + 1]] + [max(blk, 1), max(extra, 1)]
    big = 1 << 62
    Ts = [int(x) for x in T[:i + 1]] + [big, big]
    t0 = P + 1
    horizon = t0 + int(T[i])
    rel = [list(range(t0, horizon, int(T[k]))) for k in range(i)] + [[t0], [0], [1]]
    log: list[SpmJobLog] = []
    simulate_spm(cs, Ts, rel, sigma, M, 0, log=log)
    x = next(x for x in log if x.task == i)
    u = x.unload_start
    other = any(y is not x and y.load_start < u < y.unload_end for y in log)
    r = x.unload_end - x.release + (0 if other else P)
    return None if r > min(lim, int(T[i])) else r


def bound_one_exact(c: Sequence[int], T: Sequence[int], D: Sequence[int], i: int, sigma: int,
                    M: int = 2, limit: int | None = None) -> int | None:
    """Exact-in-phase response time of task i (tasks 0..i-1 have higher priority): the
    critical-instant schedule of the protocol itself, TDMA phase of every interval included,
    worst over which of the `EXACT_LP` longest lower-priority jobs are pre-loaded (both
    roles; with fewer than two lower-priority tasks the missing ones are 1 ns jobs, which
    still take a load and an unload slot: pessimistic, as the conservative analysis' zeros);
    None if it exceeds `limit` (default D_i) or the period. docs/spm.md derives it."""
    lim = D[i] if limit is None else limit
    lp = sorted((int(x) for x in c[i + 1:]), reverse=True)[:EXACT_LP]
    lp += [0] * (2 - min(len(lp), 2))
    worst = 0
    pairs = {(a, b) for ai, a in enumerate(lp) for bi, b in enumerate(lp) if ai != bi}
    for blk, extra in sorted(pairs, reverse=True):
        r = _critical_instant(c, T, i, sigma, M, blk, extra, lim)
        if r is None:
            return None
        worst = max(worst, r)
    return worst


ANALYSES = {"conservative": bound_one, "exact": bound_one_exact}


def _bounds(one: Callable[..., int | None], c: list[int], T: list[int], D: list[int],
            sigma: int, M: int) -> list[int | None]:
    """Bounds in priority order. The exact analysis builds the schedule with every
    higher-priority task released at its maximum rate, which holds only while those tasks
    meet their periods: below an unschedulable task it gives no bound."""
    out: list[int | None] = []
    for k in range(len(c)):
        if one is bound_one_exact and any(b is None for b in out):
            out.append(None)
        else:
            out.append(one(c, T, D, k, sigma, M))
    return out


def slot_ns(tasks: Sequence[ThreePhaseTask], platform: Platform) -> int:
    """sigma: the platform's `tdma_slot_ns`, or the largest copy plus DMA setup.

    Raises if a task's load or unload does not fit one slot (naming task and sizes)."""
    copy = [max(t.load_bytes, t.unload_bytes) * platform.dma_ns_per_byte
            + platform.dma_setup_ns for t in tasks]
    sigma = platform.tdma_slot_ns or int(np.ceil(max(copy)))
    for t, cp in zip(tasks, copy, strict=True):
        if cp > sigma:
            raise AnalysisInputError(
                f"task {t.name}: copy of {max(t.load_bytes, t.unload_bytes)} bytes takes "
                f"{cp:.0f} ns, more than the TDMA slot {sigma} ns")
    return sigma


def analyze(tasks: Sequence[ThreePhaseTask], platform: Platform, app_cores: int = 2,
            overhead_ns: int | None = None, analysis: str = "conservative") -> RtaResult:
    """Per-task bounds for the tasks of ONE application core; `app_cores` is M.

    `overhead_ns` is added to every execution time (default: the platform's
    `overheads_ns` context_switch + dma_setup, as in the paper's adjusted c)."""
    if app_cores < 1:
        raise AnalysisInputError(f"app_cores (M) must be >= 1, got {app_cores}")
    if analysis not in ANALYSES:
        raise AnalysisInputError(f"SPM analysis {analysis!r}: use one of {sorted(ANALYSES)}")
    one = ANALYSES[analysis]
    for t in tasks:
        if not isinstance(t, ThreePhaseTask):
            raise AnalysisInputError(f"task {t.name}: SPM analysis needs load_bytes and "
                                     "unload_bytes (a three-phase task)")
    sigma = slot_ns(tasks, platform)
    if overhead_ns is None:
        overhead_ns = platform.overheads_ns.get("context_switch", 0) + platform.dma_setup_ns
    order = priority_order(tasks)
    a = as_arrays([tasks[i] for i in order], constrained=True)
    c = (a.C + overhead_ns).tolist()
    bounds = _bounds(one, c, a.T.tolist(), a.D.tolist(), sigma, app_cores)
    return _reorder(a, order, bounds)


def schedulable(c: np.ndarray, T: np.ndarray, D: np.ndarray, sigma: int, M: int = 2,
                analysis: str = "conservative") -> bool:
    """Verdict for one core's set in priority order (experiments)."""
    one = ANALYSES[analysis]
    cl, tl, dl = c.tolist(), T.tolist(), D.tolist()
    return all(one(cl, tl, dl, k, sigma, M) is not None for k in range(len(cl)))  # stops at 1st
