"""What happened, reconstructed from the merged trace: thread names, execution slices per hart,
and jobs (release, completion, deadline, misses) per thread. Times are ns of virtual time."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from partita.trace.format import Area, Ev, name_from_args

STOP_BUDGET = 3  # THREAD_STOP arg0 (enum pt_stop_reason): job aborted by budget enforcement

# Events after which the hart no longer runs the thread it last dispatched.
_ENDS_RUN = {Ev.PREEMPT, Ev.BLOCK, Ev.THREAD_STOP, Ev.FAULT}


@dataclass
class Slice:
    tid: int
    cpu: int
    start_ns: int
    end_ns: int


@dataclass
class Job:
    """One job. `release_ns` is the nominal release (epoch + offset + k * period, the instant
    the kernel measures the response from); `traced_release_ns` is when the release was
    traced, later by the release latency (tens of us for the first job, at boot)."""

    tid: int
    number: int
    release_ns: int | None = None
    abs_deadline_ns: int | None = None
    complete_ns: int | None = None
    kernel_response_ns: int | None = None
    missed: bool = False
    overrun: bool = False
    budget_aborted: bool = False  # stopped by budget enforcement (never completes)
    traced_release_ns: int | None = None

    @property
    def response_ns(self) -> int | None:
        """The kernel's own response time (COMPLETE record) is the truth; the difference of
        trace timestamps only when the kernel's is missing."""
        if self.kernel_response_ns is not None:
            return self.kernel_response_ns
        if self.complete_ns is not None and self.release_ns is not None:
            return self.complete_ns - self.release_ns
        return None

    @property
    def release_latency_ns(self) -> int | None:
        if self.traced_release_ns is None or self.release_ns is None:
            return None
        return self.traced_release_ns - self.release_ns

    @property
    def lateness_ns(self) -> int | None:
        if self.complete_ns is None or self.abs_deadline_ns is None:
            return None
        return self.complete_ns - self.abs_deadline_ns


@dataclass
class Point:
    """An instant: release, miss, overrun, fault, stop, migrate, mark."""

    kind: Ev
    tid: int
    cpu: int
    ts_ns: int
    arg0: int
    arg1: int


@dataclass
class Timeline:
    cycles_per_sec: int
    ncpus: int
    end_ns: int
    lost: int
    exit_code: int
    shutdown_seen: bool = False  # a SHUTDOWN record: the kernel powered off by itself
    lost_critical: int = 0  # misses, overruns, stops, faults lost despite the ring's reserve
    # The trace is complete up to this instant: after it, a hart that dropped records may
    # have lost completions, misses, ... (None: nothing was lost).
    complete_until_ns: int | None = None
    lossy_cpus: dict[int, int] = field(default_factory=dict)  # hart -> records it dropped
    names: dict[int, str] = field(default_factory=dict)
    slices: list[Slice] = field(default_factory=list)
    jobs: dict[int, dict[int, Job]] = field(default_factory=dict)
    points: list[Point] = field(default_factory=list)
    irqs: list[Slice] = field(default_factory=list)  # interrupt handlers (tid = cause)
    kernel_points: list[Point] = field(default_factory=list)  # SYSCALL, BLOCK, UNBLOCK

    def name(self, tid: int) -> str:
        return self.names.get(tid, "idle" if tid == 0 else f"tid{tid}")

    def tid_of(self, name: str) -> int | None:
        return next((t for t, n in self.names.items() if n == name), None)

    def dispatch_cpus(self, tid: int) -> list[int]:
        """The cpu of each execution slice of `tid`, in time order."""
        return [s.cpu for s in self.slices if s.tid == tid]


