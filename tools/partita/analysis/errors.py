"""Input validation shared by the analyses: every error names the task and the field."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from partita.model import Task


class AnalysisInputError(ValueError):
    """A task set the analysis cannot accept (bad field, unsupported model, overload)."""


@dataclass(frozen=True)
class TaskArrays:
    """Integer-ns arrays of a task set, in the order given (index 0 = first task)."""

    names: list[str]
    C: np.ndarray
    T: np.ndarray
    D: np.ndarray
    J: np.ndarray

    @property
    def n(self) -> int:
        return len(self.names)


def _arr(x: Sequence[int] | np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.int64).reshape(-1)


def as_arrays(
    tasks: Sequence[Task] | None = None,
    *,
    C: Sequence[int] | np.ndarray | None = None,
    T: Sequence[int] | np.ndarray | None = None,
    D: Sequence[int] | np.ndarray | None = None,
    J: Sequence[int] | np.ndarray | None = None,
    names: Sequence[str] | None = None,
    constrained: bool = False,
) -> TaskArrays:
    """Turn `Task` models or raw arrays into validated `TaskArrays`.

    Raises AnalysisInputError naming the task and field on: empty set, non-positive C or T,
    negative J, C > D, and (if `constrained`) D > T.
    """
    if tasks is not None:
        tasks = list(tasks)
        names_l = [t.name for t in tasks]
        c = _arr([t.wcet_ns for t in tasks])
        t_ = _arr([t.period_ns for t in tasks])
        d = _arr([t.d for t in tasks])
        j = _arr([t.jitter_ns for t in tasks])
    else:
        if C is None or T is None:
            raise AnalysisInputError("give either tasks or the arrays C and T")
        c, t_ = _arr(C), _arr(T)
        d = t_.copy() if D is None else _arr(D)
        j = np.zeros_like(c) if J is None else _arr(J)
        names_l = list(names) if names is not None else [f"t{i}" for i in range(len(c))]
        if not (len(c) == len(t_) == len(d) == len(j) == len(names_l)):
            raise AnalysisInputError("C, T, D, J and names must have the same length")
    if len(c) == 0:
        raise AnalysisInputError("empty task set: at least one task is needed")
    for i, name in enumerate(names_l):
        if t_[i] <= 0:
            raise AnalysisInputError(f"task {name}: period_ns must be > 0, got {t_[i]}")
        if c[i] <= 0:
            raise AnalysisInputError(f"task {name}: wcet_ns must be > 0, got {c[i]}")
        if d[i] <= 0:
            raise AnalysisInputError(f"task {name}: deadline_ns must be > 0, got {d[i]}")
        if j[i] < 0:
            raise AnalysisInputError(f"task {name}: jitter_ns must be >= 0, got {j[i]}")
        if c[i] > d[i]:
            raise AnalysisInputError(
                f"task {name}: wcet_ns {c[i]} exceeds deadline_ns {d[i]}"
            )
        if constrained and d[i] > t_[i]:
            raise AnalysisInputError(
                f"task {name}: deadline_ns {d[i]} > period_ns {t_[i]}; this analysis "
                "supports constrained deadlines (D <= T) only"
            )
    return TaskArrays(names_l, c, t_, d, j)


def check_batch(C: np.ndarray, T: np.ndarray, D: np.ndarray) -> None:
    """Cheap vectorised validation of a batch (S, n); raises naming set and task index."""
    for arr, field in ((C, "wcet_ns"), (T, "period_ns"), (D, "deadline_ns")):
        bad = np.argwhere(arr <= 0)
        if bad.size:
            s, i = bad[0]
            raise AnalysisInputError(f"set {s}, task {i}: {field} must be > 0, got {arr[s, i]}")
    bad = np.argwhere(C > D)
    if bad.size:
        s, i = bad[0]
        raise AnalysisInputError(f"set {s}, task {i}: wcet_ns {C[s, i]} exceeds deadline_ns")


def batch2d(x: np.ndarray) -> np.ndarray:
    """View a single set (n,) as a batch (1, n); leave (S, n) alone."""
    x = np.asarray(x)
    return x[None, :] if x.ndim == 1 else x


def int_batch(x: object, name: str) -> np.ndarray:
    """`x` as an int64 batch (S, n), refusing what is not an exact integer: a float is
    accepted only when it has no fractional part (1.9 must not silently become 1)."""
    a = batch2d(np.asarray(x))
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    if a.dtype.kind == "O" and all(type(v) is int for v in a.flat):
        return a          # Python ints beyond int64 (exact; the tests widen as needed)
    if a.dtype.kind != "f":
        raise AnalysisInputError(f"{name}: integers expected (ns or ticks), got {a.dtype}")
    if not np.isfinite(a).all() or (a != np.floor(a)).any():
        bad = np.argwhere(~np.isfinite(a) | (a != np.floor(a)))[0]
        s, i = int(bad[0]), int(bad[1])
        raise AnalysisInputError(f"{name}: set {s}, task {i}: {float(a[s, i])} is not an integer "
                                 "(the tests are exact: give integer ns or scale the set)")
    return a.astype(np.int64)


def validated(C: object, T: object, D: object | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three arrays of a batch as int64 (S, n), validated (check_batch); D None = T."""
    Ci, Ti = int_batch(C, "C"), int_batch(T, "T")
    Di = Ti.copy() if D is None else int_batch(D, "D")
    if not (Ci.shape == Ti.shape == Di.shape):
        raise AnalysisInputError(f"C, T, D shapes differ: {Ci.shape}, {Ti.shape}, {Di.shape}")
    check_batch(Ci, Ti, Di)
    return Ci, Ti, Di


