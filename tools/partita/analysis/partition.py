"""Partitioning heuristics for P-EDF and P-FP (bin packing with a uniprocessor test).

Tasks are taken in decreasing order of utilization (density for D < T) and placed by:
first-fit (lowest-index core that passes), next-fit (stay on the current core, move on when
it does not fit, never go back), best-fit (passing core with the highest load), worst-fit
(passing core with the lowest load); ties go to the lowest index. Bin-packing heuristics for
multiprocessor scheduling: Dhall & Liu, Operations Research 26(1), 1978 (RMNF/RMFF); Lopez,
Diaz & Garcia, "Utilization bounds for EDF scheduling on real-time multiprocessor systems",
Real-Time Systems 28(1), 2004 (EDF-FF/BF/WF).

Admission per core: P-EDF uses the exact uniprocessor EDF test (U <= 1 for implicit
deadlines, QPA otherwise); P-FP uses exact RTA with deadline-monotonic priorities (or the
hyperbolic / Liu-Layland bound with `fp_test`). The result is the mapping or the first
task that does not fit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from partita.analysis import edf, fp
from partita.analysis.errors import AnalysisInputError, as_arrays, validated
from partita.model import Task

HEURISTICS = ("first-fit", "next-fit", "best-fit", "worst-fit")


@dataclass(frozen=True)
class PartitionResult:
    """`mapping[name] = core` if every task was placed, else `failed` names the first task
    (in decreasing-utilization order) that fit on no core."""

    mapping: dict[str, int] | None
    failed: str | None

    @property
    def ok(self) -> bool:
        return self.mapping is not None


def _edf_fits(C: list[int], T: list[int], D: list[int]) -> bool:
    if all(d == t for d, t in zip(D, T, strict=True)):
        return sum(Fraction(c, t) for c, t in zip(C, T, strict=True)) <= 1
    return bool(edf.qpa_batch(np.array(C), np.array(T), np.array(D))[0])


def _fp_fits(test: str) -> Callable[[list[int], list[int], list[int]], bool]:
    def fits(C: list[int], T: list[int], D: list[int]) -> bool:
        """The new task is the last one; the others already passed on this core."""
        order = sorted(range(len(C)), key=lambda i: (D[i], T[i], i))     # DM priorities
        c = [C[i] for i in order]
        t = [T[i] for i in order]
        d = [D[i] for i in order]
        if test == "rta":
            if sum(x / y for x, y in zip(C, T, strict=True)) > 1 + 1e-9:
                return False                      # shortcut only; RTA below is exact
            first = order.index(len(C) - 1)      # tasks above the new one are unaffected
            return all(fp.rta_one(c, t, d, k) is not None for k in range(first, len(c)))
        if test == "hyperbolic":
            return bool(fp.hyperbolic(np.array(c), np.array(t))[0])
        if test == "ll":
            return bool(fp.liu_layland(np.array(c), np.array(t))[0])
        raise AnalysisInputError(f"unknown P-FP admission test {test!r}")
    return fits


def partition(tasks: Sequence[Task], m: int, heuristic: str = "first-fit",
              scheduler: str = "edf", fp_test: str = "rta") -> PartitionResult:
    """Partition `tasks` on `m` cores with `heuristic` (decreasing order) for
    `scheduler` in {"edf", "fp"}."""
    if heuristic not in HEURISTICS:
        raise AnalysisInputError(f"unknown heuristic {heuristic!r}; choose from {HEURISTICS}")
    if m < 1:
        raise AnalysisInputError(f"m must be >= 1, got {m}")
    a = as_arrays(tasks, constrained=True)
    fits = _edf_fits if scheduler == "edf" else _fp_fits(fp_test)
    if scheduler not in ("edf", "fp"):
        raise AnalysisInputError(f"unknown scheduler {scheduler!r}; use 'edf' or 'fp'")
    dens = [Fraction(int(c), int(min(d, t))) for c, t, d in zip(a.C, a.T, a.D, strict=True)]
    order = sorted(range(a.n), key=lambda i: (-dens[i], i))   # exact: ties to lowest index
    bins: list[list[int]] = [[] for _ in range(m)]
    load = [Fraction(0)] * m
    cur = 0
    mapping: dict[str, int] = {}
    for i in order:
        def ok(b: int, i: int = i) -> bool:
            idx = bins[b] + [i]
            return fits([int(a.C[j]) for j in idx], [int(a.T[j]) for j in idx],
                        [int(a.D[j]) for j in idx])
        chosen = None
        if heuristic == "first-fit":
            chosen = next((b for b in range(m) if ok(b)), None)
        elif heuristic == "next-fit":
            while cur < m and not ok(cur):
                cur += 1
            chosen = cur if cur < m else None
        else:
            cands = [b for b in range(m) if ok(b)]
            if cands:
                sign = -1 if heuristic == "best-fit" else 1
                chosen = min(cands, key=lambda b: (sign * load[b], b))
        if chosen is None:
            return PartitionResult(None, a.names[i])
        bins[chosen].append(i)
        load[chosen] += dens[i]
        mapping[a.names[i]] = chosen
    return PartitionResult(mapping, None)


def partition_batch(C: np.ndarray, T: np.ndarray, m: int, heuristic: str = "first-fit",
                    scheduler: str = "edf") -> tuple[np.ndarray, np.ndarray]:
    """Vectorised partitioning of implicit-deadline sets (S, n).

    Admission is U <= 1 per core for "edf" (exact) and the hyperbolic bound for "fp"
    (sufficient). Returns (core (S, n) with -1 for unplaced, ok (S,)). Verdicts and
    tie-breaks are exact: float64 loads decide what is clear by more than a bound on their
    rounding error (1e-12 * n), rationals decide the rest (a core loaded to exactly U = 1
    accepts; best-/worst-fit ties go to the lowest index; issue 10)."""
    if heuristic not in HEURISTICS:
        raise AnalysisInputError(f"unknown heuristic {heuristic!r}; choose from {HEURISTICS}")
    if scheduler not in ("edf", "fp"):
        raise AnalysisInputError(f"unknown scheduler {scheduler!r}; use 'edf' or 'fp'")
    if m < 1:
        raise AnalysisInputError(f"m must be >= 1, got {m}")
    C, T, _ = validated(C, T, None)
    S, n = C.shape
    u = C / T
    order = _decreasing(C, T)
    us = np.take_along_axis(u, order, axis=1)
    rows = np.arange(S)
    edf_ = scheduler == "edf"
    load = np.zeros((S, m)) if edf_ else np.ones((S, m))    # fp: product of (1 + u)
    cap = 1.0 if edf_ else 2.0
    tol = 1e-12 * (n + 1)
    core = np.full((S, n), -1, dtype=np.int64)
    ok = np.ones(S, dtype=bool)
    cur = np.zeros(S, dtype=np.int64)

    def exact(s: int, b: int, extra: int | None) -> Fraction:
        js = [j for j in range(n) if core[s, j] == b] + ([extra] if extra is not None else [])
        if edf_:
            return sum((Fraction(int(C[s, j]), int(T[s, j])) for j in js), Fraction(0))
        out = Fraction(1)
        for j in js:
            out *= 1 + Fraction(int(C[s, j]), int(T[s, j]))
        return out

    for k in range(n):
        x = us[:, k:k + 1]
        new = load + x if edf_ else load * (1.0 + x)
        fits = new <= cap
        for s, b in np.argwhere((np.abs(new - cap) <= tol) & ok[:, None]):
            fits[s, b] = exact(int(s), int(b), int(order[s, k])) <= cap
        if heuristic == "next-fit":
            fits &= np.arange(m)[None, :] >= cur[:, None]
        if heuristic in ("first-fit", "next-fit"):
            pick = np.argmax(fits, axis=1)
        else:
            best = heuristic == "best-fit"
            key = np.where(fits, load, -np.inf) if best else np.where(fits, -load, -np.inf)
            pick = np.argmax(key, axis=1)
            top = key[rows, pick][:, None]
            with np.errstate(invalid="ignore"):               # -inf - -inf: no fit at all
                close = fits & (np.abs(key - top) <= tol)
            for s in np.flatnonzero((close.sum(axis=1) > 1) & ok):
                cands = np.flatnonzero(close[s]).tolist()
                ex = {b: exact(int(s), b, None) for b in cands}
                pick[s] = min(cands, key=lambda b, s=s: (-ex[b] if best else ex[b], b))
        if heuristic == "next-fit":
            cur = np.where(fits.any(axis=1), pick, cur)
        placed = fits[rows, pick] & ok
        ok &= fits.any(axis=1)
        load[rows[placed], pick[placed]] = new[rows[placed], pick[placed]]
        core[rows[placed], order[placed, k]] = pick[placed]
    return core, ok


def _decreasing(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Per set, task indices by decreasing utilization C/T, ties by lowest index, compared
    exactly (cross-multiplied in Python ints where floats cannot tell two apart)."""
    u = C / T
    order = np.argsort(-u, axis=1, kind="stable")
    us = np.take_along_axis(u, order, axis=1)
    near = (np.abs(np.diff(us, axis=1)) <= 1e-12 * us[:, 1:]).any(axis=1) if u.shape[1] > 1 \
        else np.zeros(u.shape[0], dtype=bool)
    for s in np.flatnonzero(near):
        order[s] = sorted(range(u.shape[1]),
                          key=lambda i, s=s: (-Fraction(int(C[s, i]), int(T[s, i])), i))
    return order
