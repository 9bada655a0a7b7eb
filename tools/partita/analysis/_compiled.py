"""Compiled single-set kernels: BCL, slack-iterative BCL (int64) and BAK's float filter (numba).

The numpy single-set paths pay about 1 us of call overhead per array operation, 15-20 of
them per round, which left BCL and its iterative form slower than SchedCAT's C++ per set
(issue 10). These loops do the same arithmetic as `gedf._bcl_parts` / `_bcl_sum` in one
compiled pass, O(n^2) per round without temporaries. Callers use them only on int64 inputs
that `gedf._np` has already shown cannot overflow; Python-int (object) inputs keep the numpy
path. Compiled once per machine (`cache=True` keeps the machine code beside this file).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _interference_sum(C: np.ndarray, T: np.ndarray, D: np.ndarray, S: np.ndarray,
                      out: np.ndarray) -> None:
    """out[k] = sum_{i != k} min(I_i^k(S_i), D_k - C_k + 1), BCL's bound of task i's
    interference in task k's window [r_k, r_k + D_k] (TPDS 2009, Thm. 7 / §6)."""
    n = C.shape[0]
    for k in range(n):
        cap = D[k] - C[k] + 1
        tot = 0
        for i in range(n):
            if i == k:
                continue
            nj = (D[k] - D[i]) // T[i] + 1
            if nj < 0:
                nj = 0
            rest = D[k] - nj * T[i] - S[i]
            if rest < 0:
                rest = 0
            if rest > C[i]:
                rest = C[i]
            x = nj * C[i] + rest
            tot += x if x < cap else cap
        out[k] = tot


@njit(cache=True, nogil=True)
def bcl(C: np.ndarray, T: np.ndarray, D: np.ndarray, m: int) -> int:
    """-1 if every task passes BCL, else the index of the first failing task."""
    n = C.shape[0]
    S = np.zeros(n, dtype=np.int64)
    tot = np.empty(n, dtype=np.int64)
    _interference_sum(C, T, D, S, tot)
    for k in range(n):
        if tot[k] >= m * (D[k] - C[k] + 1):
            return k
    return -1


@njit(cache=True, nogil=True)
def bcl_iterative(C: np.ndarray, T: np.ndarray, D: np.ndarray, m: int, max_rounds: int
                  ) -> tuple[int, int]:
    """(first failing task or -1 if all pass, rounds). Jacobi rounds from zero slacks: a
    passing task's slack becomes max(S_k, D_k - C_k - floor(tot_k / m)); stops when every task
    passes or no slack grows (the plain iteration's verdict, as `gedf.bcl_iterative`)."""
    n = C.shape[0]
    S = np.zeros(n, dtype=np.int64)
    new = np.empty(n, dtype=np.int64)
    tot = np.empty(n, dtype=np.int64)
    for rounds in range(1, max_rounds + 1):
        _interference_sum(C, T, D, S, tot)
        fail = -1
        grew = False
        for k in range(n):
            sl = D[k] - C[k] - tot[k] // m
            if sl < 0:
                if fail < 0:
                    fail = k
                new[k] = S[k]
            else:
                new[k] = sl if sl > S[k] else S[k]
                if new[k] != S[k]:
                    grew = True
        if fail < 0:
            return -1, rounds
        if not grew:
            return fail, rounds
        S[:] = new
    return -2, max_rounds


@njit(cache=True, nogil=True)
def bak_margins(C: np.ndarray, T: np.ndarray, D: np.ndarray, m: int, out: np.ndarray
                ) -> None:
    """out[k] = (m - (m - 1) lambda_k) - sum_i min(1, beta_i^k), BAK's margin of task k in
    float64 (the same operations as `gedf.bak_set`; callers re-decide in rationals every
    margin within their rounding bound)."""
    n = C.shape[0]
    for k in range(n):
        lam = C[k] / D[k]
        tot = 0.0
        for i in range(n):
            u = C[i] / T[i]
            x = C[i] - lam * T[i]
            if x < 0.0:
                x = 0.0
            x = (x + u * (T[i] - D[i])) / D[k] + u
            tot += x if x < 1.0 else 1.0
        out[k] = (m - (m - 1) * lam) - tot

