"""Round-robin among equal FP priorities (rr.c, rr.yaml): the quantum is the
FP policy's timed event (next_event / on_event). Two spinners of one priority alternate in
1 ms quanta; a higher-priority periodic thread preempts them, and the preempted spinner
finishes its quantum afterwards (it keeps what was left), so every turn adds up to one
quantum."""

from __future__ import annotations

from collections.abc import Callable

from partita.run.run import RunResult

QUANTUM_NS = 1_000_000
SWITCH_NS = 2_000  # a quantum's end to the next thread's dispatch, kernel paths included


def test_equal_priorities_share_the_cpu_in_quanta(boot: Callable[..., RunResult]) -> None:
    r = boot("rr")
    tl = r.timeline
    assert tl is not None
    a, b, tick = tl.tid_of("rr_a"), tl.tid_of("rr_b"), tl.tid_of("rr_tick")
    assert r.stats["rr_tick"].misses == 0 and r.stats["rr_tick"].completed >= 8
    # turns: maximal runs of one spinner, the preempting rr_tick's slices left out
    turns: list[tuple[int, int]] = []  # (tid, cpu time of the turn)
    for s in tl.slices:
        if s.tid == tick:
            continue
        assert s.tid in (a, b), tl.name(s.tid)
        if turns and turns[-1][0] == s.tid:
            turns[-1] = (s.tid, turns[-1][1] + s.end_ns - s.start_ns)
        else:
            turns.append((s.tid, s.end_ns - s.start_ns))
    assert len(turns) >= 15, turns
    assert [t for t, _ in turns[:2]] in ([a, b], [b, a])
    # strictly alternating, and every complete turn is one quantum
    assert all(turns[i][0] != turns[i + 1][0] for i in range(len(turns) - 1))
    for tid, ns in turns[1:-1]:  # the first starts at boot, the last is cut by the run's end
        assert QUANTUM_NS - SWITCH_NS <= ns <= QUANTUM_NS + SWITCH_NS, (tl.name(tid), ns)
    # a turn interrupted by rr_tick resumes the same spinner, not the other one
    preempted = [i for i, s in enumerate(tl.slices[:-1]) if tl.slices[i + 1].tid == tick
                 and s.tid != tick]
    assert preempted, "rr_tick never preempted a spinner"
    for i in preempted:
        if i + 2 < len(tl.slices):
            assert tl.slices[i + 2].tid == tl.slices[i].tid
