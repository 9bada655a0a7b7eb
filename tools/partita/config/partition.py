"""P-EDF: off-line assignment of tasks to cpus (first-, best-, worst-fit decreasing).

The packing is `partita.analysis.partition.place`, the one partitioner of the project: tasks
in order of decreasing density C/min(D, T) (then utilization, then input order), compared
exactly; a cpu accepts a task if its set stays EDF-schedulable, decided exactly (U <= 1 when
every D >= T, QPA otherwise); best-/worst-fit ties go to the lowest cpu.
This module keeps the configuration's view: cpu ids, pinned threads, `NoFit` messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from partita.analysis import edf
from partita.analysis.partition import place
from partita.model import Task

HEURISTICS = ("first-fit", "best-fit", "worst-fit")


class NoFit(Exception):
    def __init__(self, task: Task, loads: dict[int, float]) -> None:
        self.task = task
        self.loads = loads
        shown = ", ".join(f"cpu{c}={u:.3f}" for c, u in sorted(loads.items()))
        super().__init__(
            f"thread {task.name!r} (density {task.density:.3f}) fits on no cpu "
            f"(EDF loads: {shown})"
        )


def edf_fits(tasks: Sequence[Task]) -> bool:
    """Exact EDF test of the tasks on one cpu (jitter ignored, as the placement does)."""
    return edf.qpa_exact([t.wcet_ns for t in tasks], [t.period_ns for t in tasks],
                         [t.d for t in tasks])


def assign(
    tasks: Sequence[Task],
    cpus: Sequence[int],
    heuristic: str,
    pinned: dict[int, list[Task]] | None = None,
) -> dict[str, int]:
    """Map each task name to a cpu; `pinned` tasks are already placed. Raises NoFit."""
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic}")
    cpus = list(cpus)
    fixed_tasks = [(k, t) for k, c in enumerate(cpus) for t in (pinned or {}).get(c, [])]
    every = [t for _, t in fixed_tasks] + list(tasks)
    fixed = [k for k, _ in fixed_tasks] + [-1] * len(tasks)
    p = place([t.wcet_ns for t in every], [t.period_ns for t in every],
              [t.d for t in every], len(cpus), heuristic, "edf", fixed=fixed)
    if p.failed is not None:
        raise NoFit(every[p.failed], {c: p.loads[k] for k, c in enumerate(cpus)})
    return {t.name: cpus[p.cores[i]] for i, t in enumerate(every) if fixed[i] < 0}
