"""Hypothesis properties of the analyses."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from partita.analysis import edf, fp, gedf, partition
from partita.analysis.generators import to_tasks

FAST = settings(max_examples=60, deadline=None)


@st.composite
def tasksets(draw, n_min: int = 1, n_max: int = 6, util: float = 0.9, constrained=True):
    n = draw(st.integers(n_min, n_max))
    T = sorted(draw(st.lists(st.integers(5, 200), min_size=n, max_size=n)))
    C = [draw(st.integers(1, max(1, int(t * util)))) for t in T]
    D = [draw(st.integers(c, t)) if constrained else t for c, t in zip(C, T, strict=True)]
    return np.array(C), np.array(T), np.array(D)


@FAST
@given(tasksets())
def test_qpa_agrees_with_full_demand_check(s) -> None:
    C, T, D = s
    assert edf.qpa_batch(C, T, D)[0] == edf.pdc_batch(C, T, D)[0]


@FAST
@given(tasksets(constrained=False))
def test_exact_never_rejects_what_sufficient_accepts(s) -> None:
    C, T, _ = s
    exact_edf = edf.qpa_batch(C, T, T)[0]
    assert exact_edf == edf.utilization_test(C, T)[0]      # implicit: U <= 1 is exact
    exact_fp = fp.rta_batch_schedulable(C, T, T)[0]
    if fp.liu_layland(C, T)[0] or fp.hyperbolic(C, T)[0]:
        assert exact_fp
    if exact_fp:
        assert exact_edf                                   # EDF is optimal


@FAST
@given(tasksets(), st.integers(0, 5), st.integers(1, 20))
def test_response_times_monotone_in_c(s, k, extra) -> None:
    C, T, D = s
    k %= len(C)
    C2 = C.copy()
    C2[k] += extra
    lim = 20 * int(T.max())
    for i in range(len(C)):
        a = fp.rta_one(C.tolist(), T.tolist(), D.tolist(), i, limit=lim)
        b = fp.rta_one(C2.tolist(), T.tolist(), D.tolist(), i, limit=lim)
        if a is not None and b is not None:
            assert b >= a
        a = fp.np_rta_one(C.tolist(), T.tolist(), D.tolist(), i, limit=lim)
        b = fp.np_rta_one(C2.tolist(), T.tolist(), D.tolist(), i, limit=lim)
        if a is not None and b is not None:
            assert b >= a


@FAST
@given(tasksets())
def test_batch_and_scalar_rta_agree(s) -> None:
    C, T, D = s
    R = fp.rta_batch(C, T, D)[0]
    for i in range(len(C)):
        r = fp.rta_one(C.tolist(), T.tolist(), D.tolist(), i)
        assert (r is None and R[i] == fp.UNBOUNDED) or r == R[i]


@FAST
@given(tasksets(n_max=10, util=0.8, constrained=False), st.integers(1, 4),
       st.sampled_from(partition.HEURISTICS), st.sampled_from(["edf", "fp"]))
def test_returned_partition_is_valid(s, m, heur, sched) -> None:
    C, T, _ = s
    tasks = to_tasks(C, T)
    res = partition.partition(tasks, m, heur, sched)
    if not res.ok:
        assert res.failed in {t.name for t in tasks}
        return
    assert res.mapping is not None and set(res.mapping) == {t.name for t in tasks}
    for core in range(m):
        sub = [t for t in tasks if res.mapping[t.name] == core]
        if not sub:
            continue
        if sched == "edf":
            assert sum(Fraction(t.wcet_ns, t.period_ns) for t in sub) <= 1
        else:
            assert fp.rta(sub).schedulable
    core, ok = partition.partition_batch(C, T, m, heur, "edf")
    if ok[0]:
        for b in range(m):
            assert (C / T)[core[0] == b].sum() <= 1 + 1e-9


@FAST
@given(tasksets(n_min=3, n_max=8, util=0.9), st.integers(2, 4))
def test_gedf_iterative_dominates_and_rta_bounds_within_deadline(s, m) -> None:
    C, T, D = s
    if gedf.bcl(C, T, D, m)[0]:
        assert gedf.bcl_iterative(C, T, D, m)[0]
    R, ok = gedf.rta_bounds(C, T, D, m)
    assert (R[ok] <= D[ok[0]]).all() and (R >= C).all()


def _bc_rta_reference(C, T, D, m):
    """Plain Bertogna-Cirinei RTA for G-EDF (no acceleration, Gauss-Seidel), for testing."""
    n = len(C)
    R = list(C)
    while True:
        changed, fail = False, False
        for k in range(n):
            x = R[k]
            while True:
                tot = 0
                for i in range(n):
                    if i == k:
                        continue
                    N = (x + R[i] - C[i]) // T[i]
                    W = N * C[i] + min(C[i], x + R[i] - C[i] - N * T[i])
                    NE = max((D[k] - D[i]) // T[i] + 1, 0)
                    E = NE * C[i] + min(C[i], max(0, D[k] - NE * T[i] - (D[i] - R[i])))
                    tot += min(W, E, x - C[k] + 1)
                nx = C[k] + tot // m
                if nx == x or nx > D[k]:
                    break
                x = nx
            if nx > D[k]:
                fail, x = True, D[k]
            if x > R[k]:
                R[k], changed = x, True
        if not changed:
            return R, not fail


@FAST
@given(tasksets(n_min=2, n_max=7, util=0.8), st.integers(1, 4))
def test_accelerated_gedf_rta_matches_plain_iteration(s, m) -> None:
    C, T, D = s
    R, ok = gedf.rta_bounds(C, T, D, m)
    Rr, okr = _bc_rta_reference(C.tolist(), T.tolist(), D.tolist(), m)
    assert bool(ok.all()) == okr
    if okr:
        assert R[0].tolist() == Rr
