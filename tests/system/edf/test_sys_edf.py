"""EDF: P-EDF near full utilization meets every deadline; an overloaded EDF hart reports its
misses and disturbs no other hart (sys_edf.yaml)."""

from __future__ import annotations

import json
from collections.abc import Callable

from partita.run.run import RunResult
from partita.trace.stats import job_exec_ns

PEDF = ["p_fft", "p_fir", "p_mm", "p_iir", "p_bits", "p_lut"]
OVER = ["o_fir", "o_iir", "o_fft"]
RUN_NS = 400_000_000


def test_pedf_near_full_utilization_meets_every_deadline(boot: Callable[..., RunResult]
                                                         ) -> None:
    r = boot("sys_edf")
    tl = r.timeline
    assert tl is not None
    cfg = json.loads((r.out / "pt_config.json").read_text())
    placed = {t["name"]: t["cpu"] for t in cfg["threads"]}
    load = {0: 0.0, 1: 0.0}
    for n in PEDF:
        st = r.stats[n]
        assert st.misses == 0, (n, st)
        assert st.overruns == 0, (n, st)
        assert st.period_ns is not None
        assert st.completed >= RUN_NS // st.period_ns - 1, (n, st.completed)
        assert st.cpus == [placed[n]], (n, st.cpus, placed[n])  # partitioned: never migrates
        assert st.max_lateness_ns is not None and st.max_lateness_ns <= 0
        tid = tl.tid_of(n)
        assert tid is not None
        load[placed[n]] += max(job_exec_ns(tl, tid)) / st.period_ns
    # "near full": the measured utilization of each hart is high
    assert min(load.values()) > 0.8, load


def test_overloaded_edf_reports_its_misses(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_edf")
    tl = r.timeline
    assert tl is not None
    misses = {n: r.stats[n].misses for n in OVER}
    assert sum(misses.values()) > 0, misses
    # the misses are traced events, attributed per job, and every thread kept being released
    area = r.area
    assert area is not None
    recs = area.merged()
    traced = int((recs["type"] == 7).sum())
    assert traced >= sum(misses.values()) - len(OVER), (traced, misses)
    for n in OVER:
        assert r.stats[n].cpus == [2]
        assert r.stats[n].released >= RUN_NS // (r.stats[n].period_ns or 1) - 1
    # and the report says so
    from partita.run.report import as_json

    doc = as_json(r.stats, tl)
    assert sum(doc["tasks"][n]["misses"] for n in OVER) == sum(misses.values())
