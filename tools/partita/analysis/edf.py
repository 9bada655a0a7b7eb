"""Uniprocessor EDF: utilization/density bounds, processor demand, QPA.

- Utilization test U <= 1: exact for implicit deadlines (Liu & Layland, J. ACM 1973).
- Density test sum C_i / min(D_i, T_i) <= 1: sufficient for any deadlines.
- Processor-demand criterion (Baruah, Rosier & Howell, Real-Time Systems 2(4), 1990):
  schedulable iff U <= 1 and h(t) = sum_i max(0, floor((t - D_i)/T_i) + 1) C_i <= t for every
  absolute deadline t < L, with L = min(L_a, L_b) (George, Rivierre & Spuri, INRIA RR-2966,
  1996; Zhang & Burns 2009):
      L_a = max(D_1..D_n, sum_i (T_i - D_i) U_i / (1 - U))   (only if U < 1)
      L_b = synchronous busy period: w = sum_i ceil(w / T_i) C_i.
- QPA, Quick convergence Processor-demand Analysis (Zhang & Burns, "Schedulability analysis
  for real-time systems with EDF scheduling", IEEE TC 58(9), 2009, Theorem 5 / Fig. 2):
      t = max{d < L};  while h(t) <= t and h(t) > d_min:  t = h(t) if h(t) < t else
      max{d < t};  schedulable iff h(t) <= d_min.
  Exact for sporadic sets with arbitrary deadlines (no jitter, no blocking).
- Response-time analysis (Spuri, "Analysis of deadline scheduled real-time systems", INRIA
  RR-2772, 1996, no jitter): with L the synchronous busy period, for every candidate offset
  a in A_i = {k T_j + D_j - D_i >= 0} below L, the job of task i released at a (with
  floor(a/T_i) earlier jobs of i released in the busy period) completes at the least fixed
  point of
      t = (1 + floor(a/T_i)) C_i + sum_{j != i, D_j <= a + D_i}
              min(ceil(t/T_j), 1 + floor((a + D_i - D_j)/T_j)) C_j
  and R_i = max_a max(C_i, t(a) - a). Ties of absolute deadline are counted against task i.
  Per-task worst-case response times; all R_i <= D_i iff the set is EDF-schedulable.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from partita.analysis.errors import (
    INT64_SAFE,
    AnalysisInputError,
    as_arrays,
    batch2d,
    one_set,
    validated,
)
from partita.analysis.result import Result
from partita.model import Task

_BIG = np.int64(1) << np.int64(62)


def utilization_test(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """sum C/T <= 1 per set (exact for implicit deadlines)."""
    C, T = batch2d(C), batch2d(T)
    return (C / T).sum(axis=1) <= 1.0


def density_test(C: np.ndarray, T: np.ndarray, D: np.ndarray) -> np.ndarray:
    """sum C/min(D, T) <= 1 per set (sufficient)."""
    C, T, D = batch2d(C), batch2d(T), batch2d(D)
    return (C / np.minimum(D, T)).sum(axis=1) <= 1.0


def dbf(C: np.ndarray, T: np.ndarray, D: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Demand h(t) per set: C, T, D (S, n), t (S,) -> (S,)."""
    k = (t[:, None] - D) // T + 1
    return (np.maximum(k, 0) * C).sum(axis=1)