def build(area: Area, recs: np.ndarray | None = None) -> Timeline:
    """Reconstruct the timeline of a decoded trace area."""
    recs = area.merged() if recs is None else recs
    cps = area.cycles_per_sec or 1_000_000_000
    ts = recs["ts"].astype(np.uint64)
    if cps == 1_000_000_000:
        ts_ns = ts.astype(np.int64)
    else:
        ts_ns = (ts.astype(np.float64) * (1e9 / cps)).round().astype(np.int64)
    to_ns = 1e9 / cps
    end = int(ts_ns.max()) if len(ts_ns) else 0
    tl = Timeline(cps, area.ncpus, end, area.lost, area.exit_code,
                  lost_critical=area.lost_critical)
    tl.lossy_cpus = {r.cpu: r.dropped + r.dropped_critical for r in area.rings
                     if r.dropped or r.dropped_critical}
    lossy = [int(r.records["ts"].max()) if len(r.records) else 0
             for r in area.rings if r.dropped or r.dropped_critical]
    if lossy:
        tl.complete_until_ns = round(min(lossy) * to_ns)
    running: dict[int, tuple[int, int]] = {}  # cpu -> (tid, start)
    in_irq: dict[int, tuple[int, int]] = {}  # cpu -> (cause, start)

    def close(cpu: int, t: int) -> None:
        cur = running.pop(cpu, None)
        if cur is not None and cur[0] != 0:
            tl.slices.append(Slice(cur[0], cpu, cur[1], t))

    def job(tid: int, number: int) -> Job:
        per = tl.jobs.setdefault(tid, {})
        return per.setdefault(number, Job(tid, number))

    types = recs["type"].tolist()
    cpus = recs["cpu"].tolist()
    tids = recs["tid"].tolist()
    a0s = recs["arg0"].tolist()
    a1s = recs["arg1"].tolist()
    for i, t in enumerate(ts_ns.tolist()):
        kind, cpu, tid, a0, a1 = types[i], cpus[i], tids[i], a0s[i], a1s[i]
        if kind == Ev.THREAD_INFO:
            tl.names[tid] = name_from_args(a0, a1)
        elif kind == Ev.DISPATCH:
            close(cpu, t)
            running[cpu] = (tid, t)
        elif kind in (Ev.IDLE, Ev.SHUTDOWN):
            close(cpu, t)
        elif kind in _ENDS_RUN:
            if cpu in running and running[cpu][0] == tid:
                close(cpu, t)
        if kind == Ev.RELEASE:
            j = job(tid, a0)
            j.release_ns = t
            j.abs_deadline_ns = round(a1 * to_ns)
        elif kind == Ev.COMPLETE:
            j = job(tid, a0)
            j.complete_ns = t
            j.kernel_response_ns = round(a1 * to_ns)
        elif kind == Ev.DEADLINE_MISS:
            j = job(tid, a0)
            j.missed = True
            if j.abs_deadline_ns is None:
                j.abs_deadline_ns = round(a1 * to_ns)
        elif kind == Ev.OVERRUN:
            job(tid, a0).overrun = True
        elif kind == Ev.THREAD_STOP and a0 == STOP_BUDGET and tid in tl.jobs and a1 in tl.jobs[tid]:
            tl.jobs[tid][a1].budget_aborted = True  # arg1 = the aborted job
        elif kind == Ev.SHUTDOWN:
            tl.shutdown_seen = True
            if a0 and not tl.exit_code:  # a panic that could not write the header's code
                tl.exit_code = a0
        if kind in (Ev.RELEASE, Ev.DEADLINE_MISS, Ev.OVERRUN, Ev.FAULT, Ev.THREAD_STOP,
                    Ev.MIGRATE, Ev.MARK, Ev.BOOT, Ev.SHUTDOWN):
            tl.points.append(Point(Ev(kind), tid, cpu, t, a0, a1))
        elif kind in (Ev.SYSCALL, Ev.BLOCK, Ev.UNBLOCK):
            tl.kernel_points.append(Point(Ev(kind), tid, cpu, t, a0, a1))
        elif kind == Ev.IRQ_ENTER:
            in_irq[cpu] = (a0, t)
        elif kind == Ev.IRQ_EXIT and cpu in in_irq:
            cause, start = in_irq.pop(cpu)
            tl.irqs.append(Slice(cause, cpu, start, t))
    for cpu in list(running):
        close(cpu, end)
    for per in tl.jobs.values():
        _nominal_releases(per)
        for j in per.values():
            if j.lateness_ns is not None and j.lateness_ns > 0:
                j.missed = True
    return tl


def _nominal_releases(per: dict[int, Job]) -> None:
    """Move each job's release to its nominal instant, absolute deadline - relative deadline
    (the RELEASE record carries the exact absolute deadline). The relative deadline is learnt
    from the completed jobs (completion - kernel response = nominal release) as the most common
    value: the COMPLETE record is stamped a little after the instant the kernel measured the
    response to, now and then by tens of us. Without a deadline: completion - response. The
    traced instant stays in traced_release_ns."""
    from collections import Counter

    seen: Counter[int] = Counter()
    for j in per.values():
        j.traced_release_ns = j.release_ns
        if (j.complete_ns is not None and j.kernel_response_ns is not None
                and j.abs_deadline_ns is not None):
            seen[j.abs_deadline_ns - (j.complete_ns - j.kernel_response_ns)] += 1
    rel_deadline = seen.most_common(1)[0][0] if seen else None
    for j in per.values():
        if rel_deadline is not None and j.abs_deadline_ns is not None:
            j.release_ns = j.abs_deadline_ns - rel_deadline
        elif j.complete_ns is not None and j.kernel_response_ns is not None:
            j.release_ns = j.complete_ns - j.kernel_response_ns
