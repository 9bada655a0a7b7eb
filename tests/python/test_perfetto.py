"""The Perfetto export (issue 11 item 5): job spans, IRQ slices, flows, counters, readable
instants, and the trace-event format's structural rules."""

from __future__ import annotations

import json

import numpy as np
from partita.trace import perfetto
from partita.trace.format import REC, Area, Ev, Ring, name_to_args
from partita.trace.timeline import build
from partita.trace.tracecheck import check_trace_events

Rec = tuple[int, int, int, int, int]


def info(ts: int, tid: int, name: str) -> Rec:
    a0, a1 = name_to_args(name)
    return (ts, Ev.THREAD_INFO, tid, a0, a1)


CPU0: list[Rec] = [
    info(0, 1, "ctl"), info(0, 2, "worker"),
    (1000, Ev.IRQ_ENTER, 0, 5, 0),
    (1010, Ev.RELEASE, 1, 1, 3000),
    (1020, Ev.IRQ_EXIT, 0, 5, 0),
    (1030, Ev.DISPATCH, 1, 0, 0),
    (1100, Ev.SYSCALL, 1, 7, 2**64 - 3),  # result -3
    (1200, Ev.UNBLOCK, 2, 0, 0),          # ctl wakes worker (on hart 1)
    (1500, Ev.COMPLETE, 1, 1, 500),
    (1510, Ev.IDLE, 0, 0, 0),
    (4000, Ev.RELEASE, 1, 2, 6000),
    (4010, Ev.DISPATCH, 1, 0, 0),
    (6000, Ev.DEADLINE_MISS, 1, 2, 6000),
    (6100, Ev.THREAD_STOP, 1, 3, 2),      # budget abort of job 2
    (6110, Ev.IDLE, 0, 0, 0),
]
CPU1: list[Rec] = [
    (1300, Ev.DISPATCH, 2, 0, 0),
    (1400, Ev.BLOCK, 2, 1, 0),
    (1450, Ev.MIGRATE, 2, 1, 0),
    (7000, Ev.SHUTDOWN, 0, 0, 0),
]


def area() -> Area:
    rings = []
    for cpu, recs in enumerate([CPU0, CPU1]):
        arr = np.zeros(len(recs), dtype=REC)
        for i, (ts, typ, tid, a0, a1) in enumerate(recs):
            arr[i] = (ts, typ, cpu, tid, a0, a1)
        rings.append(Ring(cpu, len(recs), 0, arr))
    return Area(2, 1_000_000_000, 0, rings)


def doc() -> dict:
    return perfetto.to_events(build(area()))


def test_structure_follows_the_trace_event_format() -> None:
    d = doc()
    assert check_trace_events(json.loads(json.dumps(d))) == []


def test_validator_catches_broken_traces() -> None:
    d = doc()
    ev = d["traceEvents"]
    broken = [dict(e) for e in ev]
    b = next(i for i, e in enumerate(broken) if e["ph"] == "e")
    del broken[b]  # an async span that never ends
    x = next(i for i, e in enumerate(broken) if e["ph"] == "X")
    broken[x] = {**broken[x], "dur": -1}
    broken.append({"ph": "Q", "pid": 1, "tid": 0, "ts": 0, "name": "?"})
    broken.append({"ph": "X", "pid": 1, "tid": 0, "ts": 1.03, "dur": 5, "name": "overlap"})
    problems = check_trace_events({"traceEvents": broken})
    text = "\n".join(problems)
    for what in ("never ends", "dur >= 0", "unknown phase", "overlaps"):
        assert what in text, text


def test_job_spans_with_deadline_and_lateness_in_us() -> None:
    ev = doc()["traceEvents"]
    begins = {e["args"]["job"]: e for e in ev if e["ph"] == "b" and e["tid"] == 1}
    assert begins[1]["name"] == "ctl job 1" and begins[1]["ts"] == 1.0  # nominal release
    assert begins[1]["args"]["deadline_us"] == 3.0
    assert begins[1]["args"]["response_us"] == 0.5
    assert begins[1]["args"]["lateness_us"] == -1.5
    assert begins[1]["args"]["release_latency_us"] == 0.01
    assert begins[2]["args"]["outcome"] == "budget abort"


def test_irq_slices_counters_flows_and_readable_instants() -> None:
    ev = doc()["traceEvents"]
    irq = [e for e in ev if e["ph"] == "X" and e.get("cat") == "irq"]
    assert irq and irq[0]["name"] == "irq timer" and irq[0]["tid"] == perfetto.IRQ_TRACK
    busy = [(e["ts"], e["args"]["busy"]) for e in ev if e["ph"] == "C" and e["tid"] == 0]
    assert busy[:2] == [(1.03, 1), (1.51, 0)]
    flows = [e for e in ev if e["ph"] in ("s", "f")]
    assert {e["name"] for e in flows} >= {"wake-up"}
    miss = next(e for e in ev if e["ph"] == "i" and e["name"] == "deadline miss")
    assert miss["args"] == {"hart": 0, "thread": "ctl", "job": 2, "deadline_us": 6.0}
    stop = next(e for e in ev if e["ph"] == "i" and e["name"] == "stopped")
    assert stop["args"]["reason"] == "budget" and stop["args"]["job"] == 2
    sc = next(e for e in ev if e["ph"] == "i" and e["name"] == "syscall 7")
    assert sc["args"]["result"] == -3
    for e in ev:  # no raw cycle arguments anywhere
        assert "arg1" not in e.get("args", {}), e
