"""Global EDF on m identical processors: sufficient schedulability tests.

All tests take batches (S, n) of sporadic constrained-deadline tasks (D <= T) in integer ns
and return a verdict per set (and bounds for the RTA). None is exact: a rejected set may be
schedulable. Notation: U_i = C_i/T_i, lambda_i = C_i/D_i (density).

- GFB (Goossens, Funk & Baruah, "Priority-driven scheduling of periodic task systems on
  multiprocessors", Real-Time Systems 25(2), 2003), density form for D <= T (Bertogna,
  Cirinei & Lipari, ECRTS 2005):  sum lambda_i <= m (1 - lambda_max) + lambda_max.
- BAK (Baker, "Multiprocessor EDF and deadline monotonic schedulability analysis", RTSS
  2003), in the single-lambda form restated by Bertogna, Cirinei & Lipari (ECRTS 2005,
  Thm. 5): for every k, with lambda = lambda_k,
      sum_i min(1, beta_i) <= m (1 - lambda) + lambda,
      beta_i = U_i (1 + (T_i - D_i)/D_k) + [U_i > lambda] (C_i - lambda T_i) / D_k.
- BCL (Bertogna, Cirinei & Lipari, "Schedulability analysis of global scheduling
  algorithms on multiprocessor platforms", IEEE TPDS 20(4), 2009, Thm. 7, discrete time):
  for every k,  sum_{i != k} min(I_i^k, D_k - C_k + 1) < m (D_k - C_k + 1),  with
      I_i^k = N_i C_i + min(C_i, max(0, D_k - N_i T_i - S_i)),  N_i = floor((D_k - D_i)/T_i) + 1
  and slack S_i = 0.
- Iterative BCL (same paper, §6): slacks S_k = D_k - C_k - floor(sum_{i!=k} min(I_i^k,
  D_k - C_k + 1) / m) are computed for the tasks that pass and fed back into I until no
  slack changes; schedulable iff every task passes in the last round.
- RTA (Bertogna & Cirinei, "Response-time analysis for globally scheduled symmetric
  multiprocessor platforms", RTSS 2007, EDF variant): R_k is the least fixed point of
      R_k = C_k + floor( sum_{i!=k} min(I_i^k(R_k), R_k - C_k + 1) / m ),
      I_i^k(L) = min(W_i(L), E_i^k),  W_i(L) = N C_i + min(C_i, L + R_i - C_i - N T_i),
      N = floor((L + R_i - C_i)/T_i),  E_i^k = the BCL bound with slack S_i = D_i - R_i,
  iterated over all tasks from R = C until nothing changes; a task whose bound exceeds D is
  held at D (valid under the first-miss argument) and makes the set unschedulable.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from partita.analysis import _compiled
from partita.analysis.errors import (
    INT64_SAFE,
    AnalysisInputError,
    as_arrays,
    batch2d,
    one_set,
    validated,
    widen,
)
from partita.analysis.result import Result
from partita.model import Task

MAX_ROUNDS = 100_000


def _prep(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, test: str = "bak"
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    C, T, D = validated(C, T, D)
    if test != "gfb" and (D > T).any():
        s, i = np.argwhere(D > T)[0]
        raise AnalysisInputError(_arbitrary_msg(test, f"set {s}, task {i}", int(D[s, i]),
                                                int(T[s, i])))
    return C, T, D


def _arbitrary_msg(test: str, who: str, d: int, t: int) -> str:
    return (f"D: {who}: deadline {d} > period {t}: {test} is stated for constrained deadlines "
            "(D <= T) only; gfb accepts arbitrary deadlines")


def _check_m(m: int) -> None:
    if m < 1:
        raise AnalysisInputError(f"m must be >= 1, got {m}")


def gfb(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int) -> np.ndarray:
    """GFB density bound per set, any deadlines (density C / min(D, T))."""
    _check_m(m)
    C, T, D = _prep(C, T, D, "gfb")
    D = np.minimum(D, T)
    lam = C / D
    lmax = lam.max(axis=1)
    slack = m * (1.0 - lmax) + lmax - lam.sum(axis=1)
    ok = slack >= 0
    # Floats decide clear cases; near-ties (within 1e-9) are decided exactly in rationals
    # (issue 10: C=[2,1,16], T=D=[10,5,20], m=2 is an exact tie and must be accepted).
    for s in np.flatnonzero(np.abs(slack) < 1e-9):
        fr = [Fraction(int(c), int(d)) for c, d in zip(C[s], D[s], strict=True)]
        fmax = max(fr)
        ok[s] = sum(fr) <= m * (1 - fmax) + fmax
    return ok


def _bak_exact(C: np.ndarray, T: np.ndarray, D: np.ndarray, k: int, m: int) -> bool:
    """BAK's condition for task k of one set in rationals (the float form is only a filter)."""
    lam = Fraction(int(C[k]), int(D[k]))
    Dk = int(D[k])
    lhs = Fraction(0)
    for c, t, d in zip(C.tolist(), T.tolist(), D.tolist(), strict=True):
        u = Fraction(c, t)
        beta = u * (1 + Fraction(t - d, Dk))
        if u > lam:
            beta += (c - lam * t) / Dk
        lhs += min(beta, Fraction(1))
    return lhs <= m * (1 - lam) + lam


