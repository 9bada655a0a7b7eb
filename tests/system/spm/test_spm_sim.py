"""Brief 0: on small sets the exact protocol simulator and the kernel agree job by job.

Small random task sets (partita.subsys.spm.simcheck: spin tasks, 2-3 per application core, 15-35 %
load per core so that jobs queue and both rules fire) run in QEMU, several sets per boot as
phases; every phase and core is replayed through partita.analysis.sim.simulate_spm fed with
the measured release times, execution times (including the dispatch latency) and copy
durations. The simulator takes every decision itself (Rule 1 / Rule 2, priorities,
partitions). Per job: load slot, unload slot and partition must be equal, and load end,
execution start and end, unload end within simcheck.TOL_NS (20 us); see simcheck's docstring
and docs/spm.md for what the tolerance covers."""

from __future__ import annotations

from collections import Counter

import pytest
from partita.subsys.spm.events import decode
from partita.subsys.spm.report import invariant_violations
from partita.subsys.spm.simcheck import TOL_NS, compare, small_sets


@pytest.mark.parametrize(("n_sets", "seed"), [(8, 3), (6, 11)])
def test_kernel_and_simulator_agree_job_by_job(boot, tmp_path_factory, n_sets: int,
                                               seed: int) -> None:
    cfg = small_sets(n_sets, tmp_path_factory.mktemp(f"simcheck{seed}"), seed=seed)
    r = boot(str(cfg))
    assert invariant_violations(decode(r.area)) == []
    diffs = compare(cfg, r.area)
    assert len(diffs) >= 20 * n_sets
    bad = [f"{d.task} job {d.job}: {'; '.join(d.mismatches())}" for d in diffs
           if d.mismatches()]
    assert bad == [], "\n".join(bad[:20])
    # both rules and both partitions really occurred, and jobs did wait for each other
    assert Counter(d.sim["partition"] for d in diffs).keys() == {0, 1}
    assert any(d.sim["exec_start"] > d.sim["load_end"] for d in diffs)
    worst = max(abs(d.kernel["exec_start"] - d.sim["exec_start"]) for d in diffs)
    print(f"simcheck seed {seed}: {len(diffs)} jobs agree; dispatch latency <= {worst} ns "
          f"(tolerance {TOL_NS} ns)")


def test_kernel_and_simulator_agree_when_jobs_outlive_their_period(boot,
                                                                  tmp_path_factory) -> None:
    """Heavier sets (40-70 % per core) where jobs outlive their period: the kernel holds the
    next release pending until the unload, and so does the simulator (`serial`)."""
    cfg = small_sets(5, tmp_path_factory.mktemp("simcheck_outlive"), seed=5, outlive=True)
    r = boot(str(cfg))
    tl = decode(r.area)
    assert invariant_violations(tl) == []
    diffs = compare(cfg, r.area)
    bad = [f"{d.task} job {d.job}: {'; '.join(d.mismatches())}" for d in diffs
           if d.mismatches()]
    assert bad == [], "\n".join(bad[:20])
    import yaml

    period = {t["name"]: t["period_ns"] for t in yaml.safe_load(cfg.read_text())["spm"]["tasks"]}
    long_jobs = sum(1 for d in diffs if d.kernel["unload_end"] - d.kernel["release"]
                    > period[d.task])
    print(f"simcheck (outliving): {len(diffs)} jobs agree, {long_jobs} outlived their period")
    assert long_jobs >= 5


MUTANTS = {1: "one-slot dispatch delay", 2: "skipped slot", 3: "Rule 2 before Rule 1"}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_mutant_kernels_fail_the_check(boot, tmp_path_factory, monkeypatch,
                                       mutant: int) -> None:
    """Mutation check (issue 13): a kernel built with a deliberate protocol bug (make
    PT_SPM_MUTANT=n, subsys/spm/spm.h) must fail this comparison or the protocol invariants;
    the normal build (the test above) passes both."""
    cfg = small_sets(4, tmp_path_factory.mktemp(f"mutant{mutant}"), seed=3)
    monkeypatch.setenv("PARTITA_MAKE_VARS", f"PT_SPM_MUTANT={mutant}")
    r = boot(str(cfg), tag=f"-mutant{mutant}")
    monkeypatch.delenv("PARTITA_MAKE_VARS")
    inv = invariant_violations(decode(r.area))
    bad = [d for d in compare(cfg, r.area) if d.mismatches()]
    print(f"mutant {mutant} ({MUTANTS[mutant]}): {len(inv)} invariant violations, "
          f"{len(bad)} jobs disagree with the simulator")
    assert inv or bad, f"mutant {mutant} ({MUTANTS[mutant]}) passed the check"