def _exact_u_le_1(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """U <= 1 decided without float error when it is close to 1."""
    C, T = batch2d(C), batch2d(T)
    u = (C / T).sum(axis=1)
    out = u <= 1.0
    close = np.abs(u - 1.0) < 1e-9
    for s in np.nonzero(close)[0]:
        from fractions import Fraction
        out[s] = sum(Fraction(int(c), int(t)) for c, t in zip(C[s], T[s], strict=True)) <= 1
    return out


def bound_L(C: np.ndarray, T: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Upper end of the deadlines to check, min(L_a, L_b); sets with U > 1 get 0."""
    C, T, D = batch2d(C), batch2d(T), batch2d(D)
    u = (C / T).sum(axis=1)
    ok = _exact_u_le_1(C, T)
    # L_b: synchronous busy period (converges when U <= 1)
    w = C.sum(axis=1)
    live = np.nonzero(ok)[0]
    while live.size:
        nw = (-(-w[live, None] // T[live]) * C[live]).sum(axis=1)
        same = nw == w[live]
        w[live] = nw
        live = live[~same]
    Lb = np.where(ok, w, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        la = ((T - D) * (C / T)).sum(axis=1) / (1.0 - u)
    La = np.maximum(D.max(axis=1), np.where(u < 1.0, np.ceil(np.nan_to_num(la)), _BIG))
    La = np.where(u < 1.0 - 1e-12, La, _BIG).astype(np.int64)
    return np.where(ok, np.minimum(La, Lb), 0)


def _max_deadline_below(T: np.ndarray, D: np.ndarray, t: np.ndarray) -> np.ndarray:
    """max{k T_i + D_i < t} per set; -1 if none."""
    k = (t[:, None] - 1 - D) // T
    d = np.where(k >= 0, k * T + D, -1)
    return d.max(axis=1)


def qpa_batch(C: np.ndarray, T: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Exact EDF verdict per set by QPA (Zhang & Burns 2009), vectorised in lock step."""
    C, T, D = validated(C, T, D)
    S = C.shape[0]
    L = bound_L(C, T, D)
    ok_u = _exact_u_le_1(C, T)
    dmin = D.min(axis=1)
    res = np.zeros(S, dtype=bool)
    t = _max_deadline_below(T, D, L)
    live = np.nonzero(ok_u)[0]
    # no deadline below L: nothing to check
    nothing = t[live] < 0
    res[live[nothing]] = True
    live = live[~nothing]
    while live.size:
        Cl, Tl, Dl, tl = C[live], T[live], D[live], t[live]
        h = dbf(Cl, Tl, Dl, tl)
        cont = (h <= tl) & (h > dmin[live])
        stop = ~cont
        res[live[stop]] = h[stop] <= dmin[live[stop]]
        nt = np.where(h < tl, h, _max_deadline_below(Tl, Dl, tl))
        t[live] = nt
        live = live[cont]
    return res


def _u_exact(C: Sequence[int], T: Sequence[int]) -> Fraction | float:
    """Total utilization: a float when it is clearly away from 1, else exact."""
    u = 0.0
    for c, t in zip(C, T, strict=True):
        u += c / t
    if abs(u - 1.0) <= 1e-9:
        return sum((Fraction(c, t) for c, t in zip(C, T, strict=True)), Fraction(0))
    return u


def qpa_check(C: Sequence[int], T: Sequence[int], D: Sequence[int]) -> tuple[bool, str, int]:
    """Scalar QPA on Python ints (any deadlines): (verdict, reason, h(t) evaluations).

    The same algorithm as `qpa_batch` with L = L_a (U < 1) or the synchronous busy period
    (U = 1); both bound the deadlines to check (George, Rivierre & Spuri 1996)."""
    u = _u_exact(C, T)
    if u > 1:
        return False, f"utilization {float(u):.6f} > 1", 0
    tasks = list(zip(C, T, D, strict=True))
    if all(d >= t for _, t, d in tasks):
        return True, "U <= 1 and every D >= T", 0
    if u < 1:
        # L_a = max(D_max, sum (T - D) U / (1 - U)), rounded up with a margin: a larger L is
        # still a valid horizon, it only adds points that QPA skips over.
        la = sum((t - d) * c / t for c, t, d in tasks) / (1.0 - float(u))
        L = max(max(D), int(la * (1 + 1e-9)) + 2)
    else:
        w = sum(C)
        while True:
            nw = sum(-(-w // t) * c for c, t, _ in tasks)
            if nw == w:
                break
            w = nw
        L = w
    dmin = min(D)

    def below(x: int) -> int:           # largest absolute deadline < x, or -1
        best = -1
        for _, t, d in tasks:
            if d < x:
                v = (x - 1 - d) // t * t + d
                if v > best:
                    best = v
        return best

    t = below(L)
    evals = 0
    while t >= 0:
        h = 0
        for c, p, d in tasks:
            if d <= t:
                h += ((t - d) // p + 1) * c
        evals += 1
        if h > t:
            return False, f"demand {h} > {t} in [0, {t}]", evals
        if h <= dmin:
            break
        t = h if h < t else below(t)
    return True, "QPA: demand <= supply at every deadline", evals


def qpa_exact(C: Sequence[int], T: Sequence[int], D: Sequence[int]) -> bool:
    """Exact EDF verdict of one set of Python ints (no validation: internal fast path)."""
    return qpa_check(C, T, D)[0]


def qpa_set(C: Sequence[int] | np.ndarray, T: Sequence[int] | np.ndarray,
            D: Sequence[int] | np.ndarray | None = None, m: int = 1) -> Result:
    """Exact uniprocessor EDF test of one set (QPA) as a `Result` (no per-task bounds)."""
    c, t, d = one_set(C, T, D, m, uniproc=True)
    ok, why, _ = qpa_check(c, t, d)
    return Result(ok, None, why, "edf-qpa")


def pdc_batch(C: np.ndarray, T: np.ndarray, D: np.ndarray, max_points: int = 2_000_000
              ) -> np.ndarray:
    """Exact EDF verdict by checking h(t) <= t at every absolute deadline < L (reference
    implementation for testing QPA; cost grows with L / min T)."""
    C, T, D = (batch2d(x).astype(np.int64) for x in (C, T, D))
    L = bound_L(C, T, D)
    ok_u = _exact_u_le_1(C, T)
    out = np.zeros(C.shape[0], dtype=bool)
    for s in range(C.shape[0]):
        if not ok_u[s]:
            continue
        pts = []
        for _c, tt, d in zip(C[s], T[s], D[s], strict=True):
            if d < L[s]:
                pts.append(np.arange(d, L[s], tt))
        if not pts:
            out[s] = True
            continue
        ts = np.unique(np.concatenate(pts))
        if ts.size > max_points:
            raise AnalysisInputError(f"set {s}: {ts.size} deadlines to check; too many")
        h = ((np.maximum((ts[:, None] - D[s]) // T[s] + 1, 0)) * C[s]).sum(axis=1)
        out[s] = bool((h <= ts).all())
    return out


def qpa(tasks: Sequence[Task]) -> bool:
    """Exact EDF schedulability of `Task` models (jitter not supported: must be 0)."""
    a = as_arrays(tasks)
    for name, j in zip(a.names, a.J, strict=True):
        if j:
            raise AnalysisInputError(f"task {name}: jitter_ns is not supported by the EDF test")
    return bool(qpa_batch(a.C, a.T, a.D)[0])


def busy_period(C: Sequence[int], T: Sequence[int]) -> int | None:
    """Length of the synchronous busy period, the least w = sum_j ceil(w / T_j) C_j from
    w = sum C (Python ints, exact), or None if U > 1 (it has no end)."""
    if _u_exact(C, T) > 1:
        return None
    w = sum(C)
    while True:
        nw = sum(-(-w // t) * c for c, t in zip(C, T, strict=True))
        if nw == w:
            return w
        w = nw


def rta_one(C: Sequence[int], T: Sequence[int], D: Sequence[int], i: int,
            max_points: int = 200_000, stats: dict[str, int] | None = None) -> int | None:
    """Worst-case EDF response time of task i (Spuri 1996, exact integers); None if the
    set's utilization exceeds 1 (no finite busy period).

    All candidate offsets a in [0, L) are iterated in lock step (numpy), and an offset is
    dropped as soon as its upper bound min(L, own(a) + sum_j k_j(a) C_j) - a (all jobs with a
    deadline <= a + D_i) cannot beat the best lower bound t(a') - a' found so far (iterates
    from below are lower bounds). Same result as the plain per-offset loop, which took 12 s
    per set at n = 20, U = 0.99 (issue 10). `stats` (if given) receives the work done:
    offsets, rounds of the lock step, and evaluated (offset, round) pairs."""
    C, T, D = [int(x) for x in C], [int(x) for x in T], [int(x) for x in D]
    L = busy_period(C, T)
    if L is None:
        return None
    n = len(C)
    pts = []
    count = 0
    for j in range(n):
        a = D[j] - D[i]
        if a < 0:
            a += (-a + T[j] - 1) // T[j] * T[j]
        if a < L:
            count += (L - 1 - a) // T[j] + 1
            if count > max_points:
                raise AnalysisInputError(
                    f"EDF RTA: more than {max_points} offsets to check (busy period {L} ns)")
            pts.append(np.arange(a, L, T[j], dtype=np.int64) if L < INT64_SAFE else
                       np.array(range(a, L, T[j]), dtype=object))
    A = np.unique(np.concatenate(pts)) if pts else np.zeros(0, dtype=np.int64)
    others = [j for j in range(n) if j != i]
    Ci, Ti, Di = C[i], T[i], D[i]
    Co, To, Do = (np.array([x[j] for j in others], dtype=A.dtype if A.size else np.int64)
                  for x in (C, T, D))
    if n * (L + max(T) + max(D)) >= INT64_SAFE:       # sums of up to n terms of size ~L
        A, Co, To, Do = (x.astype(object) for x in (A, Co, To, Do))
    dl = A + Di
    own = (1 + A // Ti) * Ci
    K = np.maximum((dl[:, None] - Do[None, :]) // To[None, :] + 1, 0)   # jobs with d <= dl
    KC = K * Co[None, :]
    ub = np.minimum(own + KC.sum(axis=1), L) - A
    t = own + np.where(K > 0, Co[None, :], 0).sum(axis=1)
    best = Ci
    live = np.flatnonzero(ub > best)
    rounds = evaluated = 0
    while live.size:
        rounds += 1
        evaluated += live.size
        tl = t[live]
        nt = own[live] + np.minimum(-(-tl[:, None] // To[None, :]), K[live]).dot(Co) \
            if A.dtype != object else \
            own[live] + (np.minimum(-(-tl[:, None] // To[None, :]), K[live]) * Co).sum(axis=1)
        t[live] = nt
        r = nt - A[live]
        best = max(best, int(r.max()))
        keep = (nt != tl) & (ub[live] > best)
        live = live[keep]
    if stats is not None:
        stats.update(offsets=int(A.size), rounds=rounds, evaluated=evaluated)
    return best


def rta_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """EDF on one processor: verdict by QPA (exact, fast), per-task bounds by Spuri's RTA
    (exact, sporadic, no jitter) when U <= 1."""
    c, t, d = one_set(C, T, D, m, uniproc=True)
    ok, why, _ = qpa_check(c, t, d)
    if _u_exact(c, t) > 1:
        return Result(False, None, why, "edf-rta")
    return Result(ok, tuple(rta_one(c, t, d, i) for i in range(len(c))), why, "edf-rta")


def rta(tasks: Sequence[Task]) -> list[int | None]:
    """Spuri's EDF response-time bound of every task (in the order given); jitter must be 0."""
    a = as_arrays(tasks)
    for name, j in zip(a.names, a.J, strict=True):
        if j:
            raise AnalysisInputError(f"task {name}: jitter_ns is not supported by the EDF test")
    C, T, D = (list(map(int, x)) for x in (a.C, a.T, a.D))
    return [rta_one(C, T, D, i) for i in range(a.n)]
