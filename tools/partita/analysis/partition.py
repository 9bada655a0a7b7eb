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

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from partita.analysis import edf, fp
from partita.analysis.errors import AnalysisInputError, as_arrays, one_set, validated
from partita.analysis.result import Result
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
    """Exact uniprocessor EDF admission (U <= 1 when every D >= T, else QPA)."""
    return edf.qpa_exact(C, T, D)


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


@dataclass(frozen=True, slots=True)
class Placement:
    """Outcome of `place`: `cores[i]` for every task placed (-1: not placed), `failed` the
    index of the first task (in packing order) that fit on no core, `loads` the density per
    core at the end or at the failure (float, for messages; decisions are exact)."""

    cores: list[int]
    failed: int | None
    loads: list[float]


_TOL = 1e-12  # relative margin under which float loads are re-decided in rationals


def place(C: Sequence[int] | np.ndarray, T: Sequence[int] | np.ndarray,
          D: Sequence[int] | np.ndarray | None = None, m: int = 1,
          heuristic: str = "first-fit", scheduler: str = "edf", fp_test: str = "rta",
          fixed: Sequence[int] | None = None) -> Placement:
    """Bin packing of one set (integer ns, any deadlines for EDF) on cores 0..m-1.

    Tasks with `fixed[i] >= 0` are put on that core first (in input order, without test);
    the others go in decreasing density C/min(D, T), then utilization, then lowest index,
    compared exactly. Admission is exact per core (EDF: U <= 1 when every D >= T, QPA
    otherwise; FP: `fp_test` with DM priorities). Best-fit takes the passing core
    with the highest density load, worst-fit the lowest; ties go to the lowest index."""
    if heuristic not in HEURISTICS:
        raise AnalysisInputError(f"unknown heuristic {heuristic!r}; choose from {HEURISTICS}")
    if scheduler not in ("edf", "fp"):
        raise AnalysisInputError(f"unknown scheduler {scheduler!r}; use 'edf' or 'fp'")
    if m < 1:
        raise AnalysisInputError(f"m must be >= 1, got {m}")
    c_, t_, d_ = one_set(C, T, D, m)
    n = len(c_)
    util = [c / t for c, t in zip(c_, t_, strict=True)]
    implicit = D is None or all(d >= t for d, t in zip(d_, t_, strict=True))
    if implicit:
        dmin, dens = t_, util
    else:
        dmin = [d if d < t else t for d, t in zip(d_, t_, strict=True)]
        dens = [c / d for c, d in zip(c_, dmin, strict=True)]
    free = range(n) if fixed is None else [i for i in range(n) if fixed[i] < 0]
    # stable sort, so equal floats keep the lowest index first; floats too close to order
    # safely (or equal, where the secondary key counts) are re-sorted in rationals
    order = sorted(free, key=dens.__getitem__, reverse=True)
    # Correct rounding is monotone, so distinct floats of single quotients are ordered
    # right; only equal floats (equal or very close rationals) need rationals.
    if len(set(dens)) < n:
        order.sort(key=lambda i: (-Fraction(c_[i], dmin[i]), -Fraction(c_[i], t_[i]), i))
    # D >= T everywhere (implicit deadlines): EDF admission is U <= 1, decided on float loads
    # with a rational fallback near 1; otherwise the core's whole set is tested.
    simple = scheduler == "edf" and implicit
    if simple and heuristic == "first-fit" and fixed is None:
        return _placement(_first_fit_u(c_, t_, util, order, m))
    fits_set = _edf_fits if scheduler == "edf" else _fp_fits(fp_test)
    bins: list[list[int]] = [[] for _ in range(m)]
    load = [0.0] * m                           # density per core (float filter)
    cores = [-1] * n
    if fixed is not None:
        for i in range(n):
            b = fixed[i]
            if b >= m:
                raise AnalysisInputError(f"task {i}: fixed core {b} >= m = {m}")
            if b >= 0:
                bins[b].append(i)
                load[b] += dens[i]
                cores[i] = b

    def exact_load(b: int) -> Fraction:
        return sum((Fraction(c_[j], dmin[j]) for j in bins[b]), Fraction(0))

    def ok(b: int, i: int) -> bool:
        if simple:
            x = load[b] + util[i]
            if x <= 1.0 - _TOL * (len(bins[b]) + 2):
                return True
            if x > 1.0 + _TOL * (len(bins[b]) + 2):
                return False
            return exact_load(b) + Fraction(c_[i], t_[i]) <= 1
        idx = bins[b] + [i]
        return fits_set([c_[j] for j in idx], [t_[j] for j in idx], [d_[j] for j in idx])

    cur = 0
    for i in order:
        chosen = -1
        if heuristic == "first-fit":
            for b in range(m):
                if ok(b, i):
                    chosen = b
                    break
        elif heuristic == "next-fit":
            while cur < m and not ok(cur, i):
                cur += 1
            chosen = cur if cur < m else -1
        else:
            cands = [b for b in range(m) if ok(b, i)]
            if cands:
                sign = -1.0 if heuristic == "best-fit" else 1.0
                chosen = min(cands, key=lambda b: (sign * load[b], b))
                lo = sign * load[chosen]
                near = [b for b in cands
                        if abs(sign * load[b] - lo) <= _TOL * (n + 1) and bins[b]]
                if len(near) > 1:   # two non-empty cores too close to tell (empty = 0 exactly)
                    chosen = min(near, key=lambda b: (int(sign) * exact_load(b), b))
        if chosen < 0:
            return Placement(cores, i, load)
        bins[chosen].append(i)
        load[chosen] += dens[i]
        cores[i] = chosen
    return Placement(cores, None, load)


