"""The exact SPM analysis (`spm.bound_one_exact`): hand-computed cases, never below what the
exact protocol simulator observes (hypothesis), never above the conservative analysis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from partita.analysis import sim, spm


def test_exact_single_task_by_hand() -> None:
    # sigma 10, M 2: core 0 owns [0,10), [20,30), ...  blk (1 ns) loads at 0, extra (1 ns)
    # at 20, the task arrives at 21 and loads at 60 (40 unloads blk), runs [70, 70 + c).
    # c = 100: done at 170, unload at 180 moved by a late arrival to 200: ends 210 -> 189.
    assert spm.bound_one_exact([100], [10_000], [10_000], 0, sigma=10, M=2) == 189
    # c = 5: done at 75; 80 unloads extra; 100 would unload it, a late arrival takes 100,
    # unload at 120, ends 130 -> 109 (conservative: max(c + 5s, 7s) + B = 130).
    assert spm.bound_one_exact([5], [10_000], [10_000], 0, sigma=10, M=2) == 109
    assert spm.bound_one([5], [10_000], [10_000], 0, sigma=10, M=2) == 130


def test_exact_two_lower_priority_jobs_by_hand() -> None:
    # sigma 300, M 2 (P = 600): blk 2000 loads [0, 300) and runs [300, 2300); extra 1500
    # loads [600, 900); task 0 (c 1000) arrives at 601; 1200, 1800 idle (both partitions
    # full, nothing done); extra runs [2300, 3800); 2400 unloads blk; 3000 loads task 0;
    # it runs [3800, 4800); 4200 unloads extra; a late arrival takes 4800; unload at 5400,
    # ends 5700: R = 5700 - 601 = 5099 (conservative: B 1700 + H 1500 + F 2500 = 5700).
    c, T = [1000, 1500, 800, 2000], [20_000, 30_000, 40_000, 60_000]
    assert spm.bound_one_exact(c, T, T, 0, 300, 2) == 5099
    assert spm.bound_one(c, T, T, 0, 300, 2) == 5700


def test_exact_above_period_is_rejected() -> None:
    # the response exceeds T: the kernel would hold the next release pending and let a
    # lower-priority job in between, which the critical instant does not cover
    assert spm.bound_one_exact([50], [60], [1000], 0, sigma=10, M=2) is None


def test_analysis_option_and_bad_name() -> None:
    from partita.analysis.errors import AnalysisInputError
    from partita.model import Platform, ThreePhaseTask

    tasks = [ThreePhaseTask(name="a", wcet_ns=1000, period_ns=100_000, priority=0,
                            load_bytes=1024, unload_bytes=1024)]
    plat = Platform(cores=2, tdma_slot_ns=300, dma_setup_ns=0, dma_ns_per_byte=0.1)
    ex = spm.analyze(tasks, plat, overhead_ns=0, analysis="exact").bounds_ns[0]
    co = spm.analyze(tasks, plat, overhead_ns=0, analysis="conservative").bounds_ns[0]
    assert ex is not None and co is not None and ex < co
    with pytest.raises(AnalysisInputError, match="exact"):
        spm.analyze(tasks, plat, analysis="tight")


def _releases(r: np.random.Generator, T: list[int], horizon: int, mode: str, P: int,
              c: list[int], i: int) -> list[list[int]]:
    n = len(T)
    if mode == "lemma2":       # the pattern of seed 000 Lemma 2 around task i
        offs = [P + 1] * n
        lp = sorted(range(i + 1, n), key=lambda k: -c[k])
        if lp:
            offs[lp[0]] = 0
        if len(lp) > 1:
            offs[lp[1]] = 1
    elif mode == "sync":
        offs = [int(r.integers(0, P))] * n
    else:
        offs = [int(r.integers(0, 2 * P)) for _ in range(n)]
    rel = []
    for k in range(n):
        t, lst = offs[k], []
        while t < horizon:
            lst.append(t)
            t += T[k] + (int(r.integers(0, T[k] // 2 + 1)) if mode == "sporadic" else 0)
        rel.append(lst)
    return rel


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(M=st.integers(1, 4), sigma=st.integers(2, 8), n=st.integers(1, 5),
       seed=st.integers(0, 2**32 - 1))
def test_exact_never_below_simulation(M: int, sigma: int, n: int, seed: int) -> None:
    r = np.random.default_rng(seed)
    P = M * sigma
    c = [int(x) for x in r.integers(1, 5 * P + 2, size=n)]
    T = sorted(int(x) for x in r.integers(6 * P, 40 * P, size=n))
    ex: list[int | None] = []
    for i in range(n):   # a bound only while every higher-priority task has one
        ex.append(None if None in ex else spm.bound_one_exact(c, T, T, i, sigma, M))
    for i in range(n):
        co = spm.bound_one(c, T, T, i, sigma, M)
        if ex[i] is not None and co is not None:
            assert ex[i] <= co, (M, sigma, c, T, i)
    if all(x is None for x in ex):
        return
    horizon = 30 * max(T)
    for mode in ("lemma2", "sync", "offsets", "sporadic"):
        for i in ([x for x in range(n) if ex[x] is not None] if mode == "lemma2" else [0]):
            rel = _releases(r, T, horizon, mode, P, c, i)
            short = mode in ("offsets", "sporadic")
            exe = [[int(r.integers(1, c[k] + 1)) if short else c[k] for _ in rel[k]]
                   for k in range(n)]
            cp = [[(int(r.integers(1, sigma + 1)), int(r.integers(1, sigma + 1))) if short
                   else (sigma, sigma) for _ in rel[k]] for k in range(n)]
            s = sim.simulate_spm(c, [1 << 60] * n, rel, sigma, M, 0 if mode == "lemma2"
                                 else int(r.integers(0, M)), exec_ns=exe, copy_ns=cp)
            for k in range(n):
                if ex[k] is not None:
                    assert s.max_response[k] <= ex[k], (mode, M, sigma, c, T, k)
