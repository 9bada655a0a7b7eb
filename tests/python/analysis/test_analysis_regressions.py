"""Regressions of issue 10 (sets quoted in the issue): no analysis hangs, and FP RTA never
returns a response above the deadline."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from partita.analysis import fp


@contextmanager
def at_most(seconds: int) -> Iterator[None]:
    """Fail instead of hanging (the bug was an endless loop)."""
    def boom(*_: object) -> None:
        raise TimeoutError(f"analysis did not return within {seconds} s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("call", [
    lambda: fp.rta_one([5], [5], [5], 0, J=[1]),
    lambda: fp.rta_one([1, 1], [2, 2], [2, 3], 1, J=[1, 0]),
    lambda: fp.rta_one([1, 1], [2, 2], [2, 1000], 1, J=[1, 0]),
])
def test_level_utilization_one_with_jitter_returns(call: Callable[[], int | None]) -> None:
    with at_most(5):
        assert call() is None  # unbounded busy period: no bound


def test_top_priority_with_jitter_above_deadline_is_none() -> None:
    assert fp.rta_one([2, 1], [3, 6], [2, 5], 0, J=[1, 2]) is None  # R = 3 > D = 2
    assert fp.rta_one([2, 1], [3, 6], [3, 5], 0, J=[1, 2]) == 3
    assert fp.rta_one([2], [10], [2], 0, B=1) is None


def test_schedulable_sets_keep_their_bounds() -> None:
    # a textbook set (C, T = D): responses 3, 6, 20
    C, T = [3, 3, 5], [7, 12, 20]
    assert [fp.rta_one(C, T, T, i) for i in range(3)] == [3, 6, 20]
    assert fp.rta_one([1, 1], [2, 2], [2, 2], 1) == 2  # u == 1 without jitter is fine


@pytest.mark.parametrize(("C", "T", "D", "m"), [
    ([1, 9, 6, 2], [30, 10, 12, 6], [19, 9, 6, 3], 2),   # task 0 responds in 11 > "bound" 10
    ([4, 1, 4, 1, 3], [6, 15, 5, 8, 3], [4, 9, 4, 1, 3], 3),  # task 1: 6 > "bound" 5
])
def test_gedf_rejected_set_reports_no_bounds(C: list[int], T: list[int], D: list[int],
                                             m: int) -> None:
    import numpy as np
    from partita.analysis import gedf
    from partita.model import Task

    _, ok = gedf.rta_bounds(np.array([C]), np.array([T]), np.array([D]), m)
    assert not ok.any()
    tasks = [Task(name=f"t{i}", wcet_ns=c, period_ns=t, deadline_ns=d)
             for i, (c, t, d) in enumerate(zip(C, T, D, strict=True))]
    verdict, bounds = gedf.analyze(tasks, m, "rta")
    assert verdict is False and bounds == [None] * len(C)


def test_batch_apis_refuse_non_integers_and_bad_periods() -> None:
    from partita.analysis import edf, gedf
    from partita.analysis.errors import AnalysisInputError

    for test in (gedf.gfb, gedf.bak, gedf.bcl, gedf.bcl_iterative, gedf.rta):
        with pytest.raises(AnalysisInputError, match="1.9 is not an integer"):
            test([1.9, 1.9, 1.9], [2, 2, 2], None, 2)
    with pytest.raises(AnalysisInputError, match="not an integer"):
        edf.qpa_batch([0.6, 0.6], [1, 1], [1, 1])
    with pytest.raises(AnalysisInputError, match="not an integer"):
        fp.rta_batch([[2.6, 2.6]], [[5, 5]], [[5, 5]])
    with pytest.raises(AnalysisInputError, match="period_ns must be > 0"):
        edf.qpa_batch([1, 1], [0, 2], [1, 2])
    # whole floats are integers
    assert fp.rta_batch([[2.0, 2.0]], [[5.0, 5.0]], [[5.0, 5.0]]).tolist() == [[2, 4]]


def test_gfb_decides_ties_exactly() -> None:
    from partita.analysis import gedf

    assert gedf.gfb([2, 1, 16], [10, 5, 20], None, 2).tolist() == [True]  # exact tie
    # ns-scale near-tie that breaks the bound by about 1e-17: rejected (as SchedCAT does)
    C, T = [147713354, 422394209, 600000000], [437669385, 913284490, 1000000000]
    assert gedf.gfb(C, T, None, 2).tolist() == [False]


def test_cli_durations_use_a_unit_that_fits() -> None:
    from partita.analysis.cli import _dur

    assert [_dur(3), _dur(1500), _dur(4_993_068), _dur(2 * 10**9)] == \
        ["3 ns", "1.500 µs", "4.993 ms", "2 s"]


def test_bak_decides_ties_exactly() -> None:
    from partita.analysis import gedf
    # lambda_2 = 0.8: sum min(1, beta) = 0.2 + 0.2 + 0.8 = 1.2 = m (1 - 0.8) + 0.8 exactly
    assert gedf.bak([2, 1, 16], [10, 5, 20], None, 2)[0]
    assert not gedf.bak([2, 1, 17], [10, 5, 20], None, 2)[0]
    # the same tie at ns scale, and one ns more of C_2 breaks it
    s = 10**8
    assert gedf.bak([2 * s, s, 16 * s], [10 * s, 5 * s, 20 * s], None, 2)[0]
    assert not gedf.bak([2 * s, s, 16 * s + 1], [10 * s, 5 * s, 20 * s], None, 2)[0]


def test_bcl_does_not_overflow_near_2_63() -> None:
    import numpy as np
    from partita.analysis import gedf
    big = (1 << 63) - 1
    C, T = [1, 1], [big, big - 2]
    # two tasks on two cores are always schedulable; int64 used to wrap and reject
    for test in (gedf.bcl, gedf.bcl_iterative, gedf.rta):
        assert test(C, T, None, 2)[0], test.__name__
    R, ok = gedf.rta_bounds(np.array([C]), np.array([T]), None, 2)
    assert ok.all() and [int(r) for r in R[0]] == [1, 1]
    # and a set that must fail still fails: three unit-density tasks on two cores
    assert not gedf.bcl([big - 5] * 3, [big - 5] * 3, None, 2)[0]
    # the single-set paths too (Python ints where int64 could overflow)
    from partita.analysis import api
    for test in ("gfb", "bak", "bcl", "bcl-iter", "gedf-rta"):
        assert api.check(test, C, T, None, 2).schedulable, test
        assert not api.check(test, [big - 5] * 3, [big - 5] * 3, None, 2).schedulable, test
    assert api.check("gedf-rta", C, T, None, 2).bounds == (1, 1)
    assert api.check("edf-qpa", [1, 2], [big, big - 1], [big // 2, big - 1])
    assert api.check("fp-rta", [1, 2], [big, big - 1]).bounds == (1, 3)
    assert api.check("pedf-first-fit", [1, 2], [big, big - 1], None, 1).cores == (0, 0)


def _ref_partition(C: list[int], T: list[int], m: int, h: str) -> tuple[list[int], bool]:
    """Reference bin packing in rationals (decreasing utilization, ties to lowest index)."""
    from fractions import Fraction
    u = [Fraction(c, t) for c, t in zip(C, T, strict=True)]
    load = [Fraction(0)] * m
    core, ok, cur = [-1] * len(C), True, 0
    for i in sorted(range(len(C)), key=lambda i: (-u[i], i)):
        fits = [b for b in range(m) if load[b] + u[i] <= 1 and (h != "next-fit" or b >= cur)]
        if not fits:
            ok = False
            continue
        b = {"best-fit": min(fits, key=lambda b: (-load[b], b)),
             "worst-fit": min(fits, key=lambda b: (load[b], b))}.get(h, fits[0])
        cur = b
        if ok:
            load[b] += u[i]
            core[i] = b
    return core, ok


@pytest.mark.parametrize(("C", "T", "m", "h", "want"), [
    ([23, 1, 1], [30, 5, 30], 1, "first-fit", [0, 0, 0]),      # U = 1 exactly, float 1 + 2^-52
    ([2, 24, 1, 1, 19, 10], [15, 30, 7, 6, 30, 10], 3, "worst-fit", [2, 1, 1, 2, 2, 0]),
    ([5, 1, 3, 2, 5, 5], [10, 30, 7, 3, 6, 30], 3, "worst-fit", [2, 0, 2, 1, 0, 1]),
    ([5, 3, 1, 5, 1], [10, 3, 3, 6, 10], 3, "worst-fit", [2, 0, 2, 1, 1]),
])
def test_partition_exact_loads_and_lowest_index_ties(C: list[int], T: list[int], m: int, h: str,
                                                     want: list[int]) -> None:
    import numpy as np
    from partita.analysis import generators, partition
    core, ok = partition.partition_batch(np.array([C]), np.array([T]), m, h)
    assert ok[0] and core[0].tolist() == want == _ref_partition(C, T, m, h)[0]
    res = partition.partition(generators.to_tasks(np.array(C), np.array(T)), m, h)
    assert res.mapping is not None and list(res.mapping.values()) and \
        [res.mapping[f"t{i}"] for i in range(len(C))] == want


def test_partition_batch_equals_rational_reference_on_tie_prone_sets() -> None:
    import numpy as np
    from partita.analysis import partition
    g = np.random.default_rng(7)
    for _ in range(300):
        n, m = int(g.integers(3, 8)), int(g.integers(1, 4))
        T = g.choice([3, 5, 6, 7, 10, 15, 30], n)
        C = np.array([int(g.integers(1, t + 1)) for t in T])
        for h in partition.HEURISTICS:
            core, ok = partition.partition_batch(C[None], T[None], m, h)
            rc, rok = _ref_partition(C.tolist(), T.tolist(), m, h)
            assert bool(ok[0]) == rok, (h, C, T, m)
            if rok:
                assert core[0].tolist() == rc, (h, C, T, m)


def test_config_uses_the_analysis_partitioner() -> None:
    """One packer: `partita.config.partition.assign` gives `analysis.partition.place`'s
    mapping (exact loads, lowest-index ties), keeping the configuration's NoFit message."""
    from partita.analysis import partition
    from partita.config.partition import NoFit, assign
    from partita.model import Task
    for C, T, m, h, _ in [([2, 24, 1, 1, 19, 10], [15, 30, 7, 6, 30, 10], 3, "worst-fit", 0),
                          ([5, 3, 1, 5, 1], [10, 3, 3, 6, 10], 3, "worst-fit", 0),
                          ([23, 1, 1], [30, 5, 30], 1, "first-fit", 0),
                          ([1, 1, 1, 1], [3, 3, 3, 3], 2, "best-fit", 0)]:
        ts = [Task(name=f"t{i}", wcet_ns=c, period_ns=t) for i, (c, t) in enumerate(zip(C, T))]
        got = assign(ts, [4, 6, 9][:m], h)
        want = partition.place(C, T, None, m, h).cores
        assert got == {f"t{i}": [4, 6, 9][b] for i, b in enumerate(want)}
        assert want == _ref_partition(C, T, m, h)[0]
    # U = 1 + 1e-13: the old float packer (epsilon 1e-12) accepted it on one cpu
    big = 10**13
    ts = [Task(name="a", wcet_ns=1, period_ns=2), Task(name="b", wcet_ns=big // 2 + 1,
                                                         period_ns=big)]
    with pytest.raises(NoFit, match=r"thread 'a' \(density 0.500\) fits on no cpu "
                                    r"\(EDF loads: cpu0=0.500\)"):
        assign(ts, [0], "first-fit")
    # pinned threads are placed first and count in the loads
    pin = Task(name="p", wcet_ns=6, period_ns=10)
    got = assign([Task(name="x", wcet_ns=5, period_ns=10)], [0, 1], "first-fit", {0: [pin]})
    assert got == {"x": 1}
