"""P-EDF: off-line assignment of tasks to cpus (first-, best-, worst-fit decreasing).

Tasks are placed in order of decreasing density (utilization when D >= T). A cpu accepts a task
if its set stays EDF-schedulable: U <= 1 for implicit or constrained-by-period deadlines, the
density test sum C/min(D,T) <= 1 otherwise — or the exact test of `partita.analysis.edf`
(`qpa(tasks) -> bool`) when that module provides one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from partita.model import Task

EPS = 1e-12


class NoFit(Exception):
    def __init__(self, task: Task, loads: dict[int, float]) -> None:
        self.task = task
        self.loads = loads
        shown = ", ".join(f"cpu{c}={u:.3f}" for c, u in sorted(loads.items()))
        super().__init__(
            f"thread {task.name!r} (density {task.density:.3f}) fits on no cpu "
            f"(EDF loads: {shown})"
        )


def _analysis_test() -> Callable[[Sequence[Task]], bool] | None:
    try:
        mod = importlib.import_module("partita.analysis.edf")
    except ImportError:
        return None
    fn = getattr(mod, "qpa", None) or getattr(mod, "schedulable", None)
    return fn if callable(fn) else None


def edf_fits(tasks: Sequence[Task]) -> bool:
    """Sufficient EDF test on one cpu (exact when every D >= T)."""
    if all(t.d >= t.period_ns for t in tasks):
        return sum(t.utilization for t in tasks) <= 1 + EPS
    if sum(t.density for t in tasks) <= 1 + EPS:
        return True
    exact = _analysis_test()
    return bool(exact(list(tasks))) if exact is not None else False


def _load(tasks: Sequence[Task]) -> float:
    return sum(t.density for t in tasks)


def assign(
    tasks: Sequence[Task],
    cpus: Sequence[int],
    heuristic: str,
    pinned: dict[int, list[Task]] | None = None,
) -> dict[str, int]:
    """Map each task name to a cpu; `pinned` tasks are already placed. Raises NoFit."""
    bins: dict[int, list[Task]] = {c: list((pinned or {}).get(c, [])) for c in cpus}
    order = sorted(tasks, key=lambda t: (-t.density, -t.utilization, t.name))
    out: dict[str, int] = {}
    for t in order:
        fitting = [c for c in cpus if edf_fits([*bins[c], t])]
        if not fitting:
            raise NoFit(t, {c: _load(b) for c, b in bins.items()})
        if heuristic == "first-fit":
            cpu = fitting[0]
        elif heuristic == "best-fit":
            cpu = min(fitting, key=lambda c: (1 - _load(bins[c]) - t.density, c))
        elif heuristic == "worst-fit":
            cpu = min(fitting, key=lambda c: (_load(bins[c]), c))
        else:
            raise ValueError(f"unknown heuristic {heuristic}")
        bins[cpu].append(t)
        out[t.name] = cpu
    return out