def bak(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int) -> np.ndarray:
    """BAK (Baker 2003, single-lambda form) per set; exact verdict: float64 decides the
    conditions whose margin exceeds a bound on their rounding error, rationals decide the
    others (issue 10: C=[2,1,16], T=D=[10,5,20], m=2 is an exact tie and is accepted).

    [U_i > lambda_k] (C_i - lambda_k T_i) = max(0, C_i - lambda_k T_i) (the bracket holds iff
    the difference is positive), so beta_i = U_i + (U_i (T_i - D_i) + max(0, C_i -
    lambda_k T_i)) / D_k is a continuous function of its operands and its float error is
    bounded by their magnitude: no separate decision of the bracket is needed."""
    _check_m(m)
    C, T, D = _prep(C, T, D)
    Cf, Tf, Df = C.astype(float), T.astype(float), D.astype(float)
    U = Cf / Tf
    lam = Cf / Df                                               # (S, n), lambda_k
    # k on axis 1, i on axis 2
    X = np.maximum(Cf[:, None, :] - lam[:, :, None] * Tf[:, None, :], 0.0)
    X += (U * (Tf - Df))[:, None, :]
    X /= Df[:, :, None]
    X += U[:, None, :]
    lhs = np.minimum(X, 1.0).sum(axis=2)
    rhs = m * (1.0 - lam) + lam
    # Every float operation errs by <= 2^-53 of its operands' magnitude; `mag` bounds the
    # magnitudes entering each condition, so 1e-12 * mag (> 1000 ulps of it) bounds the
    # error of lhs - rhs.
    mag = (U.sum(axis=1)[:, None] + (U * (Tf + Df)).sum(axis=1)[:, None] / Df
           + (Cf.sum(axis=1)[:, None] + lam * Tf.sum(axis=1)[:, None]) / Df + m + 1.0)
    ok = lhs <= rhs
    for s, k in np.argwhere(np.abs(lhs - rhs) <= 1e-12 * mag):
        ok[s, k] = _bak_exact(C[s], T[s], D[s], int(k), m)
    return ok.all(axis=1)


def _edf_interference(C: np.ndarray, T: np.ndarray, D: np.ndarray, S: np.ndarray
                      ) -> np.ndarray:
    """I[s, k, i]: BCL bound of task i's interference in task k's window [r_k, d_k]."""
    Dk = D[:, :, None]
    Ci, Ti, Di, Si = C[:, None, :], T[:, None, :], D[:, None, :], S[:, None, :]
    N = (Dk - Di) // Ti + 1
    N = np.maximum(N, 0)
    return N * Ci + np.minimum(Ci, np.maximum(0, Dk - N * Ti - Si))


def _bcl_round(C: np.ndarray, T: np.ndarray, D: np.ndarray, S: np.ndarray, m: int
               ) -> tuple[np.ndarray, np.ndarray]:
    n = C.shape[1]
    eye = np.eye(n, dtype=bool)[None]
    cap = (D - C + 1)[:, :, None]
    inter = np.where(eye, 0, np.minimum(_edf_interference(C, T, D, S), cap)).sum(axis=2)
    ok = inter < m * (D - C + 1)
    slack = D - C - inter // m
    return ok, slack


def bcl(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int) -> np.ndarray:
    """BCL (TPDS 2009) per set."""
    _check_m(m)
    C, T, D = _prep(C, T, D, "bcl")
    C, T, D = widen(C.shape[1] + m + 4, C, T, D)
    ok, _ = _bcl_round(C, T, D, np.zeros_like(C), m)
    return ok.all(axis=1)


