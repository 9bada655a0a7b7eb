"""Brief 0 system tests: boot the SPM configurations under QEMU and check the protocol on the
trace (tools/partita/subsys/spm/report.py holds the checks, so `partita report` shows the same)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from partita.subsys.spm.events import SpmTimeline, decode
from partita.subsys.spm.report import bandwidth_bps, invariant_violations, slot_stats

ROOT = Path(__file__).resolve().parents[3]
DEMO = str(ROOT / "configs" / "spm-demo.yaml")
SPM_CFG = Path(__file__).resolve().parent
TASK_CORE = {"loop0": 0, "loop1": 0, "fir0": 0, "fft0": 0,
             "loop2": 1, "loop3": 1, "iir1": 1, "mm1": 1}


@pytest.fixture
def demo(boot) -> SpmTimeline:
    r = boot(DEMO)
    tl = decode(r.area)
    assert tl.present, "no SPM events in the trace"
    return tl


def test_demo_runs_every_task(boot, demo: SpmTimeline) -> None:
    r = boot(DEMO)
    assert r.ok
    for name in TASK_CORE:
        done = [j for j in demo.jobs[name].values() if j.done_ns is not None]
        assert len(done) >= 4, name
    assert sum(s.misses for s in r.stats.values()) == 0


def test_loads_only_in_owning_core_slots(demo: SpmTimeline) -> None:
    ncores = 2
    assert demo.transfers
    for x in demo.transfers:
        assert x.slot % ncores == x.core
        assert TASK_CORE[x.task] == x.core


def test_one_transfer_in_flight(demo: SpmTimeline) -> None:
    xs = sorted(demo.transfers, key=lambda x: x.begin_ns)
    for a, b in pairwise(xs):
        assert a.end_ns is not None and a.end_ns <= b.begin_ns


def test_protocol_invariants_hold(demo: SpmTimeline) -> None:
    # owner's slots, one in flight, no overrun, start only after load, Rule 1 before Rule 2,
    # input only with the load, output only after the unload
    assert invariant_violations(demo, TASK_CORE, 2) == []


def test_task_never_starts_before_its_load(demo: SpmTimeline) -> None:
    n = 0
    for jobs in demo.jobs.values():
        for j in jobs.values():
            if j.exec_begin_ns is not None:
                assert j.load_end_ns is not None and j.load_end_ns <= j.exec_begin_ns
                n += 1
    assert n > 50


def test_both_partitions_used(demo: SpmTimeline) -> None:
    for core, s in slot_stats(demo).items():
        assert s.part_loads[0] > 0 and s.part_loads[1] > 0, core
    # and a task's image really ran from both partitions (relocation works both ways)
    parts = {}
    for e in demo.execs:
        parts.setdefault(e.task, set()).add(e.part)
    assert any(p == {0, 1} for p in parts.values())


def test_io_data_travel_with_load_and_unload(demo: SpmTimeline) -> None:
    assert demo.mirror_in and demo.tx
    loads = {(x.task, x.end_ns) for x in demo.transfers if x.kind == "load"}
    for t, name, _n in demo.mirror_in:
        assert (name, t) in loads or any(n == name and e is not None and abs(e - t) <= 1000
                                         for n, e in loads)


def test_slot_accounting(demo: SpmTimeline) -> None:
    stats = slot_stats(demo)
    for s in stats.values():
        assert s.loads + s.unloads + s.idle == s.slots
        assert 0 < s.utilization < 1


def test_determinism_identical_traces(boot) -> None:
    a = boot(DEMO).area.merged()
    b = boot(DEMO, tag="again").area.merged()
    assert len(a) == len(b)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("sigma_us", [400, 800])
def test_bandwidth_within_design_bound(boot, sigma_us: int) -> None:
    r = boot(str(SPM_CFG / f"spm_bw{sigma_us}.yaml"))
    tl = decode(r.area)
    assert invariant_violations(tl) == []
    # design bound: a core owns one slot in M; a job needs a load and an unload slot, so each
    # core completes at most one job per 2*M*sigma; each job returns one 1 KiB packet
    m = 2
    bound = m * 1024 * 8 / (2 * m * sigma_us * 1e-6)
    got = bandwidth_bps(tl)
    assert got <= bound * 1.001
    assert got >= 0.95 * bound


@pytest.mark.parametrize("m", [2, 3, 4])
def test_soundness_against_analysis_bound(boot, tmp_path_factory, m: int) -> None:
    """Random sets accepted by the exact analysis (up to its acceptance limit: per-core
    utilizations are drawn wide and the analysis filters), half of them with synchronous and
    half with the adversarial release pattern of seed 000 Lemma 2, on M = 2, 3 and 4
    application cores, batched as phases (10 sets per boot): every observed response time
    must be <= the exact bound of partita.analysis.spm, and every job must agree with the
    exact protocol simulator (partita.subsys.spm.simcheck.compare). SPM_SOUND_SETS (default
    200) sets for M = 2, 10 (one boot) for M = 3 and 4. The declared wcet is the platform's
    (soundness.platform_wcet: (M + 1) x instruction time + margins, docs/spm.md); the analysis
    premises are checked too: no job executes longer than it, and every transfer completes
    inside its (nominal) slot."""
    import json
    import os

    import yaml
    from partita.subsys.spm.report import add_bounds
    from partita.subsys.spm.simcheck import compare
    from partita.subsys.spm.soundness import write_configs

    n = int(os.environ.get("SPM_SOUND_SETS", "200")) if m == 2 else 10
    cfgs = write_configs(n, 10, tmp_path_factory.mktemp(f"spm_sound{m}"), seed=4, m=m)
    over: list[str] = []
    checked = exec_over = jobs = sim_bad = 0
    worst_ratio, worst_late, late_xfers = 0.0, 0, 0
    for cfg in cfgs:
        r = boot(str(cfg))
        add_bounds(cfg, r.out)
        bounds = json.loads((r.out / "bounds.json").read_text())["tasks"]
        wcet = {t["name"]: t["wcet_ns"] for t in yaml.safe_load(cfg.read_text())["spm"]["tasks"]}
        tl = decode(r.area)
        assert len(tl.phases) == 10, f"{cfg.name}: not every batched task set ran"
        assert invariant_violations(tl) == []
        overs = [f"{e.task}: {e.end_ns - e.begin_ns} > {wcet[e.task]}" for e in tl.execs
                 if e.end_ns is not None and e.end_ns - e.begin_ns > wcet[e.task]]
        exec_over += len(overs)
        if overs:
            print(cfg.name, overs)
        sigma = yaml.safe_load(cfg.read_text())["spm"]["sigma_ns"]
        n0, o0 = tl.slots[0].number, tl.phases[0][1]
        worst_late = max(worst_late, max(s.begin_ns - (o0 + (s.number - n0) * sigma)
                                         for s in tl.slots))
        # the analysis' premise on the DMA: every transfer ends inside its own slot, measured
        # against the slot's nominal (time-triggered) end, not the I/O core's late start
        late_xfers += sum(1 for x in tl.transfers if x.end_ns is None
                          or x.end_ns > o0 + (x.slot - n0 + 1) * sigma)
        diffs = compare(cfg, r.area)
        jobs += len(diffs)
        # times within one heartbeat turn (10 us) of each other busy hart: M x 10 us (the
        # dispatch latency of a woken hart; simcheck.TOL_NS = 20 us is this for M = 2)
        tol = m * 10_000
        bad = [f"{cfg.name} {d.task} job {d.job}: {'; '.join(d.mismatches(tol))}"
               for d in diffs if d.mismatches(tol)]
        sim_bad += len(bad)
        if bad:
            print(bad[:5])
        for name, jbs in tl.jobs.items():
            rs = [j.kernel_response_ns or j.response_ns for j in jbs.values()
                  if j.response_ns is not None]
            assert rs, f"{name}: no job completed"
            checked += 1
            b = bounds[name]["bound_ns"]
            if b is not None:
                worst_ratio = max(worst_ratio, max(rs) / b)
            if b is None or max(rs) > b:
                over.append(f"{cfg.name} {name}: observed {max(rs)} ns > bound {b} ns")
    print(f"soundness M={m}: {checked} tasks in {n} sets, {len(over)} above the bound (worst "
          f"observed/bound {worst_ratio:.3f}), {jobs} jobs vs simulator, {sim_bad} disagree, "
          f"{exec_over} jobs executed longer than their declared (platform) wcet, slot "
          f"boundaries served at most {worst_late} ns late, {late_xfers} transfers past their "
          "slot")
    assert checked >= n * 2 * m
    assert over == []
    assert sim_bad == 0
    assert exec_over == 0          # the analysis' premise c >= execution held
    assert late_xfers == 0         # and every load/unload completed inside its slot


def test_console_goes_through_the_io_core(boot, demo: SpmTimeline) -> None:
    """Application cores do not write the UART: their jobs' ctx->puts lines are queued and
    the I/O core writes them (loopback tasks print one line on their first job)."""
    r = boot(DEMO)
    assert len(demo.console) == 4                      # loop0..loop3, first job each
    assert {c for _, c, _, _ in demo.console} == {0, 1}
    assert {h for _, _, _, h in demo.console} == {demo.io_hart}
    text = (r.out / "console.log").read_text()
    assert text.count("] loopback: first job") == 4
