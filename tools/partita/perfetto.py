"""Chrome trace-event JSON (opens in Perfetto, ui.perfetto.dev): one track per hart and one
per thread. Slices are execution; instants are releases, misses, overruns, faults, stops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from partita.timeline import Timeline
from partita.tracefmt import Ev

PID_HARTS = 1
PID_THREADS = 2
_INSTANT_NAMES = {
    Ev.RELEASE: "release", Ev.DEADLINE_MISS: "deadline miss", Ev.OVERRUN: "overrun",
    Ev.FAULT: "fault", Ev.THREAD_STOP: "stopped", Ev.MIGRATE: "migrate", Ev.MARK: "mark",
    Ev.BOOT: "boot", Ev.SHUTDOWN: "shutdown",
}


def _us(ns: int) -> float:
    return ns / 1000.0


def _meta(pid: int, tid: int | None, key: str, value: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"ph": "M", "pid": pid, "name": key, "args": {}}
    if tid is not None:
        ev["tid"] = tid
    ev["args"]["name" if key.endswith("_name") else "sort_index"] = value
    return ev


def to_events(tl: Timeline) -> dict[str, Any]:
    events: list[dict[str, Any]] = [
        _meta(PID_HARTS, None, "process_name", "harts"),
        _meta(PID_THREADS, None, "process_name", "threads"),
    ]
    for cpu in range(tl.ncpus):
        events.append(_meta(PID_HARTS, cpu, "thread_name", f"hart {cpu}"))
        events.append(_meta(PID_HARTS, cpu, "thread_sort_index", cpu))
    tids = sorted(set(tl.names) | {s.tid for s in tl.slices} | set(tl.jobs))
    for tid in tids:
        if tid:
            events.append(_meta(PID_THREADS, tid, "thread_name", tl.name(tid)))
            events.append(_meta(PID_THREADS, tid, "thread_sort_index", tid))
    for s in tl.slices:
        name = tl.name(s.tid)
        dur = _us(s.end_ns - s.start_ns)
        events.append({"ph": "X", "pid": PID_HARTS, "tid": s.cpu, "ts": _us(s.start_ns),
                       "dur": dur, "name": name, "cat": "run", "args": {"tid": s.tid}})
        events.append({"ph": "X", "pid": PID_THREADS, "tid": s.tid, "ts": _us(s.start_ns),
                       "dur": dur, "name": f"on hart {s.cpu}", "cat": "run",
                       "args": {"cpu": s.cpu}})
    for p in tl.points:
        name = _INSTANT_NAMES.get(p.kind, p.kind.name.lower())
        on_thread = p.tid != 0
        events.append({
            "ph": "i", "s": "t", "pid": PID_THREADS if on_thread else PID_HARTS,
            "tid": p.tid if on_thread else p.cpu, "ts": _us(p.ts_ns), "name": name,
            "cat": "event", "args": {"cpu": p.cpu, "arg0": p.arg0, "arg1": p.arg1},
        })
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"cycles_per_sec": tl.cycles_per_sec, "lost_records": tl.lost,
                      "exit_code": tl.exit_code},
    }


def write(tl: Timeline, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_events(tl), separators=(",", ":")))
