"""The cache_model: section and the cachesim model's host side (partita.subsys.cachemodel):
section errors name the field, which models a run loads, the summary of the plugin's output
per thread and job, and the -plugin option built from cache: and cache_model:."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from partita import subsys
from partita.config import ConfigError, load_resolved
from partita.subsys.cachemodel import model
from partita.subsys.cachemodel.config import check_llc, parse

ROOT = Path(__file__).resolve().parents[2]
CM = ROOT / "tests" / "system" / "cachemodel"


def test_section_defaults_and_errors() -> None:
    section, problems = parse({})
    assert section is not None and not problems
    assert section.l1 is not None and (section.l1.size_bytes, section.l1.ways) == (32768, 8)
    assert (section.llc_hit_cycles, section.mem_cycles) == (30, 200)
    section, problems = parse({"l1": None})
    assert section is not None and section.l1 is None
    for raw, field in [({"mem_cycles": -1}, "mem_cycles"), ({"l1": {"ways": 3}}, "l1"),
                       ({"l1": {"size_bytes": 3000}}, "l1"), ({"bogus": 1}, "bogus")]:
        section, problems = parse(raw)
        assert section is None and problems, raw
        assert problems[0].path[:2] == ("cache_model", field), problems
    section, _ = parse({"l1": {"size_bytes": 64, "ways": 2}})
    assert section is not None
    assert check_llc(section, 0, 64)[0].path == ("cache",)
    assert check_llc(section, 65536, 64)[0].path == ("cache_model", "l1", "size_bytes")


def test_models_a_run_loads() -> None:
    assert subsys.model_names() == ["cachesim"]
    assert subsys.models_for({}, None) == []
    assert subsys.models_for({}, "cachesim") == ["cachesim"]
    assert subsys.models_for({"cache_model": {}}, None) == ["cachesim"]
    assert subsys.models_for({"cache_model": {}}, "none") == []
    with pytest.raises(ValueError, match="no such model"):
        subsys.models_for({}, "dinero")


def _rec(tid: int, job: int, insns: int, stalls: int) -> dict[str, Any]:
    rec: dict[str, Any] = dict.fromkeys(model.COUNTS, 1)
    rec.update(tid=tid, job=job, instructions=insns, stall_cycles=stalls)
    return rec


def test_summary_per_thread_and_job() -> None:
    raw = {"params": {}, "per_thread": True, "host_cpu_s": 1.0, "ifetch_unmapped_insns": 0,
           "harts": [], "records": [_rec(3, 2, 100, 50), _rec(0, 1, 7, 1),
                                    _rec(3, 1, 10, 5)]}
    doc = model.summarise(raw, {3: "a"}, wall_s=2.0)
    a = doc["threads"]["a"]
    assert a["tid"] == 3 and [j["job"] for j in a["jobs"]] == [1, 2]
    assert [j["modeled_cycles"] for j in a["jobs"]] == [15, 150]
    assert a["total"]["modeled_cycles"] == 165 and a["total"]["accesses"] == 2 * 3
    assert doc["threads"]["idle"]["jobs"] == [] and doc["stalls_fed_back"] is False
    raw["per_thread"] = False
    assert list(model.summarise(raw, {3: "a"})["threads"]) == ["all"]


def test_plugin_option(tmp_path: Path) -> None:
    from partita.run.build import build, build_dir_for, locked

    system = load_resolved(CM / "cm_disjoint.yaml")
    # the system test boots the same configuration, maybe in another worker: share its lock
    with locked(build_dir_for(system.name)):
        b = build(CM / "cm_disjoint.yaml", quiet=True)
        opt, = model.qemu_args(system, b.elf, b.ram_file, tmp_path)[1:]
    args = dict(kv.split("=", 1) for kv in opt.split(",")[1:])
    assert opt.split(",")[0].endswith("build/cachesim/libcachesim.so")
    assert (args["llc_size"], args["llc_ways"], args["line"]) == ("262144", "4", "64")
    assert (args["l1d_size"], args["l1d_ways"], args["harts"]) == ("4096", "4", "2")
    assert int(args["area"], 16) != 0 and args["out"].endswith(model.RAW)


def test_missing_llc_is_a_config_error(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: t_cm_nollc\nncpus: 1\nschedulers: [{name: f, policy: fp, cpus: [0]}]\n"
                   "cache_model: {}\nthreads: [{name: t, entry: app_fir, priority: 1, "
                   "period_ms: 10, wcet_ms: 1}]\n")
    system = load_resolved(cfg)
    with pytest.raises(ConfigError, match=r"c.yaml: cache: cache_model needs"):
        model.qemu_args(system, Path("x.elf"), Path("ram.bin"), tmp_path)
