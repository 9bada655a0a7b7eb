"""The I/O path without losses (issue 13 part 5): each loopback task's input mirror is a bounded
queue of `mirror_depth` packets of its flow that refuses an arrival when full and counts it per
flow (trace IO_DROP). configs/spm-demo.yaml sizes the depths so that nothing is dropped at the
demo's offered load (1 KiB every 100 us, 4 flows); the same demo with depth 1 loses most
packets, and the check below must say so."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from partita.subsys.spm.events import SpmTimeline, decode
from partita.subsys.spm.report import flow_stats, invariant_violations

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "configs" / "spm-demo.yaml"


def losses(tl: SpmTimeline, depth: dict[int, int]) -> list[str]:
    """What the I/O path lost: mirror drops per flow, and packets neither sent back nor still
    queued at the end of the run (at most one mirror's depth per flow may be in flight)."""
    out = []
    for flow, f in flow_stats(tl).items():
        if f["drops"]:
            out.append(f"flow {flow}: {f['drops']} of {f['rx']} arrivals dropped")
        if f["rx"] - f["tx"] > depth[flow]:
            out.append(f"flow {flow}: rx {f['rx']}, tx {f['tx']}: more than the mirror depth "
                       f"{depth[flow]} unaccounted for")
    return out


def _depths(cfg: dict) -> dict[int, int]:
    return {s["flow"]: s.get("mirror_depth", 1) for t in cfg["spm"]["tasks"]
            for s in t.get("subscribe", [])}


@pytest.fixture(scope="module")
def depth1_cfg(tmp_path_factory) -> tuple[Path, dict[int, int]]:
    """The demo with every loopback mirror one packet deep (in and out)."""
    cfg = yaml.safe_load(DEMO.read_text())
    cfg["name"] = "spm-demo-depth1"
    for t in cfg["spm"]["tasks"]:
        for s in t.get("subscribe", []):
            s["mirror_depth"] = 1
        if "subscribe" in t:
            t["out_mirror"]["slots"] = 1
    path = tmp_path_factory.mktemp("spm-io") / "spm-demo-depth1.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path, _depths(cfg)


def test_demo_drops_nothing_at_its_load(boot) -> None:
    cfg = yaml.safe_load(DEMO.read_text())
    tl = decode(boot(str(DEMO)).area)
    assert len(tl.rx) >= 1900  # the offered load really arrived: 200 ms at 100 us
    assert losses(tl, _depths(cfg)) == []
    assert tl.drops == 0 and tl.drops_by_flow == {}
    assert sorted(flow_stats(tl)) == [0, 1, 2, 3]
    assert invariant_violations(tl) == []


def test_depth_one_loses_packets_and_says_so(boot, depth1_cfg) -> None:
    path, depth = depth1_cfg
    tl = decode(boot(str(path)).area)
    lost = losses(tl, depth)
    assert lost, "depth 1 at the demo's load must fail the lossless check"
    stats = flow_stats(tl)
    for flow in range(4):
        f = stats[flow]
        # about 10 arrivals per job and one kept: most are refused, every one counted
        assert f["drops"] >= f["rx"] // 2, (flow, f)
        assert f["drops"] + f["tx"] <= f["rx"]
        assert f["rx"] - f["drops"] - f["tx"] <= depth[flow]  # the rest is still queued
        name = f"loop{flow}"
        assert tl.drops_by_sub[(name, flow)] == f["drops"]  # running count per (task, flow)
    assert invariant_violations(tl) == []
