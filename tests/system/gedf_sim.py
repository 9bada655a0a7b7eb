"""A small exact simulator of global EDF on m identical processors, for comparing a run with
theory: jobs of periodic tasks with given execution demands. Equal deadlines: a running job
keeps its processor (the kernel preempts only for a strictly earlier deadline), then the
earlier release, then the lower task index."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SimTask:
    period: int
    deadline: int
    offset: int
    demands: list[int]  # execution demand of job 0, 1, ... (the last one repeats)


def simulate(tasks: list[SimTask], m: int, horizon: int) -> list[list[tuple[int, int]]]:
    """Per task, (completion, absolute deadline) of every job released before `horizon`."""
    jobs: list[tuple[int, int, int, int, int]] = []  # (release, deadline, task, k, demand)
    for i, t in enumerate(tasks):
        k = 0
        while t.offset + k * t.period < horizon:
            r = t.offset + k * t.period
            c = t.demands[min(k, len(t.demands) - 1)]
            jobs.append((r, r + t.deadline, i, k, c))
            k += 1
    left = {(j[2], j[3]): j[4] for j in jobs}
    done: dict[tuple[int, int], int] = {}
    now = 0
    end = horizon * 4
    running: set[tuple[int, int]] = set()
    while len(done) < len(jobs) and now < end:
        # ready: released, not done, and the task's previous job is done
        ready = [j for j in jobs if j[0] <= now and (j[2], j[3]) not in done
                 and (j[3] == 0 or (j[2], j[3] - 1) in done)]
        ready.sort(key=lambda j: (j[1], (j[2], j[3]) not in running, j[0], j[2], j[3]))
        run = ready[:m]
        running = {(j[2], j[3]) for j in run}
        future = [j[0] for j in jobs if j[0] > now]
        step = min([left[(j[2], j[3])] for j in run] + ([min(future) - now] if future else []),
                   default=None)
        if step is None:
            break
        for j in run:
            left[(j[2], j[3])] -= step
        now += step
        for j in run:
            if left[(j[2], j[3])] == 0:
                done[(j[2], j[3])] = now
    out: list[list[tuple[int, int]]] = [[] for _ in tasks]
    for r, d, i, k, _ in sorted(jobs, key=lambda j: (j[2], j[3])):
        out[i].append((done.get((i, k), end), d))
    return out
