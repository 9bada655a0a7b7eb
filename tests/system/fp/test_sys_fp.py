"""Fixed-priority preemption order on one hart (sys_fp.yaml)."""

from __future__ import annotations

from collections.abc import Callable

from invariants import fp_violations, released_jobs
from partita.run.run import RunResult
from partita.trace.format import Ev
from partita.trace.stats import job_exec_ns

PRIO = {"low": 30, "mid": 20, "high": 10}
PERIOD_NS = 20_000_000


def _tids(r: RunResult) -> dict[str, int]:
    tl = r.timeline
    assert tl is not None
    tids = {n: tl.tid_of(n) for n in PRIO}
    assert None not in tids.values(), f"threads not named in the trace: {tl.names}"
    return tids  # type: ignore[return-value]


def test_preemption_order_of_first_jobs(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fp")
    tl = r.timeline
    assert tl is not None
    tid = _tids(r)
    name = {v: k for k, v in tid.items()}
    first = [name[s.tid] for s in sorted(tl.slices, key=lambda s: s.start_ns)
             if s.tid in name and s.start_ns < PERIOD_NS]
    # collapse consecutive slices of the same thread (an interrupt may split one)
    seq = [n for i, n in enumerate(first) if i == 0 or first[i - 1] != n]
    assert seq == ["low", "mid", "high", "mid", "low"], seq
    done = sorted((j.complete_ns, n) for n, t in tid.items()
                  for j in released_jobs(tl, t)[:1] if j.complete_ns is not None)
    assert [n for _, n in done] == ["high", "mid", "low"]


def test_preempt_events_name_the_preemptor(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fp")
    tl = r.timeline
    assert tl is not None
    tid = _tids(r)
    area = r.area
    assert area is not None
    recs = area.merged()
    pre = recs[recs["type"] == Ev.PREEMPT]
    pairs = {(int(p["tid"]), int(p["arg0"])) for p in pre if int(p["ts"]) < PERIOD_NS}
    assert (tid["low"], tid["mid"]) in pairs, pairs
    assert (tid["mid"], tid["high"]) in pairs, pairs


def test_higher_priority_never_waits(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fp")
    tl = r.timeline
    assert tl is not None
    tid = _tids(r)
    bad = fp_violations(tl, {tid[n]: p for n, p in PRIO.items()}, cpu=0)
    assert not bad, "\n".join(bad[:10])


def test_every_job_meets_its_deadline_and_rta_bound(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fp")
    tl = r.timeline
    assert tl is not None
    tid = _tids(r)
    jobs = {n: job_exec_ns(tl, t) for n, t in tid.items()}
    for n in PRIO:
        st = r.stats[n]
        assert st.misses == 0 and st.overruns == 0, (n, st)
        assert st.completed >= 9, (n, st.completed)
        assert jobs[n], n
    # response-time analysis with the measured execution times (offsets only help):
    # R_i = C_i + sum_{j higher} ceil(R_i / T_j) C_j
    order = sorted(PRIO, key=PRIO.get)  # type: ignore[arg-type]
    slack = 100_000  # kernel overhead allowance: timer interrupts, switches, trace records
    for i, n in enumerate(order):
        c = max(jobs[n])
        rt = c
        while True:
            nxt = c + sum(-(-rt // PERIOD_NS) * max(jobs[h]) for h in order[:i])
            if nxt == rt:
                break
            rt = nxt
        assert r.stats[n].max_response_ns is not None
        assert r.stats[n].max_response_ns <= rt + slack, (n, r.stats[n].max_response_ns, rt)
    # with the offsets the interference is exact: mid is preempted by one job of high, low by
    # one job of each
    for n, above in (("mid", ["high"]), ("low", ["mid", "high"])):
        got = r.stats[n].max_response_ns
        want = max(jobs[n]) + sum(max(jobs[h]) for h in above)
        assert got is not None and abs(got - want) < slack, (n, got, want)
