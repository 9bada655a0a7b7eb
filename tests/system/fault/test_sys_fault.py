"""Fault containment (sys_fault.yaml): a user thread that writes kernel
memory is stopped and named; everything else keeps its deadlines."""

from __future__ import annotations

from collections.abc import Callable

from invariants import released_jobs
from partita.run.run import RunResult
from partita.trace.format import Ev

KERNEL_TEXT = 0x80001000
SURVIVORS = {"k_fir": 5_000_000, "u_iir": 10_000_000, "u_tick": 1_000_000,
             "k_fft": 10_000_000}
RUN_NS = 200_000_000
STOP_FAULT, STOP_PARTITION = 1, 4


def test_rogue_is_stopped_and_named(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fault")
    tl = r.timeline
    assert tl is not None
    rogue = tl.tid_of("rogue")
    assert rogue is not None
    faults = [p for p in tl.points if p.kind == Ev.FAULT and p.tid == rogue]
    assert len(faults) == 1, faults
    assert faults[0].arg1 == KERNEL_TEXT
    assert faults[0].ts_ns >= 20_000_000
    stops = [p for p in tl.points if p.kind == Ev.THREAD_STOP and p.tid == rogue]
    assert stops and stops[0].arg0 == STOP_FAULT
    console = r.boot.console
    assert "STILL ALIVE" not in console
    lines = [ln for ln in console.splitlines() if "rogue" in ln and "80001000" in ln.lower()]
    assert lines, f"no console line names rogue and 0x{KERNEL_TEXT:x}:\n{console[-2000:]}"
    assert not any(s.tid == rogue and s.start_ns > stops[0].ts_ns for s in tl.slices)


def test_partition_policy_stops_the_whole_partition(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fault")
    tl = r.timeline
    assert tl is not None
    rogue2, sibling = tl.tid_of("rogue2"), tl.tid_of("sibling")
    assert rogue2 is not None and sibling is not None
    assert any(p.kind == Ev.FAULT and p.tid == rogue2 for p in tl.points)
    stop = [p for p in tl.points if p.kind == Ev.THREAD_STOP and p.tid == sibling]
    assert stop and stop[0].arg0 == STOP_PARTITION, stop
    assert r.stats["sibling"].completed >= 10  # ran before the fault (2 ms period, 30 ms)
    assert not any(s.tid == sibling and s.start_ns > stop[0].ts_ns for s in tl.slices)


def test_everything_else_keeps_its_deadlines(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fault")
    tl = r.timeline
    assert tl is not None
    fault_ns = min(p.ts_ns for p in tl.points if p.kind == Ev.FAULT)
    for n, period in SURVIVORS.items():
        st = r.stats[n]
        assert st.misses == 0 and st.overruns == 0, (n, st)
        assert not st.stopped and st.faults == 0, (n, st)
        assert st.completed >= RUN_NS // period - 1, (n, st.completed)
        tid = tl.tid_of(n)
        assert tid is not None
        after = [j for j in released_jobs(tl, tid) if (j.release_ns or 0) > fault_ns + period]
        assert after and all(j.complete_ns is not None or j is after[-1] for j in after), n