#: Largest magnitude kept in int64 arithmetic; beyond it the batch is computed in Python ints.
INT64_SAFE = 1 << 62


def widen(factor: int, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays unchanged if every intermediate (at most `factor` times the largest value)
    fits in int64, else as object arrays of Python ints (exact, slower): `gedf.bcl` with
    T near 2^63 used to overflow silently (issue 10)."""
    top = max(int(np.abs(a).max()) if a.size else 0 for a in arrays)
    if top * factor < INT64_SAFE:
        return arrays
    return tuple(np.asarray(a.astype(object)) for a in arrays)


def _int_list(x: object, name: str) -> list[int]:
    vals = x.tolist() if isinstance(x, np.ndarray) else list(x)  # type: ignore[call-overload]
    if set(map(type, vals)) == {int}:
        return vals
    for k, v in enumerate(vals):
        if type(v) is not int:
            if isinstance(v, float) and v.is_integer():
                vals[k] = int(v)
                continue
            if isinstance(v, np.integer):
                vals[k] = int(v)
                continue
            raise AnalysisInputError(f"{name}: task {k}: {v!r} is not an integer (the tests "
                                     "are exact: give integer ns or scale the set)")
    return vals


def one_set(C: object, T: object, D: object | None, m: int = 1, *, uniproc: bool = False,
            constrained: bool = False) -> tuple[list[int], list[int], list[int]]:
    """One task set (C, T, D) as lists of Python ints, validated: same non-zero length,
    C, T, D > 0, C <= D, D <= T if `constrained`, m >= 1 (= 1 if `uniproc`). D None = T.
    Errors name the argument and the task index."""
    if type(C) is list and type(T) is list and (D is None or type(D) is list) and \
            set(map(type, C + T + (D or []))) == {int}:
        c, t = C, T                         # the callers' lists, never modified
        d = t if D is None else D  # type: ignore[assignment]
    else:
        c, t = _int_list(C, "C"), _int_list(T, "T")
        d = t if D is None else _int_list(D, "D")
    n = len(c)
    if n == 0:
        raise AnalysisInputError("empty task set: at least one task is needed")
    if len(t) != n or len(d) != n:
        raise AnalysisInputError(f"C, T, D lengths differ: {n}, {len(t)}, {len(d)}")
    if m < 1 or (uniproc and m != 1):
        raise AnalysisInputError(f"m must be {'1 (uniprocessor test)' if uniproc else '>= 1'}, "
                                 f"got {m}")
    # the common case in C-speed builtins; the loop below only names the culprit
    if min(t) > 0 and min(c) > 0 and all(map(operator.le, c, d)) and \
            (not constrained or all(map(operator.le, d, t))):
        return c, t, d
    for k in range(n):
        if t[k] <= 0:
            raise AnalysisInputError(f"T: task {k}: period must be > 0, got {t[k]}")
        if c[k] <= 0:
            raise AnalysisInputError(f"C: task {k}: WCET must be > 0, got {c[k]}")
        if c[k] > d[k]:
            raise AnalysisInputError(f"C: task {k}: WCET {c[k]} exceeds deadline D = {d[k]}")
        if constrained and d[k] > t[k]:
            raise AnalysisInputError(f"D: task {k}: deadline {d[k]} > period {t[k]}; this "
                                     "test supports constrained deadlines (D <= T) only")
    raise AssertionError("unreachable: a check above failed")
