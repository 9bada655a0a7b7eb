"""Small exact discrete-event simulators (integer ns) used to cross-check the analyses.

They are references, written for clarity over speed: event-driven, one job list, no
approximation. Each returns the largest observed response time per task and whether any
job of the task missed its deadline. `simulate_uni` and `simulate_gedf` also take per-job
execution times (`job_costs[i][k]` for the k-th release of task i, e.g. the modeled cycles of
`partita experiment coloring`) instead of one C per task, and report when the last job ended.

- `simulate_uni`: one processor, preemptive FP ("fp"), non-preemptive FP ("np-fp") or
  preemptive EDF ("edf"); priorities follow the array order (index 0 highest).
- `simulate_gedf`: global preemptive EDF on m identical processors.
- `simulate_spm`: the three-phase protocol of one application core (brief 0): two
  scratchpad partitions, TDMA DMA slots (own slot every M), Rule 1 / Rule 2, non-preemptive
  FP execution; a job completes when its unload completes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class SimResult:
    max_response: list[int]
    missed: list[bool]
    jobs: list[int] = field(default_factory=list)
    last_completion: int = 0          # when the last job completed (0: no job)


@dataclass
class _Job:
    task: int
    release: int
    deadline: int
    left: int


def periodic_releases(T: Sequence[int], horizon: int, offsets: Sequence[int] | None = None
                      ) -> list[list[int]]:
    """Release times of periodic tasks in [0, horizon)."""
    offs = [0] * len(T) if offsets is None else offsets
    return [list(range(o, horizon, t)) for o, t in zip(offs, T, strict=True)]


def _prep(releases: Sequence[Sequence[int]], C: Sequence[int], D: Sequence[int],
          job_costs: Sequence[Sequence[int]] | None = None) -> list[tuple[int, int, int]]:
    """Releases in time order as (time, task, cost of that job)."""
    assert all(C[i] > 0 and D[i] > 0 for i in range(len(C)))
    if job_costs is None:
        return sorted((r, i, C[i]) for i, rs in enumerate(releases) for r in rs)
    for i, rs in enumerate(releases):
        if len(job_costs[i]) < len(rs) or min(job_costs[i][:len(rs)], default=1) <= 0:
            raise ValueError(f"task {i}: {len(rs)} releases need as many positive job costs, "
                             f"got {list(job_costs[i])[:len(rs)]}")
    return sorted((r, i, job_costs[i][k]) for i, rs in enumerate(releases)
                  for k, r in enumerate(rs))


def simulate_uni(C: Sequence[int], D: Sequence[int], releases: Sequence[Sequence[int]],
                 policy: str = "fp", job_costs: Sequence[Sequence[int]] | None = None
                 ) -> SimResult:
    n = len(C)
    ev = _prep(releases, C, D, job_costs)
    res = SimResult([0] * n, [False] * n, [0] * n)
    ready: list[_Job] = []
    k = 0
    t = ev[0][0] if ev else 0
    running: _Job | None = None

    def key(j: _Job) -> tuple[int, int, int]:
        if policy == "edf":
            return (j.deadline, j.task, j.release)
        return (j.task, j.release, 0)

    while k < len(ev) or ready:
        while k < len(ev) and ev[k][0] <= t:
            r, i, c = ev[k]
            ready.append(_Job(i, r, r + D[i], c))
            k += 1
        if not ready:
            t = ev[k][0]
            continue
        if policy == "np-fp" and running is not None and running in ready:
            cur = running
        else:
            cur = min(ready, key=key)
        running = cur
        nxt = ev[k][0] if k < len(ev) else None
        run = cur.left if nxt is None else min(cur.left, nxt - t)
        if policy == "np-fp":
            run = cur.left
        t += run
        cur.left -= run
        if cur.left == 0:
            ready.remove(cur)
            running = None
            rt = t - cur.release
            res.max_response[cur.task] = max(res.max_response[cur.task], rt)
            res.missed[cur.task] |= t > cur.deadline
            res.jobs[cur.task] += 1
            res.last_completion = t
    return res


def simulate_gedf(C: Sequence[int], D: Sequence[int], releases: Sequence[Sequence[int]],
                  m: int, job_costs: Sequence[Sequence[int]] | None = None) -> SimResult:
    n = len(C)
    ev = _prep(releases, C, D, job_costs)
    res = SimResult([0] * n, [False] * n, [0] * n)
    ready: list[_Job] = []
    k = 0
    t = ev[0][0] if ev else 0
    while k < len(ev) or ready:
        while k < len(ev) and ev[k][0] <= t:
            r, i, c = ev[k]
            ready.append(_Job(i, r, r + D[i], c))
            k += 1
        if not ready:
            t = ev[k][0]
            continue
        ready.sort(key=lambda j: (j.deadline, j.task, j.release))
        # a job runs only after its task's previous job completed (jobs of one task are
        # sequential; with D > T two of them can be pending at once)
        run, busy = [], set()
        for j in ready:
            if j.task not in busy:
                busy.add(j.task)
                run.append(j)
                if len(run) == m:
                    break
        step = min(j.left for j in run)
        if k < len(ev):
            step = min(step, ev[k][0] - t)
        t += step
        for j in run:
            j.left -= step
            if j.left == 0:
                ready.remove(j)
                res.max_response[j.task] = max(res.max_response[j.task], t - j.release)
                res.missed[j.task] |= t > j.deadline
                res.jobs[j.task] += 1
                res.last_completion = t
    return res


@dataclass
class SpmJobLog:
    """One job of `simulate_spm(..., log=[])`: times in ns, slots numbered globally
    (slot s covers [s sigma, (s + 1) sigma) and belongs to core s mod M)."""
    task: int
    job: int                  # 0-based, in release order of the task
    release: int
    load_slot: int = -1
    load_start: int = -1
    load_end: int = -1
    exec_start: int = -1
    exec_end: int = -1
    unload_slot: int = -1
    unload_start: int = -1
    unload_end: int = -1
    partition: int = -1


def simulate_spm(c: Sequence[int], D: Sequence[int], releases: Sequence[Sequence[int]],
                 sigma: int, M: int = 2, core: int = 0,
                 load_ns: Sequence[int] | None = None,
                 unload_ns: Sequence[int] | None = None,
                 exec_ns: Sequence[Sequence[int]] | None = None,
                 copy_ns: Sequence[Sequence[tuple[int, int]]] | None = None,
                 log: list[SpmJobLog] | None = None,
                 first_partition: int | None = None, serial: bool = True) -> SimResult:
    """Exact simulation of one application core under the SPM protocol.

    Own slots start at (k M + core) sigma. Order of processing at one instant: DMA
    completion, CPU completion, releases, slot decision (Rule 1, else Rule 2), CPU dispatch.
    A DMA operation lasts load_ns/unload_ns (default: the whole slot, <= sigma).
    `exec_ns[i][j]`, if given, is the execution time of job j of task i (else c[i]), and
    `copy_ns[i][j]` its (load, unload) durations (else load_ns/unload_ns); `log`,
    if given, receives one SpmJobLog per job, in completion order (kernel comparison).
    `first_partition`: if given, loads alternate between the partitions starting with this
    one, as the kernel does (else the lowest free one); the bounds do not depend on it.
    `serial` (default, as the kernel): a release while the task's previous job is anywhere in
    the pipeline (active, in a partition, being unloaded) is held pending and becomes active
    when that job's unload completes, keeping its nominal release; with `serial=False` it
    becomes active at once (two jobs of one task may then occupy both partitions)."""
    n = len(c)
    ld = [sigma] * n if load_ns is None else list(load_ns)
    ul = [sigma] * n if unload_ns is None else list(unload_ns)
    if max(ld + ul) > sigma:
        raise ValueError("a copy longer than the TDMA slot")
    ev = _prep(releases, c, D)
    res = SimResult([0] * n, [False] * n, [0] * n)
    part: list[_Job | None] = [None, None]
    state = ["free", "free"]          # free | loading | loaded | running | done | unloading
    done_at = [0, 0]
    active: list[_Job] = []
    cpu_end: int | None = None
    cpu_part = -1
    dma_end: int | None = None
    dma_part = -1
    k = 0
    slot_k = 0
    t = 0
    njobs = [0] * n
    jl: dict[int, SpmJobLog] = {}
    cp: dict[int, tuple[int, int]] = {}
    last_load = 1 if first_partition is None else 1 - first_partition
    inflight: set[int] = set()        # tasks with a job active or in a partition (serial)
    held: dict[int, list[_Job]] = {}  # their pending releases, oldest first
    while True:
        slot_t = (slot_k * M + core) * sigma
        cands = [x for x in (cpu_end, dma_end, slot_t) if x is not None]
        if k < len(ev):
            cands.append(ev[k][0])
        pending = active or any(s != "free" for s in state) or any(held.values())
        if k >= len(ev) and not pending:
            break
        t = min(cands)
        if dma_end == t:
            p = dma_part
            if state[p] == "loading":
                state[p] = "loaded"
                jl[id(part[p])].load_end = t
            else:
                j = part[p]
                assert j is not None
                rec = jl.pop(id(j))
                rec.unload_end = t
                if log is not None:
                    log.append(rec)
                rt = t - j.release
                res.max_response[j.task] = max(res.max_response[j.task], rt)
                res.missed[j.task] |= t > j.deadline
                res.jobs[j.task] += 1
                part[p], state[p] = None, "free"
                if serial:
                    if held.get(j.task):
                        active.append(held[j.task].pop(0))
                    else:
                        inflight.discard(j.task)
            dma_end = None
        if cpu_end == t:
            jl[id(part[cpu_part])].exec_end = t
            state[cpu_part] = "done"
            done_at[cpu_part] = t
            cpu_end = None
        while k < len(ev) and ev[k][0] <= t:
            r, i, _ = ev[k]
            nj = njobs[i]
            njobs[i] += 1
            cj = c[i] if exec_ns is None else exec_ns[i][nj]
            j = _Job(i, r, r + D[i], cj)
            jl[id(j)] = SpmJobLog(i, nj, r)
            cp[id(j)] = (ld[i], ul[i]) if copy_ns is None else copy_ns[i][nj]
            if serial and i in inflight:
                held.setdefault(i, []).append(j)
            else:
                inflight.add(i)
                active.append(j)
            k += 1
        if slot_t == t:
            slot_k += 1
            free = [p for p in (0, 1) if state[p] == "free"]
            if free and active:
                j = min(active, key=lambda j: (j.task, j.release))
                active.remove(j)
                p = free[0] if first_partition is None or len(free) == 1 else 1 - last_load
                last_load = p
                part[p], state[p] = j, "loading"
                dma_end, dma_part = t + cp[id(j)][0], p
                rec = jl[id(j)]
                rec.load_slot, rec.load_start, rec.partition = (slot_k - 1) * M + core, t, p
            else:
                dn = [p for p in (0, 1) if state[p] == "done"]
                if dn:
                    p = min(dn, key=lambda p: done_at[p])
                    state[p] = "unloading"
                    jj = part[p]
                    assert jj is not None
                    dma_end, dma_part = t + cp[id(jj)][1], p
                    jl[id(jj)].unload_slot, jl[id(jj)].unload_start = (slot_k - 1) * M + core, t
        if cpu_end is None:
            ld_parts = [p for p in (0, 1) if state[p] == "loaded"]
            if ld_parts:
                p = min(ld_parts, key=lambda p: (part[p].task, part[p].release))  # type: ignore[union-attr]
                state[p] = "running"
                cpu_end, cpu_part = t + part[p].left, p  # type: ignore[union-attr]
                jl[id(part[p])].exec_start = t
    return res
