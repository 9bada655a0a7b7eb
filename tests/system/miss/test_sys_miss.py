"""Deadline-miss policies and budget enforcement (sys_miss.yaml): the same
overloaded thread under `record`, `skip_next` and `stop`, and a thread whose jobs overrun
their budget."""

from __future__ import annotations

from collections.abc import Callable

from partita.run.run import RunResult
from partita.trace.format import Ev

RUN_NS = 100_000_000
PERIOD_NS = 5_000_000


def _stops(r: RunResult, name: str) -> list[int]:
    area, tl = r.area, r.timeline
    assert area is not None and tl is not None
    recs = area.merged()
    sel = (recs["type"] == Ev.THREAD_STOP) & (recs["tid"] == tl.tid_of(name))
    return [int(a) for a in recs["arg0"][sel]]


def test_record_keeps_every_release(boot: Callable[..., RunResult]) -> None:
    st = boot("sys_miss").stats["m_rec"]
    # every release is a job (queued behind the late ones), every one of them late
    assert st.released >= RUN_NS // PERIOD_NS - 1, st
    assert st.misses >= st.released - 2 and st.completed < st.released, st
    assert not st.stopped


def test_skip_next_drops_the_release_after_a_miss(boot: Callable[..., RunResult]) -> None:
    st = boot("sys_miss").stats["m_skip"]
    assert not st.stopped, st
    # each job (over 7 ms) misses its deadline and costs the next release: at most every
    # other period is a job, and every one of them misses
    assert 3 <= st.released <= RUN_NS // PERIOD_NS // 2 + 1, st
    assert st.misses >= st.released - 1, st


def test_stop_ends_the_thread_at_its_first_miss(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_miss")
    st = r.stats["m_stop"]
    assert st.stopped and st.completed == 0 and st.released == 1, st
    assert _stops(r, "m_stop") == [2]  # PT_STOP_MISS, once


def test_budget_enforcement_aborts_each_job_and_the_thread_goes_on(
        boot: Callable[..., RunResult]) -> None:
    r = boot("sys_miss")
    st = r.stats["b_cut"]
    period_ns = 10_000_000
    # every job needs ~3.5 ms against a 1 ms budget: each is aborted, none misses its
    # deadline, and every period still releases a job
    assert st.released >= RUN_NS // period_ns, st
    assert st.budget_stops >= st.released - 1 and st.misses == 0, st
    assert set(_stops(r, "b_cut")) == {3}  # PT_STOP_BUDGET only
    assert not st.stopped



def test_every_release_on_time_and_the_run_ends_on_time(boot: Callable[..., RunResult]) -> None:
    # m_stop is stopped by its own alarm inside cpu2's timer interrupt. That stop used to skip
    # the rest of the interrupt and leave cpu2 with no timer: under icount its endless idle
    # turn then starved every hart (no release from 10 to 97.6 ms, shutdown at 197 ms;
    # docs/kernel.md). Every release must happen within 0.5 ms of its nominal time (timer
    # latency while 4 harts share QEMU's clock), and the run must end at run_for_ms.
    r = boot("sys_miss")
    area, tl = r.area, r.timeline
    assert area is not None and tl is not None
    recs = area.merged()
    cps = area.cycles_per_sec
    epoch = int(recs[recs["type"] == Ev.BOOT][0]["arg1"])
    for name in ("m_rec", "m_skip", "m_stop", "b_cut"):
        d_cycles = r.stats[name].deadline_ns * cps // 1_000_000_000
        rel = recs[(recs["type"] == Ev.RELEASE) & (recs["tid"] == tl.tid_of(name))]
        late = [int(x["ts"]) - (int(x["arg1"]) - d_cycles) for x in rel]
        assert late and max(late) * 1e9 / cps < 500_000, (name, max(late))
    shutdown = recs[recs["type"] == Ev.SHUTDOWN]
    assert len(shutdown) == 1
    end_ns = (int(shutdown[0]["ts"]) - epoch) * 1e9 / cps
    assert RUN_NS <= end_ns < RUN_NS + 1_000_000, end_ns
