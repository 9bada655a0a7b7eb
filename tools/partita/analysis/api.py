"""One calling convention for every test (issue 10 item 6).

    check(test, C, T, D=None, m=1) -> Result                  # one set
    check_batch(test, sets, m=1) -> list[Result]              # sets of any sizes

Arguments are always (C, T, D, m): integer ns (or ticks), D None meaning D = T, m the number
of processors (1 for the uniprocessor tests, which refuse another m). `sets` is a sequence of
(C, T) or (C, T, D) tuples; sets of equal size are stacked and run through the vectorised
batch form of the test where there is one (same verdicts as the single-set form, which the
tests check), the others one by one. Every test returns a `Result` (verdict, per-task bounds
or None, reason); see `TESTS` for the names, which are those of `partita analyze --test`.

Deadlines: the FP RTA, EDF tests, GFB and P-EDF accept any D; BAK, BCL, iterative BCL and
the G-EDF RTA are stated for D <= T and say so (AnalysisInputError naming the task).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from partita.analysis import edf, fp, gedf, partition
from partita.analysis.errors import AnalysisInputError, one_set
from partita.analysis.result import Result

Single = Callable[..., Result]


def _util_bound(name: str, fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Single:
    def run(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
        c, t, d = one_set(C, T, D, m, uniproc=True)
        if d != t:
            raise AnalysisInputError(f"{name}: needs implicit deadlines (D = T)")
        ok = bool(fn(np.array(c), np.array(t))[0])
        return Result(ok, None, "bound holds" if ok else "bound exceeded", name)
    run.__doc__ = f"{name} utilization bound of one set (implicit deadlines, RM order)."
    return run


def _edf_density(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    c, t, d = one_set(C, T, D, m, uniproc=True)
    ok = bool(edf.density_test(np.array(c), np.array(t), np.array(d))[0])
    return Result(ok, None, "sum C/min(D,T) <= 1" if ok else "density > 1", "edf-density")


def _np_fp_rta(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
    c, t, d = one_set(C, T, D, m, uniproc=True)
    b = tuple(fp.np_rta_one(c, t, d, k) for k in range(len(c)))
    bad = [k for k, x in enumerate(b) if x is None]
    return Result(not bad, b, f"task {bad[0]} misses" if bad else "every response <= D",
                  "np-fp-rta")


def _pack(scheduler: str, heuristic: str) -> Single:
    def run(C: object, T: object, D: object | None = None, m: int = 1) -> Result:
        return partition.pack(C, T, D, m, heuristic, scheduler)
    run.__doc__ = f"P-{scheduler.upper()} {heuristic} decreasing partitioning of one set."
    return run


TESTS: dict[str, Single] = {
    "fp-rta": fp.rta_set,
    "np-fp-rta": _np_fp_rta,
    "ll": _util_bound("ll", fp.liu_layland),
    "hyperbolic": _util_bound("hyperbolic", fp.hyperbolic),
    "edf-util": _util_bound("edf-util", edf.utilization_test),
    "edf-density": _edf_density,
    "edf-qpa": edf.qpa_set,
    "edf-rta": edf.rta_set,
    "gfb": gedf.gfb_set,
    "bak": gedf.bak_set,
    "bcl": gedf.bcl_set,
    "bcl-iter": gedf.bcl_iterative_set,
    "gedf-rta": gedf.rta_set,
    **{f"p{s}-{h}": _pack(s, h) for s in ("edf", "fp") for h in partition.HEURISTICS},
}


def check(test: str, C: object, T: object, D: object | None = None, m: int = 1,
          **options: Any) -> Result:
    """Run `test` on one set. `options` go to the test (fp-rta: J, B)."""
    fn = TESTS.get(test)
    if fn is None:
        raise AnalysisInputError(f"unknown test {test!r}; choose from {', '.join(TESTS)}")
    return fn(C, T, D, m, **options)


# Vectorised forms: (C, T, D, m) arrays (S, n) -> verdicts (S,) (and bounds for the RTA).
_VERDICT: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray, int], np.ndarray]] = {
    "gfb": gedf.gfb, "bak": gedf.bak, "bcl": gedf.bcl, "bcl-iter": gedf.bcl_iterative,
    "edf-qpa": lambda C, T, D, m: edf.qpa_batch(C, T, D),
}


def _batch_group(test: str, C: np.ndarray, T: np.ndarray, D: np.ndarray, m: int
                 ) -> list[Result] | None:
    """Vectorised results for one group of equal-size sets, or None (no batch form)."""
    if test in _VERDICT:
        if test != "edf-qpa" and m < 1:
            raise AnalysisInputError(f"m must be >= 1, got {m}")
        if test == "edf-qpa" and m != 1:
            raise AnalysisInputError(f"m must be 1 (uniprocessor test), got {m}")
        v = _VERDICT[test](C, T, D, m)
        return [Result(bool(x), None, "accepted (batch)" if x else "rejected (batch)", test)
                for x in v]
    if test == "gedf-rta":
        R, ok = gedf.rta_bounds(C, T, D, m)
        return [Result(True, tuple(int(r) for r in R[s]), "every task's bound <= D", test)
                if ok[s].all() else
                Result(False, None, "some task's bound exceeds its deadline", test)
                for s in range(C.shape[0])]
    if test == "fp-rta" and (D <= T).all():
        if m != 1:
            raise AnalysisInputError(f"m must be 1 (uniprocessor test), got {m}")
        R = fp.rta_batch(C, T, D)
        return [Result(bool((R[s] != fp.UNBOUNDED).all()),
                       tuple(None if r == fp.UNBOUNDED else int(r) for r in R[s]),
                       "batch", test) for s in range(C.shape[0])]
    if test.startswith("pedf-") and (D == T).all():
        core, ok = partition.partition_batch(C, T, m, test.removeprefix("pedf-"), "edf")
        return [Result(bool(ok[s]), None, "all tasks placed (batch)" if ok[s] else
                       "some task fits on no core (batch)", test,
                       tuple(int(x) for x in core[s]) if ok[s] else None)
                for s in range(C.shape[0])]
    return None


def check_batch(test: str, sets: Sequence[Sequence[object]], m: int = 1) -> list[Result]:
    """Run `test` on many sets of possibly different sizes; results in input order."""
    if test not in TESTS:
        raise AnalysisInputError(f"unknown test {test!r}; choose from {', '.join(TESTS)}")
    out: list[Result | None] = [None] * len(sets)
    groups: dict[int, list[int]] = {}
    norm: list[tuple[object, object, object]] = []
    for k, s in enumerate(sets):
        if len(s) not in (2, 3):
            raise AnalysisInputError(f"sets[{k}]: expected (C, T) or (C, T, D)")
        C, T = s[0], s[1]
        D = s[2] if len(s) == 3 else None
        norm.append((C, T, T if D is None else D))
        groups.setdefault(len(np.asarray(C).reshape(-1)), []).append(k)
    for idx in groups.values():
        try:
            arrs = [np.array([np.asarray(norm[k][j]).reshape(-1) for k in idx]) for j in range(3)]
        except ValueError as e:
            raise AnalysisInputError(f"sets {idx}: C, T, D of one set differ in length "
                                     f"({e})") from None
        res = _batch_group(test, arrs[0], arrs[1], arrs[2], m) \
            if all(a.ndim == 2 for a in arrs) and arrs[0].shape == arrs[1].shape == \
            arrs[2].shape else None
        if res is None:
            res = [check(test, *norm[k], m) for k in idx]
        for k, r in zip(idx, res, strict=True):
            out[k] = r
    return [r for r in out if r is not None]
