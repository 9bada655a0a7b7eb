"""Per-task statistics of a run, from its timeline: what `partita report` prints and what the
system tests assert on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from partita.model import Task
from partita.trace.format import Ev
from partita.trace.timeline import Timeline

# arg0 of THREAD_STOP (enum pt_stop_reason in kernel/core/kernel.h)
STOP_BUDGET = 3
STOP_REASONS = {1: "fault", 2: "deadline miss", 3: "budget", 4: "partition fault",
                5: "deleted", 6: "exit"}


@dataclass
class TaskStats:
    name: str
    tid: int
    released: int = 0
    completed: int = 0
    misses: int = 0
    overruns: int = 0
    min_response_ns: int | None = None
    avg_response_ns: float | None = None
    max_response_ns: int | None = None
    max_lateness_ns: int | None = None
    max_exec_ns: int | None = None  # longest execution of a completed job (compare with wcet)
    cpus: list[int] = field(default_factory=list)
    migrations: int = 0
    faults: int = 0
    stopped: bool = False
    stop_reason: str | None = None
    budget_stops: int = 0  # jobs aborted by budget enforcement (the thread continues)
    fault_addr: int | None = None
    # from the configuration (pt_config.json), when known
    period_ns: int | None = None
    deadline_ns: int | None = None
    wcet_ns: int | None = None
    # from bounds.json, when given
    bound_ns: int | None = None
    schedulable: bool | None = None
    # trace records lost that may hide this task's jobs, misses, overruns or budget stops
    # (from the kernel's counters when it has them, else the harts' drop counts)
    uncertain_records: int = 0
    # the kernel's own counters (struct pt_thread_counters), when the kernel wrote them
    kernel: dict[str, int] | None = None

    @property
    def verdict(self) -> str:
        """Observed max response against the analysis bound; budget aborts and lost records
        get verdicts of their own (an aborted job has no response; a lost record proves
        nothing either way)."""
        if (self.bound_ns is not None and self.max_response_ns is not None
                and self.max_response_ns > self.bound_ns):
            return "EXCEEDS"
        if self.uncertain_records:
            return f"uncertain ({self.uncertain_records} records lost)"
        if self.budget_stops:
            return "ABORTED"
        if self.bound_ns is None or self.max_response_ns is None:
            return "-"
        return "ok"

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["verdict"] = self.verdict
        return d


def job_exec_ns(tl: Timeline, tid: int) -> list[int]:
    """Execution time (ns dispatched) of each completed job of `tid`, in job order (one linear
    pass). A job runs from its release, or from the completion of the job before it if that
    came later (a late job's successor is released on time but queued behind it,
    docs/kernel.md), to its completion."""
    slices = sorted((s.start_ns, s.end_ns) for s in tl.slices if s.tid == tid)
    out: list[int] = []
    first, prev_done = 0, 0
    for j in sorted(tl.jobs.get(tid, {}).values(), key=lambda j: j.number):
        if j.release_ns is None or j.complete_ns is None:
            continue
        start, done = max(j.release_ns, prev_done), j.complete_ns
        prev_done = done
        while first < len(slices) and slices[first][1] <= start:
            first += 1
        total, i = 0, first
        while i < len(slices) and slices[i][0] < done:
            total += max(0, min(slices[i][1], done) - max(slices[i][0], start))
            i += 1
        out.append(total)
    return out


def task_stats(tl: Timeline) -> dict[str, TaskStats]:
    """Statistics of every named thread (and of unnamed tids that have jobs), by name."""
    tids = set(tl.names) | set(tl.jobs) | {s.tid for s in tl.slices}
    tids.discard(0)
    out: dict[str, TaskStats] = {}
    for tid in sorted(tids):
        st = TaskStats(tl.name(tid), tid)
        jobs = sorted(tl.jobs.get(tid, {}).values(), key=lambda j: j.number)
        st.released = sum(1 for j in jobs if j.release_ns is not None)
        done = [j for j in jobs if j.complete_ns is not None]
        st.completed = len(done)
        st.misses = sum(1 for j in jobs if j.missed)
        st.overruns = sum(1 for j in jobs if j.overrun)
        resp = [r for r in (j.response_ns for j in done) if r is not None]
        if resp:
            st.min_response_ns, st.max_response_ns = min(resp), max(resp)
            st.avg_response_ns = sum(resp) / len(resp)
        late = [x for x in (j.lateness_ns for j in jobs) if x is not None]
        st.max_lateness_ns = max(late) if late else None
        execs = job_exec_ns(tl, tid)
        st.max_exec_ns = max(execs) if execs else None
        cpus = tl.dispatch_cpus(tid)
        st.cpus = sorted(set(cpus))
        st.migrations = sum(1 for a, b in zip(cpus, cpus[1:], strict=False) if a != b)
        lossy = {c: n for c, n in tl.lossy_cpus.items() if c in st.cpus or not st.cpus}
        if lossy:  # it ran on a hart that lost records: its jobs there may be missing
            st.uncertain_records = sum(lossy.values())
        elif tl.complete_until_ns is not None and any(
                j.release_ns is None or j.release_ns >= tl.complete_until_ns
                or (j.complete_ns is None and not j.budget_aborted) for j in jobs):
            st.uncertain_records = tl.lost + tl.lost_critical
        for p in tl.points:
            if p.tid != tid:
                continue
            if p.kind == Ev.FAULT:
                st.faults += 1
                st.fault_addr = p.arg1
            elif p.kind == Ev.THREAD_STOP:
                if p.arg0 == STOP_BUDGET:
                    st.budget_stops += 1
                else:
                    st.stopped = True
                    st.stop_reason = STOP_REASONS.get(p.arg0, str(p.arg0))
        out[st.name] = st
    return out


def attach_tasks(stats: dict[str, TaskStats], tasks: Sequence[Task]) -> None:
    """Add period/deadline/wcet from the configuration's task set (Resolved.tasks())."""
    for t in tasks:
        st = stats.get(t.name)
        if st is not None:
            st.period_ns, st.deadline_ns, st.wcet_ns = t.period_ns, t.d, t.wcet_ns