def bcl_iterative(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int) -> np.ndarray:
    """Slack-iterative BCL (TPDS 2009 §6) per set, Jacobi rounds in lock step."""
    _check_m(m)
    C, T, D = _prep(C, T, D, "bcl-iter")
    C, T, D = widen(C.shape[1] + m + 4, C, T, D)
    Sl = np.zeros_like(C)
    res = np.zeros(C.shape[0], dtype=bool)
    live = np.arange(C.shape[0])
    for _ in range(MAX_ROUNDS):
        if not live.size:
            break
        ok, slack = _bcl_round(C[live], T[live], D[live], Sl[live], m)
        new = np.where(ok, np.maximum(slack, Sl[live]), Sl[live])
        changed = (new != Sl[live]).any(axis=1)
        Sl[live] = new
        allok = ok.all(axis=1)
        fin = allok | ~changed
        res[live[fin]] = allok[fin]
        live = live[~fin]
    return res


def rta_bounds(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Bertogna-Cirinei RTA for G-EDF: (R (S, n), ok (S, n)); R is the bound where ok. When any
    task of a set is not shown schedulable, ok is False for every task of that set: no per-task
    number of a failing set is a bound."""
    _check_m(m)
    C, T, D = _prep(C, T, D, "gedf-rta")
    C, T, D = widen(2 * (C.shape[1] + m + 4), C, T, D)
    n = C.shape[1]
    eye = np.eye(n, dtype=bool)[None]
    R = C.copy()
    ok = np.zeros_like(C, dtype=bool)
    # Constant parts of the EDF bound E_i^k = N C_i + min(C_i, max(0, A + R_i)),
    # N = floor((D_k - D_i)/T_i) + 1, A = D_k - N T_i - D_i (slack S_i = D_i - R_i).
    NE = np.maximum((D[:, :, None] - D[:, None, :]) // T[:, None, :] + 1, 0)
    bodyE = NE * C[:, None, :]
    AE = D[:, :, None] - NE * T[:, None, :] - D[:, None, :]
    pad = max(0, m - n)
    steps = (m - np.arange(m))[None, None, :]
    live = np.arange(C.shape[0])
    for _ in range(MAX_ROUNDS):
        if not live.size:
            break
        Cl, Tl, Dl, Rl = C[live], T[live], D[live], R[live]
        Ci, Ti, Ri = Cl[:, None, :], Tl[:, None, :], Rl[:, None, :]
        L = Rl[:, :, None]                                  # window of task k
        X = L + Ri - Ci
        N = X // Ti
        W = N * Ci + np.minimum(Ci, X - N * Ti)
        E = bodyE[live] + np.minimum(Ci, np.maximum(0, AE[live] + Ri))
        cap = L - Cl[:, :, None] + 1
        inter = np.minimum(W, E)
        inter[:, eye[0]] = 0
        tot = np.minimum(inter, cap).sum(axis=2)
        nR = Cl + tot // m
        # Acceleration. With a_i = I_i(R) (fixed, and I only grows), sum_i min(a_i, w) =
        # min_j (j w + S_j), S_j = sum of all but the j largest a_i; so the right-hand side
        # exceeds x for every x with w = x - C + 1 <= w* = min_{j<m} floor(S_j / (m - j)):
        # the least fixed point is >= C + w*, and we may jump there.
        full = np.concatenate([inter, np.zeros(inter.shape[:2] + (pad,), np.int64)], axis=2) \
            if pad else inter
        a = -np.sort(-np.partition(full, full.shape[2] - m, axis=2)[:, :, -m:], axis=2)
        top = np.cumsum(a, axis=2) - a                      # sum of the j largest, j < m
        rest = inter.sum(axis=2)[:, :, None] - top
        wstar = (rest // steps).min(axis=2)
        nR = np.maximum(nR, Cl + wstar)
        over = nR > Dl
        nR = np.where(over, Dl, nR)
        nR = np.maximum(nR, Rl)
        changed = (nR != Rl).any(axis=1)
        R[live] = nR
        ok[live] = ~over
        live = live[changed]
    # A task that fails is held at D, which is not its response bound, so the others' bounds
    # (computed with its interference) are not bounds either: a set that fails gives none
    # (issue 10: C=[1,9,6,2], T=[30,10,12,6], D=[19,9,6,3], m=2 had task 0 "bounded" by 10
    # and responding in 11).
    ok &= ok.all(axis=1)[:, None]
    return R, ok


def rta(C: np.ndarray, T: np.ndarray, D: np.ndarray | None, m: int) -> np.ndarray:
    """Bertogna-Cirinei RTA verdict per set."""
    return rta_bounds(C, T, D, m)[1].all(axis=1)


# ------------------------------------------------------------------ one set, one Result
#
# The single-set forms below take Python sequences (or 1-D arrays) C, T, D, m, validate them
# (`one_set`), and return a `Result`. They compute the same conditions as the batch forms
# with fewer, smaller numpy operations (a batch of one pays the batch machinery: issue 10
# measured BCL at 0.40x SchedCAT per set).


def _one(C: object, T: object, D: object | None, m: int, test: str
         ) -> tuple[list[int], list[int], list[int]]:
    c, t, d = one_set(C, T, D, m)
    if test != "gfb" and D is not None and not all(map(operator.le, d, t)):
        k = next(k for k in range(len(c)) if d[k] > t[k])
        raise AnalysisInputError(_arbitrary_msg(test, f"task {k}", d[k], t[k]))
    return c, t, d


def _np(m: int, c: list[int], t: list[int], d: list[int]) -> tuple[np.ndarray, ...]:
    """int64 arrays, or Python-int object arrays when sums of ~n + m terms could overflow
    (C <= D, and D <= T except for GFB, which works in floats and rationals)."""
    top = max(t) if t is d else max(max(t), max(d))
    dt = object if top * (len(c) + m + 4) * 2 >= INT64_SAFE else np.int64
    a = np.array((c, t, d), dtype=dt)                 # one conversion for the three rows
    return a[0], a[1], a[2]


def _overload(c: list[int], t: list[int], m: int, test: str) -> Result | None:
    """A set with U > m or some U_i > 1 is infeasible: every test rejects it (exactly)."""
    u = 0.0
    for ci, ti in zip(c, t, strict=True):
        u += ci / ti
        if ci > ti:
            return Result(False, None, f"a task has U > 1 (C {ci} > T {ti})", test)
    if u > m + 1e-9 or (u > m - 1e-9 and sum(Fraction(a, b) for a, b in zip(c, t, strict=True))
                          > m):
        return Result(False, None, f"total utilization {u:.6f} > m = {m}", test)
    return None


def gfb_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """GFB density test of one set, any deadlines: sum lambda <= m - (m - 1) lambda_max with
    lambda_i = C_i / min(D_i, T_i) (Goossens, Funk & Baruah 2003; for constrained and
    arbitrary deadlines by density: Bertogna, Cirinei & Lipari, ECRTS 2005; Baker & Baruah,
    "Schedulability analysis of multiprocessor sporadic task systems", 2007)."""
    c, t, d = _one(C, T, D, m, "gfb")
    lam = [ci / (di if di < ti else ti) for ci, ti, di in zip(c, t, d, strict=True)]
    lmax = max(lam)
    slack = m - (m - 1) * lmax - sum(lam)
    if abs(slack) <= 1e-9 * (len(c) + m):       # decided in rationals
        fr = [Fraction(ci, min(di, ti)) for ci, ti, di in zip(c, t, d, strict=True)]
        fmax = max(fr)
        ok = sum(fr) <= m - (m - 1) * fmax
    else:
        ok = slack > 0
    why = ("sum lambda <= m - (m - 1) lambda_max" if ok else
           f"sum lambda {sum(lam):.6f} > m - (m - 1) lambda_max = {m - (m - 1) * lmax:.6f}")
    return Result(ok, None, why, "gfb")


def bak_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """BAK (single-lambda form, see the module doc) of one set, exact verdict (floats with a
    rational re-decision of every condition within its rounding bound; see `bak`)."""
    c, t, d = _one(C, T, D, m, "bak")
    Cf, Tf, Df = np.array((c, t, d), dtype=float)
    margin = np.empty(len(c))
    _compiled.bak_margins(Cf, Tf, Df, m, margin)     # compiled loop (the float filter)
    # one tolerance for every k: `bak`'s magnitude bound with D_k -> min D, lambda_k -> max
    U = Cf / Tf
    tol = 1e-12 * (U.sum() + ((U * (Tf + Df)).sum() + sum(c) + (Cf / Df).max() * sum(t))
                   / min(d) + m + 1.0)
    lo = margin.min()
    if lo > tol:
        return Result(True, None, "BAK condition holds for every task", "bak")
    if lo < -tol:                            # a task fails by more than the error
        return Result(False, None, f"BAK condition fails for task {int(np.argmin(margin))}",
                      "bak")
    ok = margin >= 0                         # the rest pass; those within tol: rationals
    Ca, Ta, Da = (np.array(x, dtype=object) for x in (c, t, d))
    for k in np.flatnonzero(np.abs(margin) <= tol).tolist():
        ok[k] = _bak_exact(Ca, Ta, Da, k, m)
    if ok.all():
        return Result(True, None, "BAK condition holds for every task", "bak")
    return Result(False, None, f"BAK condition fails for task {int(np.argmin(ok))}", "bak")


def _bcl_parts(c: list[int], t: list[int], d: list[int], m: int
               ) -> tuple[np.ndarray, ...]:
    """Slack-independent parts of min(I_i^k, cap_k) (k on axis 0, i on axis 1).

    With q, r = divmod(D_k - D_i + T_i, T_i): N = q (>= 0 as D_i <= T_i) and
    D_k - N T_i = r + D_i - T_i, so with body = N C_i, B = body + D_k - N T_i and
    A = min(body + C_i, cap_k):  min(I_i^k(S_i), cap_k) = min(A, max(body, B - S_i))
    (min distributes over max). The diagonal (i = k) is made to contribute 0. Returns
    body, B, A, cap_k (column)."""
    Ca, Ta, Da = _np(m, c, t, d)
    n = len(c)
    DT = Da - Ta
    X = Da[:, None] - DT
    N, B = np.divmod(X, Ta) if X.dtype != object else (X // Ta, X % Ta)   # no object divmod
    body = N * Ca
    B += DT
    B += body
    cap = Da - Ca
    cap += 1
    capc = cap[:, None]
    A = np.minimum(body + Ca, capc)
    A.ravel()[::n + 1] = 0            # then min(A, max(body >= 0, .)) = 0 on the diagonal
    return body, B, A, capc


def _bcl_sum(body: np.ndarray, B: np.ndarray, A: np.ndarray, S: np.ndarray | None
             ) -> np.ndarray:
    """sum_{i != k} min(I_i^k, D_k - C_k + 1) for every k (see `_bcl_parts`)."""
    x = np.maximum(B - S, body) if S is not None else np.maximum(B, body)
    np.minimum(x, A, out=x)
    return x.sum(axis=1)


def bcl_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """BCL (TPDS 2009, Thm. 7) of one set (constrained deadlines)."""
    c, t, d = _one(C, T, D, m, "bcl")
    Ca, Ta, Da = _np(m, c, t, d)
    if Ca.dtype == np.int64:  # compiled loop (partita.analysis._compiled); object: numpy below
        k = _compiled.bcl(Ca, Ta, Da, m)
        if k < 0:
            return Result(True, None, "BCL condition holds for every task", "bcl")
        return Result(False, None, f"BCL condition fails for task {k}", "bcl")
    body, B, A, cap = _bcl_parts(c, t, d, m)
    ok = _bcl_sum(body, B, A, None) < m * cap[:, 0]
    if ok.all():
        return Result(True, None, "BCL condition holds for every task", "bcl")
    return Result(False, None, f"BCL condition fails for task {int(np.argmin(ok))}", "bcl")


def bcl_iterative_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """Slack-iterative BCL (TPDS 2009 §6) of one set, Jacobi rounds as `bcl_iterative`."""
    c, t, d = _one(C, T, D, m, "bcl-iter")
    Ca, Ta, Da = _np(m, c, t, d)
    if Ca.dtype == np.int64:  # compiled rounds (partita.analysis._compiled)
        k, rounds = _compiled.bcl_iterative(Ca, Ta, Da, m, MAX_ROUNDS)
        if k == -1:
            return Result(True, None, f"every task passes (round {rounds})", "bcl-iter")
        if k >= 0:
            return Result(False, None, f"task {k} fails and no slack grows (round {rounds})",
                          "bcl-iter")
        raise AssertionError("slacks only grow and are bounded by D - C")
    body, B, A, cap = _bcl_parts(c, t, d, m)
    cap1 = cap[:, 0]
    slack0 = cap1 - 1
    # The Jacobi rounds below climb to the least fixed point S* of a monotone, extensive
    # operator (a passing task's slack becomes max(S_k, D_k - C_k - floor(tot_k / m))).
    # Beside them an upper bound U >= S* descends: U_0 = D - C, U' = min(U, max(0, slack(U)))
    # (slack(.) is monotone and S*_k = slack_k(S*) for a task that ever passed, else 0). A
    # task that fails under U fails under S* (interference only shrinks with slack): reject
    # at once, with the verdict of the plain iteration (issue 10: 0.14x SchedCAT before).
    # A task passes iff tot < m cap, i.e. iff its new slack cap - 1 - floor(tot / m) >= 0; a
    # failing task's new slack is negative, so max(new, S) keeps its S (no mask needed), and
    # slacks only grow, so "nothing changed" is "the sum did not change".
    S = np.zeros_like(cap1)
    Up = slack0.copy()
    total = 0
    for rounds in range(1, MAX_ROUNDS + 1):
        if rounds > 2:       # most accepted sets are done by round 3: no extra work for them
            su = slack0 - _bcl_sum(body, B, A, Up) // m
            if su.min() < 0:
                return Result(False, None, f"task {int(np.argmin(su))} fails even with the "
                              f"largest slacks possible (round {rounds})", "bcl-iter")
            np.minimum(su, Up, out=Up)
        sl = slack0 - _bcl_sum(body, B, A, S) // m
        if sl.min() >= 0:
            return Result(True, None, f"every task passes (round {rounds})", "bcl-iter")
        fail = int(np.argmin(sl))
        np.maximum(sl, S, out=sl)
        new_total = sl.sum()
        if new_total == total:
            return Result(False, None, f"task {fail} fails and no slack grows "
                          f"(round {rounds})", "bcl-iter")
        S, total = sl, new_total
    raise AssertionError("slacks only grow and are bounded by D - C")


def rta_set(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    """Bertogna-Cirinei RTA of one set: per-task bounds if every task is shown schedulable,
    else no bounds (see `rta_bounds`)."""
    c, t, d = _one(C, T, D, m, "gedf-rta")
    R, ok = rta_bounds(*_np(m, c, t, d), m)
    if ok[0].all():
        return Result(True, tuple(int(r) for r in R[0]), "every task's bound <= D", "gedf-rta")
    return Result(False, None, "some task's bound exceeds its deadline (no bounds reported)",
                  "gedf-rta")


TESTS = {"gfb": gfb, "bak": bak, "bcl": bcl, "bcl-iter": bcl_iterative, "rta": rta}


def check_feasible_load(C: np.ndarray, T: np.ndarray, m: int,
                        names: Sequence[str] | None = None) -> None:
    """Raise if a set's utilization exceeds m or a task's exceeds 1 (never schedulable)."""
    C, T = batch2d(C), batch2d(T)
    u = C / T
    if (u > 1).any():
        s, i = np.argwhere(u > 1)[0]
        who = names[i] if names else f"set {s} task {i}"
        raise AnalysisInputError(f"task {who}: utilization {u[s, i]:.3f} > 1")
    tot = u.sum(axis=1)
    if (tot > m).any():
        s = int(np.argmax(tot > m))
        raise AnalysisInputError(f"set {s}: total utilization {tot[s]:.3f} exceeds m = {m}")


def analyze(tasks: Sequence[Task], m: int, test: str = "rta") -> tuple[bool, list[int | None]]:
    """Run one G-EDF test on `Task` models; returns (verdict, per-task bounds). Only `rta`
    gives per-task bounds; the others give D_i when the set is accepted, else None."""
    if test not in TESTS:
        raise AnalysisInputError(f"unknown G-EDF test {test!r}; choose from {sorted(TESTS)}")
    a = as_arrays(tasks, constrained=True)
    check_feasible_load(a.C, a.T, m, a.names)
    if test == "rta":
        R, ok = rta_bounds(a.C, a.T, a.D, m)
        v = bool(ok.all())
        return v, [int(r) if o else None for r, o in zip(R[0], ok[0], strict=True)]
    v = bool(TESTS[test](a.C, a.T, a.D, m)[0])
    return v, [int(d) if v else None for d in a.D]
