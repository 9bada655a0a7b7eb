"""Brief 0 system tests: boot the SPM configurations under QEMU and check the protocol on the
trace (tools/partita/spm/report.py holds the checks, so `partita report` shows the same)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from partita.spm.events import SpmTimeline, decode
from partita.spm.report import bandwidth_bps, invariant_violations, slot_stats

ROOT = Path(__file__).resolve().parents[2]
DEMO = str(ROOT / "configs" / "spm-demo.yaml")
SPM_CFG = Path(__file__).parent / "spm_configs"
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


@pytest.mark.xfail(strict=False, reason=(
    "QEMU 7.2 icount: harts take turns on one virtual clock, so the I/O core's slots slip "
    "(up to ~0.7 ms) while application harts compute; measured with 200 sets (seed 4): "
    "1 of 1006 tasks above its bound, by 1.45 us. See docs/spm.md"))
def test_soundness_against_analysis_bound(boot, tmp_path_factory) -> None:
    """Random schedulable sets (2 application cores), batched as phases (10 sets per boot):
    every observed response time must be <= the bound of partita.analysis.spm.
    SPM_SOUND_SETS (default 200) sets are run. The declared wcet is the platform's (QEMU
    icount: PLATFORM_SHARE x instruction time, see partita.spm.soundness and docs/spm.md);
    jobs whose measured execution exceeded it are counted and printed, not hidden."""
    import json
    import os

    import yaml

    pytest.importorskip("partita.analysis.spm")
    from partita.spm.report import add_bounds
    from partita.spm.soundness import write_configs

    n = int(os.environ.get("SPM_SOUND_SETS", "200"))
    cfgs = write_configs(n, 10, tmp_path_factory.mktemp("spm_sound"), seed=4)
    over: list[str] = []
    checked = exec_over = 0
    for cfg in cfgs:
        r = boot(str(cfg))
        add_bounds(cfg, r.out)
        bounds = json.loads((r.out / "bounds.json").read_text())["tasks"]
        wcet = {t["name"]: t["wcet_ns"] for t in yaml.safe_load(cfg.read_text())["spm"]["tasks"]}
        tl = decode(r.area)
        assert len(tl.phases) == 10, f"{cfg.name}: not every batched task set ran"
        assert invariant_violations(tl) == []
        exec_over += sum(1 for e in tl.execs
                         if e.end_ns is not None and e.end_ns - e.begin_ns > wcet[e.task])
        for name, jobs in tl.jobs.items():
            rs = [j.response_ns for j in jobs.values() if j.response_ns is not None]
            assert rs, f"{name}: no job completed"
            checked += 1
            b = bounds[name]["bound_ns"]
            if b is None or max(rs) > b:
                over.append(f"{cfg.name} {name}: observed {max(rs)} ns > bound {b} ns")
    print(f"soundness: {checked} tasks in {n} sets, {len(over)} above the bound, "
          f"{exec_over} jobs executed longer than their declared (platform) wcet")
    assert checked >= n * 4
    assert over == []
