"""The default system (`make run`): configs/demo.yaml boots, runs its dozen periodic tasks on
4 harts for 3 virtual seconds, meets every deadline, and writes the trace artifacts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from partita.run.run import RunResult

DEMO = Path(__file__).resolve().parents[3] / "configs" / "demo.yaml"


def test_demo_runs_clean(boot: Callable[..., RunResult]) -> None:
    r = boot(str(DEMO))
    tl = r.timeline
    assert tl is not None
    cfg = json.loads((r.out / "pt_config.json").read_text())
    assert tl.lost == 0
    assert tl.end_ns >= cfg["run_for_ns"] * 0.99
    for t in cfg["threads"]:
        st = r.stats[t["name"]]
        assert st.misses == 0, (t["name"], st)
        assert st.completed >= cfg["run_for_ns"] // t["period_ns"] - 1, (t["name"], st)
    cluster = [t["name"] for t in cfg["threads"] if cfg["scheds"][t["sched"]]["policy"] == "gedf"]
    assert sum(r.stats[n].migrations for n in cluster) > 0
    doc = json.loads((r.out / "trace.json").read_text())
    assert len(doc["traceEvents"]) > 1000
