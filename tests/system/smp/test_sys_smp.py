"""The largest machine the kernel supports: 8 harts (smp8.yaml), four
fixed-priority cores and a G-EDF cluster of four. Every hart boots and schedules, and every
job of a lightly loaded set completes in time."""

from __future__ import annotations

import json
from collections.abc import Callable

from partita.run.run import RunResult


def test_eight_harts_all_schedule_and_meet_deadlines(boot: Callable[..., RunResult]) -> None:
    r = boot("smp8")
    tl = r.timeline
    assert tl is not None
    cfg = json.loads((r.out / "pt_config.json").read_text())
    assert cfg["ncpus"] == 8
    used: set[int] = set()
    for t in cfg["threads"]:
        st = r.stats[t["name"]]
        assert st.misses == 0 and st.overruns == 0, st
        assert st.completed >= cfg["run_for_ns"] // t["period_ns"] - 1, st
        used |= set(st.cpus)
    assert used == set(range(8)), used
    cluster = [f"g{i}" for i in range(8)]
    assert len({c for n in cluster for c in r.stats[n].cpus}) == 4
