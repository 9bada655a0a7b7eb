"""Deadline inheritance under EDF (pi_edf.c, pi_edf.yaml): a mutex holder
with a late deadline runs at the deadline of the earlier job it blocks, so a job with an
intermediate deadline cannot preempt it (without inheritance pi_high misses every job)."""

from __future__ import annotations

from collections.abc import Callable

from partita.run.run import RunResult
from partita.trace.format import Ev


def test_holder_inherits_the_waiters_deadline(boot: Callable[..., RunResult]) -> None:
    r = boot("pi_edf")
    high, mid = r.stats["pi_high"], r.stats["pi_mid"]
    assert high.completed == 3 and high.misses == 0, high
    assert high.max_response_ns is not None and high.max_response_ns < 3_000_000, high
    assert mid.misses == 0 and mid.completed == 3, mid
    # pi_mid (released 0.7 ms in) first runs only after pi_low has given the mutex to
    # pi_high: its first dispatch of each period comes after pi_high's completion
    tl = r.timeline
    assert tl is not None
    hid, mid_tid = tl.tid_of("pi_high"), tl.tid_of("pi_mid")
    for job in range(1, 4):
        h = tl.jobs[hid][job]
        first_mid = min(s.start_ns for s in tl.slices
                        if s.tid == mid_tid and s.start_ns >= (job - 1) * 20_000_000 + 700_000
                        and s.start_ns < job * 20_000_000)
        assert h.complete_ns is not None and first_mid >= h.complete_ns - 1, (job, first_mid)
    assert all(p.kind != Ev.DEADLINE_MISS for p in tl.points)
