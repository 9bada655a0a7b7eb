"""Chrome trace-event JSON (opens in Perfetto, ui.perfetto.dev; format: "Trace Event Format",
the JSON Object Format with `traceEvents`). Times are µs of virtual time.

Process "harts": one track per hart with the thread running on it, one "hart N irq" track
with the interrupt handlers, and per-hart counters (busy: 1 while a thread runs, 0 idle).
Process "threads": one track per thread with its execution ("on hart N"); its jobs as async
spans from (nominal) release to completion, with the deadline, response and lateness in µs;
releases, deadline misses, overruns, budget stops, faults and system calls as instants whose
arguments are readable (µs, thread names, job numbers). Flows (arrows) join a wake-up to the
woken thread's next dispatch and a migration to the first run on the new hart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from partita.trace.format import Ev
from partita.trace.stats import STOP_REASONS
from partita.trace.timeline import Timeline

PID_HARTS = 1
PID_THREADS = 2
IRQ_TRACK = 1000  # tid of hart N's interrupt track: IRQ_TRACK + N
_INSTANT_NAMES = {
    Ev.RELEASE: "release", Ev.DEADLINE_MISS: "deadline miss", Ev.OVERRUN: "overrun",
    Ev.FAULT: "fault", Ev.THREAD_STOP: "stopped", Ev.MIGRATE: "migrate", Ev.MARK: "mark",
    Ev.BOOT: "boot", Ev.SHUTDOWN: "shutdown", Ev.SYSCALL: "syscall",
}
IRQ_CAUSES = {1: "software (IPI)", 5: "timer", 9: "external"}


def _us(ns: float) -> float:
    return ns / 1000.0


def _meta(pid: int, tid: int | None, key: str, value: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"ph": "M", "pid": pid, "name": key, "args": {}}
    if tid is not None:
        ev["tid"] = tid
    ev["args"]["name" if key.endswith("_name") else "sort_index"] = value
    return ev


def _point_args(tl: Timeline, kind: Ev, tid: int, cpu: int, a0: int, a1: int
                ) -> dict[str, Any]:
    """Readable arguments of an instant: µs, names, job numbers (never raw cycles)."""
    to_us = 1e6 / (tl.cycles_per_sec or 1_000_000_000)
    args: dict[str, Any] = {"hart": cpu, "thread": tl.name(tid)}
    if kind in (Ev.RELEASE, Ev.DEADLINE_MISS):
        args.update(job=a0, deadline_us=round(a1 * to_us, 3))
    elif kind == Ev.OVERRUN:
        args.update(late_job=a0)
    elif kind == Ev.THREAD_STOP:
        args.update(reason=STOP_REASONS.get(a0, str(a0)))
        if a0 == 3:
            args.update(job=a1)
    elif kind == Ev.FAULT:
        args.update(scause=hex(a0), address=hex(a1))
    elif kind == Ev.MIGRATE:
        args.update(from_hart=a0, to_hart=a1)
    elif kind == Ev.SYSCALL:
        args.update(number=a0, result=a1 - (1 << 64) if a1 >= 1 << 63 else a1)
    elif kind == Ev.BOOT:
        args.update(harts=a0)
    elif kind == Ev.SHUTDOWN:
        args.update(code=a0)
    else:
        args.update(arg0=a0, arg1=a1)
    return args


def to_events(tl: Timeline) -> dict[str, Any]:
    events: list[dict[str, Any]] = [
        _meta(PID_HARTS, None, "process_name", "harts"),
        _meta(PID_THREADS, None, "process_name", "threads"),
    ]
    for cpu in range(tl.ncpus):
        events.append(_meta(PID_HARTS, cpu, "thread_name", f"hart {cpu}"))
        events.append(_meta(PID_HARTS, cpu, "thread_sort_index", 2 * cpu))
        events.append(_meta(PID_HARTS, IRQ_TRACK + cpu, "thread_name", f"hart {cpu} irq"))
        events.append(_meta(PID_HARTS, IRQ_TRACK + cpu, "thread_sort_index", 2 * cpu + 1))
    tids = sorted(set(tl.names) | {s.tid for s in tl.slices} | set(tl.jobs))
    for tid in tids:
        if tid:
            events.append(_meta(PID_THREADS, tid, "thread_name", tl.name(tid)))
            events.append(_meta(PID_THREADS, tid, "thread_sort_index", tid))
    busy: list[tuple[int, int, int]] = []  # (ts, cpu, 0/1)
    for s in tl.slices:
        name = tl.name(s.tid)
        dur = _us(s.end_ns - s.start_ns)
        events.append({"ph": "X", "pid": PID_HARTS, "tid": s.cpu, "ts": _us(s.start_ns),
                       "dur": dur, "name": name, "cat": "run",
                       "args": {"thread": name, "tid": s.tid}})
        events.append({"ph": "X", "pid": PID_THREADS, "tid": s.tid, "ts": _us(s.start_ns),
                       "dur": dur, "name": f"on hart {s.cpu}", "cat": "run",
                       "args": {"hart": s.cpu}})
        busy += [(s.start_ns, s.cpu, 1), (s.end_ns, s.cpu, 0)]
    for q in tl.irqs:
        events.append({"ph": "X", "pid": PID_HARTS, "tid": IRQ_TRACK + q.cpu,
                       "ts": _us(q.start_ns), "dur": _us(q.end_ns - q.start_ns),
                       "name": f"irq {IRQ_CAUSES.get(q.tid, q.tid)}", "cat": "irq",
                       "args": {"cause": q.tid}})
    # per-hart counter: 1 while a thread runs (end before start at equal times)
    for ts, cpu, v in sorted(busy, key=lambda b: (b[0], b[2])):
        events.append({"ph": "C", "pid": PID_HARTS, "tid": cpu, "ts": _us(ts),
                       "name": f"hart {cpu} busy", "args": {"busy": v}})
    for tid, jobs in tl.jobs.items():
        name = tl.name(tid)
        for j in jobs.values():
            if j.release_ns is None:
                continue
            end = j.complete_ns if j.complete_ns is not None else tl.end_ns
            args: dict[str, Any] = {"job": j.number, "thread": name}
            if j.abs_deadline_ns is not None:
                args["deadline_us"] = _us(j.abs_deadline_ns)
                args["lateness_us"] = _us(end - j.abs_deadline_ns)
            if j.response_ns is not None and j.complete_ns is not None:
                args["response_us"] = _us(j.response_ns)
            if j.release_latency_ns is not None:
                args["release_latency_us"] = _us(j.release_latency_ns)
            args["outcome"] = ("budget abort" if j.budget_aborted else "missed" if j.missed
                               else "done" if j.complete_ns is not None else "unfinished")
            ident = f"{tid}.{j.number}"
            common = {"pid": PID_THREADS, "tid": tid, "cat": "job", "id": ident,
                      "name": f"{name} job {j.number}"}
            events.append({**common, "ph": "b", "ts": _us(j.release_ns), "args": args})
            events.append({**common, "ph": "e", "ts": _us(max(end, j.release_ns))})
    for p in [*tl.points, *tl.kernel_points]:
        if p.kind in (Ev.BLOCK, Ev.UNBLOCK):
            continue
        name = _INSTANT_NAMES.get(p.kind, p.kind.name.lower())
        if p.kind == Ev.SYSCALL:
            name = f"syscall {p.arg0}"
        on_thread = p.tid != 0
        events.append({
            "ph": "i", "s": "t", "pid": PID_THREADS if on_thread else PID_HARTS,
            "tid": p.tid if on_thread else p.cpu, "ts": _us(p.ts_ns), "name": name,
            "cat": "event", "args": _point_args(tl, p.kind, p.tid, p.cpu, p.arg0, p.arg1),
        })
    events += _flows(tl)
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"cycles_per_sec": tl.cycles_per_sec, "lost_records": tl.lost,
                      "exit_code": tl.exit_code},
    }


def _flows(tl: Timeline) -> list[dict[str, Any]]:
    """Wake-up -> next dispatch of the woken thread, migration -> first run on the new hart:
    flow arrows between the hart tracks (start bound to the enclosing slice, end to the next
    slice, the trace-event format's "bp": "e")."""
    starts: dict[int, list[int]] = {}  # tid -> sorted slice starts
    cpu_at: dict[tuple[int, int], int] = {}
    for s in tl.slices:
        starts.setdefault(s.tid, []).append(s.start_ns)
        cpu_at[(s.tid, s.start_ns)] = s.cpu
    for v in starts.values():
        v.sort()
    out: list[dict[str, Any]] = []
    sources = [(p, "wake-up") for p in tl.kernel_points if p.kind == Ev.UNBLOCK] + [
        (p, "migration") for p in tl.points if p.kind == Ev.MIGRATE]
    from bisect import bisect_left

    for n, (p, what) in enumerate(sorted(sources, key=lambda x: x[0].ts_ns)):
        runs = starts.get(p.tid, [])
        i = bisect_left(runs, p.ts_ns)
        if i == len(runs):
            continue
        to = runs[i]
        common = {"cat": "flow", "name": what, "id": n + 1, "pid": PID_HARTS}
        out.append({**common, "ph": "s", "tid": p.cpu, "ts": _us(p.ts_ns)})
        out.append({**common, "ph": "f", "bp": "e", "tid": cpu_at[(p.tid, to)], "ts": _us(to)})
    return out


def write(tl: Timeline, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_events(tl), separators=(",", ":")))
