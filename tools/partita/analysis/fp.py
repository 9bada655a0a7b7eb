"""Uniprocessor fixed-priority scheduling: response-time analysis and utilization bounds.

Priorities follow the array order (index 0 = highest) unless tasks carry `priority`
(0 = highest, ties broken by input order). Times are integer ns.

- Preemptive RTA with blocking B and release jitter J (Joseph & Pandya, "Finding response
  times in a real-time system", Computer Journal 29(5), 1986; Audsley, Burns, Richardson,
  Tindell & Wellings, "Applying new scheduling theory to static priority pre-emptive
  scheduling", Software Engineering Journal 8(5), 1993; arbitrary deadlines by the level-i
  busy period of Tindell, Burns & Wellings, Real-Time Systems 6(2), 1994):
      w = B_i + q C_i + sum_{j in hp(i)} ceil((w + J_j) / T_j) C_j
      R_i = max_q (w_q + J_i - q T_i)
  Exact (necessary and sufficient) for synchronous/sporadic sets with B = J = 0.
- Non-preemptive RTA (Davis, Burns, Bril & Lukkien, "Controller Area Network (CAN)
  schedulability analysis: refuted, revisited and revised", Real-Time Systems 35(3), 2007),
  in discrete time (a lower-priority job can start 1 ns before the critical instant):
      B_i = max(max_{k in lp(i)} C_k - 1, 0)
      t_i = B_i + sum_{j in hep(i)} ceil(t_i / T_j) C_j            (level-i active period)
      w_q = B_i + q C_i + sum_{j in hp(i)} (floor((w_q + J_j) / T_j) + 1) C_j
      R_i = max_{q < ceil((t_i + J_i)/T_i)} (w_q + C_i + J_i - q T_i)
- Liu & Layland bound U <= n (2^(1/n) - 1) (J. ACM 20(1), 1973) and the hyperbolic bound
  prod (U_i + 1) <= 2 (Bini, Buttazzo & Buttazzo, IEEE TC 52(7), 2003): sufficient, for
  implicit deadlines under rate-monotonic priorities.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from partita.analysis.errors import (
    AnalysisInputError,
    TaskArrays,
    as_arrays,
    batch2d,
    one_set,
    validated,
)
from partita.analysis.result import Result
from partita.model import Task

#: Response time marker for "no bound found below the limit" in array results.
UNBOUNDED = -1


@dataclass(frozen=True)
class RtaResult:
    """Per-task response-time bounds (None = exceeds the deadline / diverges)."""

    names: list[str]
    bounds_ns: list[int | None]
    deadlines_ns: list[int]

    @property
    def schedulable(self) -> bool:
        return all(b is not None and b <= d
                   for b, d in zip(self.bounds_ns, self.deadlines_ns, strict=True))


def priority_order(tasks: Sequence[Task]) -> list[int]:
    """Indices sorted by priority (0 highest); tasks without priority keep deadline-monotonic
    order after the prioritised ones."""
    def key(i: int) -> tuple[int, int, int]:
        p = tasks[i].priority
        return (0 if p is not None else 1, p if p is not None else tasks[i].d, i)
    return sorted(range(len(tasks)), key=key)


# --------------------------------------------------------------- scalar (exact ints)


def _util(C: Sequence[int], T: Sequence[int], k: int) -> float | Fraction:
    """Utilization of the first k tasks; exact (Fraction) only when it is close to 1."""
    u = sum(C[j] / T[j] for j in range(k))
    return sum(Fraction(C[j], T[j]) for j in range(k)) if abs(u - 1.0) < 1e-9 else u


def _ceil(a: int, b: int) -> int:
    return -((-a) // b)


HORIZON = 1 << 62  # no busy period is followed past this (ns): the analysis says "unbounded"


def rta_one(C: Sequence[int], T: Sequence[int], D: Sequence[int], i: int,
            J: Sequence[int] | None = None, B: int = 0, limit: int | None = None
            ) -> int | None:
    """Preemptive FP response time of task i (tasks 0..i-1 have higher priority).

    Handles D > T through the level-i busy period. Returns None ("unbounded") if a response
    (jitter included) exceeds `limit` (default: the deadline D_i), or the level-i utilization
    is above 1, or exactly 1 with blocking or release jitter (the busy period need not end),
    or the busy period passes 2^62. Every loop is bounded by these."""
    J = [0] * len(C) if J is None else J
    lim = D[i] if limit is None else limit
    u = _util(C, T, i + 1)
    if u > 1 or (u == 1 and (B > 0 or any(J[j] > 0 for j in range(i + 1)))):
        return None
    worst = 0
    q = 0
    while True:
        w = B + (q + 1) * C[i]
        while True:
            nw = B + (q + 1) * C[i] + sum(_ceil(w + J[j], T[j]) * C[j] for j in range(i))
            if nw == w:
                break
            w = nw
            if w + J[i] - q * T[i] > lim:
                return None
        r = w + J[i] - q * T[i]
        if r > lim:  # also for a job whose fixed point needed no iteration
            return None
        worst = max(worst, r)
        if w + J[i] <= (q + 1) * T[i]:  # busy period ends before the next release
            return worst
        if w > HORIZON:
            return None
        q += 1


def rta(tasks: Sequence[Task], blocking_ns: Sequence[int] | None = None) -> RtaResult:
    """Preemptive FP RTA of `Task` models, ordered by `priority` (see module doc)."""
    order = priority_order(tasks)
    a = as_arrays([tasks[i] for i in order])
    B = [0] * a.n if blocking_ns is None else [int(blocking_ns[i]) for i in order]
    bounds = [rta_one(a.C.tolist(), a.T.tolist(), a.D.tolist(), k, a.J.tolist(), B[k])
              for k in range(a.n)]
    return _reorder(a, order, bounds)


def _rta_constrained(c: list[int], t: list[int], d: list[int]) -> tuple[int | None, ...]:
    """`rta_one` of every task for D <= T, J = B = 0 (then only the first job matters and
    the iteration stops above D): the fixed point of task k starts at R_{k-1} + C_k, a lower
    bound (task k runs only once task k-1's first job is done, at R_{k-1}; Sjodin & Hansson,
    "Improved response-time analysis calculations", RTSS 1998)."""
    out: list[int | None] = []
    prev = 0
    for k in range(len(c)):
        ck, dk = c[k], d[k]
        hc, ht = c[:k], t[:k]
        w = prev + ck
        while w <= dk:
            nw = ck
            for cj, tj in zip(hc, ht, strict=True):
                nw += -(-w // tj) * cj
            if nw == w:
                break
            w = nw
        if w > dk:
            out.append(None)
            prev = sum(hc) + ck        # no bound: restart the next task from its own sum
        else:
            out.append(w)
            prev = w
    return tuple(out)


def rta_set(C: object, T: object, D: object | None = None, m: int = 1,
            J: Sequence[int] | None = None, B: Sequence[int] | None = None) -> Result:
    """Preemptive FP RTA of one set in priority order (index 0 highest), any deadlines, with
    optional per-task release jitter J and blocking B, as a `Result` (bounds: None for a task
    whose response exceeds its deadline)."""
    c, t, d = one_set(C, T, D, m, uniproc=True)
    n = len(c)
    j = [0] * n if J is None else [int(x) for x in J]
    b = [0] * n if B is None else [int(x) for x in B]
    if len(j) != n or len(b) != n or min(j) < 0 or min(b) < 0:
        raise AnalysisInputError(f"J, B: {n} values >= 0 expected")
    if J is None and B is None and d is t or (not any(j) and not any(b) and
                                                all(map(operator.le, d, t))):
        bounds = _rta_constrained(c, t, d)
    else:
        bounds = tuple(rta_one(c, t, d, k, j, b[k]) for k in range(n))
    bad = [k for k, x in enumerate(bounds) if x is None]
    if not bad:
        return Result(True, bounds, "every response <= its deadline", "fp-rta")
    return Result(False, bounds, f"task {bad[0]}: no response bound <= its deadline "
                  f"{d[bad[0]]}", "fp-rta")


def np_rta_one(C: Sequence[int], T: Sequence[int], D: Sequence[int], i: int,
               J: Sequence[int] | None = None, limit: int | None = None) -> int | None:
    """Non-preemptive FP response time of task i (Davis et al. 2007, discrete time)."""
    n = len(C)
    J = [0] * n if J is None else J
    lim = D[i] if limit is None else limit
    B = max([C[k] - 1 for k in range(i + 1, n)] + [0])
    u = _util(C, T, i + 1)
    if u > 1 or (u == 1 and B > 0):      # level-i active period would not end
        return None
    t = B + C[i]
    while True:
        nt = B + sum(_ceil(t, T[j]) * C[j] for j in range(i + 1))
        if nt == t:
            break
        t = nt
        if t > 1 << 62:
            return None
    Q = _ceil(t + J[i], T[i])
    worst = 0
    for q in range(Q):
        w = B + q * C[i]
        while True:
            nw = B + q * C[i] + sum((((w + J[j]) // T[j]) + 1) * C[j] for j in range(i))
            if nw == w:
                break
            w = nw
            if w + C[i] + J[i] - q * T[i] > lim:
                return None
        worst = max(worst, w + C[i] + J[i] - q * T[i])
        if worst > lim:
            return None
    return worst


def np_rta(tasks: Sequence[Task]) -> RtaResult:
    """Non-preemptive FP RTA of `Task` models (Davis et al. 2007)."""
    order = priority_order(tasks)
    a = as_arrays([tasks[i] for i in order])
    bounds = [np_rta_one(a.C.tolist(), a.T.tolist(), a.D.tolist(), k, a.J.tolist())
              for k in range(a.n)]
    return _reorder(a, order, bounds)


def _reorder(a: TaskArrays, order: list[int], bounds: list[int | None]) -> RtaResult:
    back = [0] * len(order)
    for k, i in enumerate(order):
        back[i] = k
    return RtaResult([a.names[back[i]] for i in range(len(order))],
                     [bounds[back[i]] for i in range(len(order))],
                     [int(a.D[back[i]]) for i in range(len(order))])


# ------------------------------------------------------------ batch (vectorised)


def rta_batch(C: np.ndarray, T: np.ndarray, D: np.ndarray, J: np.ndarray | None = None,
              B: np.ndarray | None = None) -> np.ndarray:
    """Preemptive FP RTA over a batch of constrained-deadline sets (S, n) in priority order.

    All tasks of all sets iterate in lock step; a task stops when its fixed point is reached
    or its response exceeds D (then UNBOUNDED). Returns R (S, n) int64."""
    C, T, D = validated(C, T, D)
    if (D > T).any():
        raise AnalysisInputError("rta_batch supports D <= T only; use rta() for D > T")
    J = np.zeros_like(C) if J is None else batch2d(J).astype(np.int64)
    B = np.zeros_like(C) if B is None else batch2d(B).astype(np.int64)
    S, n = C.shape
    hp = np.tril(np.ones((n, n), dtype=bool), -1)            # hp[i, j]: j before i
    base = C + B
    w = base + (hp[None] * C[:, None, :]).sum(axis=2)        # first step: one job each
    R = np.full((S, n), UNBOUNDED, dtype=np.int64)
    live = np.arange(S)
    while live.size:
        Cl, Tl, Jl, wl = C[live], T[live], J[live], w[live]
        nw = base[live] + (
            -((-(wl[:, :, None] + Jl[:, None, :])) // Tl[:, None, :]) * Cl[:, None, :] * hp
        ).sum(axis=2)
        over = nw + Jl > D[live]
        done = (nw == wl) | over
        row_done = done.all(axis=1)
        fin = live[row_done]
        if fin.size:
            res = nw[row_done] + Jl[row_done]
            R[fin] = np.where(over[row_done], UNBOUNDED, res)
        # keep iterating rows with work left; freeze converged/over tasks by not caring
        w[live] = np.where(over, wl, nw)
        live = live[~row_done]
    return R


def rta_batch_schedulable(C: np.ndarray, T: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Verdict per set of `rta_batch` (priority = array order)."""
    return (rta_batch(C, T, D) != UNBOUNDED).all(axis=1)


def liu_layland(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """U <= n(2^(1/n) - 1) per set (sufficient for RM, implicit deadlines)."""
    C, T = batch2d(C), batch2d(T)
    n = C.shape[1]
    return (C / T).sum(axis=1) <= n * (2.0 ** (1.0 / n) - 1.0) + 1e-12


def hyperbolic(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """prod(U_i + 1) <= 2 per set (Bini et al. 2003; sufficient for RM, implicit D)."""
    C, T = batch2d(C), batch2d(T)
    return np.prod(C / T + 1.0, axis=1) <= 2.0 + 1e-12