def attach_counters(stats: dict[str, TaskStats], counters: object, cycles_per_sec: int) -> None:
    """Check the trace-derived numbers against the kernel's own per-thread counters (the
    truth): where the trace shows fewer jobs, completions, misses, overruns or budget stops,
    or a smaller worst response, records were lost and the task's verdict becomes uncertain.
    The kernel's worst response replaces a smaller traced one."""
    import numpy as np

    if not isinstance(counters, np.ndarray) or not len(counters):
        return
    to_ns = 1e9 / (cycles_per_sec or 1_000_000_000)
    by_tid = {s.tid: s for s in stats.values()}
    for row in counters:
        name = bytes(row["name"]).split(b"\0", 1)[0].decode("utf-8", "replace")
        st = by_tid.get(int(row["tid"])) or stats.get(name)
        if st is None:
            st = stats[name or f"tid{int(row['tid'])}"] = TaskStats(
                name or f"tid{int(row['tid'])}", int(row["tid"]))
        k = {f: int(row[f]) for f in ("released", "done", "miss", "overrun", "budget",
                                      "dropped_records")}
        k["max_response_ns"] = round(int(row["max_response_cycles"]) * to_ns)
        k["stopped"] = int(row["flags"]) & 1
        st.kernel = k
        gaps = [k["released"] - st.released, k["done"] - st.completed, k["miss"] - st.misses,
                k["overrun"] - st.overruns, k["budget"] - st.budget_stops]
        lost = max([0, *gaps]) + k["dropped_records"]
        if lost:
            st.uncertain_records = max(st.uncertain_records, lost)
        elif st.uncertain_records and not any(gaps):
            st.uncertain_records = 0  # the kernel confirms every job, miss and stop
        st.misses = max(st.misses, k["miss"])
        st.overruns = max(st.overruns, k["overrun"])
        st.budget_stops = max(st.budget_stops, k["budget"])
        if k["done"] and (st.max_response_ns is None or k["max_response_ns"] > st.max_response_ns):
            st.max_response_ns = k["max_response_ns"]


def attach_bounds(stats: dict[str, TaskStats], bounds: dict[str, object]) -> None:
    """Add analysis bounds from a bounds.json document (see docs/user-guide.md)."""
    tasks = bounds.get("tasks", {})
    assert isinstance(tasks, dict)
    for name, b in tasks.items():
        st = stats.get(name)
        if st is None:
            continue
        st.bound_ns = b.get("bound_ns")
        st.schedulable = b.get("schedulable")
        if st.deadline_ns is None:
            st.deadline_ns = b.get("deadline_ns")


@dataclass
class BoundViolation:
    """A job whose response time exceeded its task's analysis bound (or a task without one)."""

    task: str
    job: int | None
    release_ns: int | None
    response_ns: int | None  # observed; for an unfinished job, a lower bound (end - release)
    bound_ns: int | None
    finished: bool = True
    aborted: bool = False  # stopped by budget enforcement: no response at all

    def __str__(self) -> str:
        if self.bound_ns is None:
            return f"{self.task}: no analysis bound"
        if self.aborted:
            return (f"{self.task} job {self.job} released at {self.release_ns} ns: aborted by "
                    "budget enforcement (exceeded its wcet)")
        what = "response" if self.finished else "unfinished at end of trace, response >"
        return (f"{self.task} job {self.job} released at {self.release_ns} ns: {what} "
                f"{self.response_ns} ns > bound {self.bound_ns} ns")


def bound_violations(tl: Timeline, bounds: dict[str, int | None]) -> list[BoundViolation]:
    """Check every traced job of every task in `bounds` ({task: bound_ns or None}) against
    its bound: a completed job whose response (COMPLETE - RELEASE) exceeds it, a job still
    unfinished at the end of the trace although released more than the bound before it, and
    a task whose bound is None. Tasks absent from the trace are not reported (check
    `released` separately)."""
    out: list[BoundViolation] = []
    for name, bound in bounds.items():
        tid = tl.tid_of(name)
        jobs = [] if tid is None else sorted(tl.jobs.get(tid, {}).values(),
                                             key=lambda j: j.number)
        if bound is None:
            if jobs:
                out.append(BoundViolation(name, None, None, None, None))
            continue
        for j in jobs:
            if j.release_ns is None:
                continue
            r = j.response_ns
            if j.complete_ns is not None and r is not None:
                if r > bound:
                    out.append(BoundViolation(name, j.number, j.release_ns, r, bound))
            elif j.budget_aborted:
                out.append(BoundViolation(name, j.number, j.release_ns, None, bound,
                                          finished=False, aborted=True))
            elif tl.complete_until_ns is not None and j.release_ns + bound >= min(
                    tl.complete_until_ns, tl.end_ns):
                continue  # its completion may be among the lost records: uncertain, not late
            elif tl.end_ns - j.release_ns > bound:
                out.append(BoundViolation(name, j.number, j.release_ns,
                                          tl.end_ns - j.release_ns, bound, finished=False))
    return out
