"""Standing cross-check (issue 10 item 7): hypothesis draws small integer task sets and release
patterns; the exact simulators of `partita.analysis.sim` must never observe a response above a
per-task bound, nor a miss in a set a sufficient test accepts. Fixed seed (derandomize) and a
modest example count keep `make test` deterministic and fast; the next unsound change fails."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from partita.analysis import edf, fp, gedf, sim

PERIODS = (4, 5, 6, 8, 10, 12, 15, 20)
SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, database=None)


def _lcm(xs: list[int]) -> int:
    out = 1
    for x in xs:
        out = out * x // math.gcd(out, x)
    return out


@st.composite
def task_sets(draw: st.DrawFn, n_min: int = 1, n_max: int = 4, load: float = 0.7
              ) -> tuple[list[int], list[int], list[int]]:
    n = draw(st.integers(n_min, n_max))
    T = sorted(draw(st.lists(st.sampled_from(PERIODS), min_size=n, max_size=n)))
    C = [draw(st.integers(1, max(1, int(t * load)))) for t in T]
    D = [draw(st.integers(c, t)) for c, t in zip(C, T, strict=True)]
    return C, T, D


@SETTINGS
@given(task_sets(), st.data())
def test_fp_rta_with_jitter_bounds_every_release_pattern(
        s: tuple[list[int], list[int], list[int]], data: st.DataObject) -> None:
    C, T, D = s
    n = len(C)
    J = [data.draw(st.integers(0, t // 2)) for t in T]
    H = 2 * _lcm(T) + max(T)
    for i in range(n):
        Ji = [0 if k == i else J[k] for k in range(n)]  # i itself on time (checked below)
        bound = fp.rta_one(C, T, D, i, J=Ji)
        with_own = fp.rta_one(C, T, D, i, J=J)
        assert with_own is None or (bound is not None and bound + J[i] >= with_own <= D[i])
        if bound is None:
            continue
        # task i released on time (its response is measured from its nominal release);
        # every other job released late by any amount up to its task's jitter, drawn per job
        # (0 or J most of the time: the patterns that compress interference)
        rel = []
        for k in range(n):
            jit = st.sampled_from([0, J[k]]) | st.integers(0, J[k])
            rel.append([r if k == i else r + data.draw(jit) for r in range(0, H, T[k])])
        r = sim.simulate_uni(C, [10**9] * n, rel, "fp")
        assert r.max_response[i] <= bound, (C, T, D, J, i, rel)


@SETTINGS
@given(task_sets(n_max=5, load=0.6))
def test_edf_qpa_agrees_with_simulation(s: tuple[list[int], list[int], list[int]]) -> None:
    C, T, D = s
    v = bool(edf.qpa_batch(C, T, D)[0])
    if sum(c / t for c, t in zip(C, T, strict=True)) > 1:
        assert not v
        return
    H = _lcm(T)
    r = sim.simulate_uni(C, D, sim.periodic_releases(T, 2 * H + max(D)), "edf")
    assert v == (not any(r.missed)), (C, T, D)


@settings(max_examples=600, derandomize=True, deadline=None, database=None)
@given(st.integers(2, 3), st.data())
def test_gedf_accepted_sets_never_miss_in_simulation(m: int, data: st.DataObject) -> None:
    C, T, D = data.draw(task_sets(n_min=m + 1, n_max=m + 3, load=1.0))
    if sum(c / t for c, t in zip(C, T, strict=True)) > m:
        return
    offs = [data.draw(st.integers(0, t - 1)) for t in T]  # synchronous or not
    H = _lcm(T)
    r = sim.simulate_gedf(C, D, sim.periodic_releases(T, 2 * H + max(offs), offs), m)
    R, ok = gedf.rta_bounds([C], [T], [D], m)
    for name, test in gedf.TESTS.items():
        if test([C], [T], [D], m)[0]:
            assert not any(r.missed), (name, C, T, D, m, offs)
    for i in range(len(C)):
        if ok[0, i]:
            assert r.max_response[i] <= R[0, i], (C, T, D, m, offs, i)