def _fits_exactly(c_: list[int], t_: list[int], cores: list[int], b: int, i: int) -> bool:
    """U <= 1 on core b with task i added, in rationals."""
    tot = Fraction(c_[i], t_[i])
    for j, cj in enumerate(cores):
        if cj == b:
            tot += Fraction(c_[j], t_[j])
    return tot <= 1


def _first_fit_u(c_: list[int], t_: list[int], util: list[float], order: list[int], m: int
                 ) -> tuple[list[int], int | None, list[float]]:
    """The hot path of `place` (P-EDF first-fit, every D >= T), kept small: a core whose
    float load stays below 1 - 1e-9 accepts (float error is < 1e-13 here), above 1 + 1e-9
    rejects, and anything in between is decided in rationals."""
    room = [1.0 - 1e-9] * m          # 1 - 1e-9 - (float load): the margin is >> its error
    cores = [-1] * len(c_)
    for i in order:
        ui = util[i]
        b = 0
        for r in room:
            if ui <= r or (ui <= r + 2e-9 and _fits_exactly(c_, t_, cores, b, i)):
                break
            b += 1
        else:
            return cores, i, room
        room[b] -= ui
        cores[i] = b
    return cores, None, room


def _placement(r: tuple[list[int], int | None, list[float]]) -> Placement:
    return Placement(r[0], r[1], [1.0 - 1e-9 - x for x in r[2]])


def _fast_ff(C: list[int], T: list[int], m: int
             ) -> tuple[list[int], int | None, list[float]] | None:
    """P-EDF first-fit of an implicit-deadline set given as lists of ints, with validation
    folded into the work (None: not that case or bad input; `place` then says why)."""
    if m < 1 or not C or len(C) != len(T) or set(map(type, C + T)) != {int} or \
            min(C) <= 0 or min(T) <= 0:
        return None
    util = list(map(operator.truediv, C, T))
    top = max(util)
    if top > 1.0 or (top == 1.0 and not all(map(operator.le, C, T))):
        return None                                     # some C > T (= D): `place` names it
    order = sorted(range(len(C)), key=util.__getitem__, reverse=True)
    if len(set(util)) < len(C):
        # equal floats: the stable sort left them by index, right when their rationals are
        # equal too; rationals order them only when they differ (rare)
        for a, b in zip(order, order[1:]):  # noqa: B905 (one shorter by design)
            if util[a] == util[b] and C[a] * T[b] != C[b] * T[a]:
                order.sort(key=lambda i: (-Fraction(C[i], T[i]), i))
                break
    return _first_fit_u(C, T, util, order, m)


def pack(C: Sequence[int] | np.ndarray, T: Sequence[int] | np.ndarray,
         D: Sequence[int] | np.ndarray | None = None, m: int = 1,
         heuristic: str = "first-fit", scheduler: str = "edf", fp_test: str = "rta"
         ) -> Result:
    """`place` as a `Result`: schedulable iff every task was placed; `cores` the mapping."""
    if heuristic == "first-fit" and scheduler == "edf" and type(C) is list and \
            type(T) is list and (D is None or D is T or (type(D) is list and D == T)):
        r = _fast_ff(C, T, m)
        if r is not None:
            if r[1] is None:
                return Result(True, None, "all tasks placed", "pedf-first-fit", tuple(r[0]))
            return Result(False, None, f"task {r[1]} fits on no core", "pedf-first-fit")
    name = f"p{scheduler}-{heuristic}"
    p = place(C, T, D, m, heuristic, scheduler, fp_test)
    if p.failed is None:
        return Result(True, None, "all tasks placed", name, tuple(p.cores))
    return Result(False, None, f"task {p.failed} fits on no core", name, None)


def partition(tasks: Sequence[Task], m: int, heuristic: str = "first-fit",
              scheduler: str = "edf", fp_test: str = "rta") -> PartitionResult:
    """Partition `tasks` on `m` cores with `heuristic` (decreasing order) for
    `scheduler` in {"edf", "fp"} (D <= T; see `place` for arbitrary deadlines)."""
    a = as_arrays(tasks, constrained=True)
    p = place(a.C, a.T, a.D, m, heuristic, scheduler, fp_test)
    if p.failed is not None:
        return PartitionResult(None, a.names[p.failed])
    return PartitionResult({a.names[i]: p.cores[i] for i in range(a.n)}, None)


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
            # an empty core's load is exactly 0 (no rounding), and a non-empty one's float is
            # > 0: only two non-empty cores too close to order need rationals
            close &= load > (0.0 if edf_ else 1.0)
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
