"""Trace checks shared by the system tests: what a scheduler policy promises, as predicates
over the reconstructed timeline. Each returns a list of human-readable violations."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from partita.trace.timeline import Timeline

__all__ = ["SLACK_NS", "fp_violations", "gedf_violations", "pending_jobs",
           "released_jobs"]

# Kernel latency allowed between an event (a release) and the scheduling decision it causes.
SLACK_NS = 50_000


@dataclass
class Pending:
    tid: int
    start_ns: int
    end_ns: int
    deadline_ns: int


def pending_jobs(tl: Timeline) -> list[Pending]:
    """Every job as [release, completion) (completion = end of trace if it never completed)."""
    out = []
    for tid, jobs in tl.jobs.items():
        for j in jobs.values():
            if j.release_ns is None:
                continue
            end = j.complete_ns if j.complete_ns is not None else tl.end_ns
            dl = j.abs_deadline_ns if j.abs_deadline_ns is not None else 1 << 62
            out.append(Pending(tid, j.release_ns, end, dl))
    return out


def fp_violations(tl: Timeline, prio: dict[int, int], cpu: int) -> list[str]:
    """On `cpu`, a thread runs only while no higher-priority (lower number) job is pending."""
    jobs = [p for p in pending_jobs(tl) if p.tid in prio]
    bad = []
    for s in tl.slices:
        if s.cpu != cpu or s.tid not in prio:
            continue
        lo, hi = s.start_ns + SLACK_NS, s.end_ns - SLACK_NS
        if lo >= hi:
            continue
        for p in jobs:
            if prio[p.tid] < prio[s.tid] and p.start_ns < hi and p.end_ns > lo:
                bad.append(f"{tl.name(s.tid)} ran on cpu{cpu} [{s.start_ns}, {s.end_ns}] while "
                           f"higher-priority {tl.name(p.tid)} was pending "
                           f"[{p.start_ns}, {p.end_ns}]")
                break
    return bad


def gedf_violations(tl: Timeline, tids: set[int], cpus: set[int]) -> list[str]:
    """On the cluster, at every instant away from events: no pending job waits while a cpu is
    idle or runs a job with a later deadline."""
    jobs = [p for p in pending_jobs(tl) if p.tid in tids]
    slices = [s for s in tl.slices if s.tid in tids and s.cpu in cpus]
    events = sorted({p.start_ns for p in jobs} | {p.end_ns for p in jobs}
                    | {s.start_ns for s in slices} | {s.end_ns for s in slices})
    bad: list[str] = []
    for a, b in pairwise(events):
        if b - a <= 2 * SLACK_NS:
            continue
        t = a + SLACK_NS
        running = {s.cpu: s.tid for s in slices if s.start_ns <= t < s.end_ns}

        def deadline(tid: int, t: int = t) -> int:
            return min((p.deadline_ns for p in jobs if p.tid == tid and p.start_ns <= t < p.end_ns),
                       default=1 << 62)

        waiting = [p for p in jobs if p.start_ns <= t < p.end_ns and p.tid not in
                   running.values()]
        for w in waiting:
            for cpu in cpus:
                tid = running.get(cpu)
                if tid is None or deadline(tid) > w.deadline_ns:
                    who = "idle" if tid is None else f"{tl.name(tid)} (deadline {deadline(tid)})"
                    bad.append(f"t={t}: {tl.name(w.tid)} (deadline {w.deadline_ns}) waits while "
                               f"cpu{cpu} runs {who}")
                    break
        if len(bad) > 20:
            break
    return bad


def released_jobs(tl: Timeline, tid: int) -> list:
    """Jobs of `tid` that were released, in release order."""
    return sorted((j for j in tl.jobs.get(tid, {}).values() if j.release_ns is not None),
                  key=lambda j: j.release_ns)
