"""The subsystem plugin registry (partita.subsys): config, run, report and analyze reach a
subsystem only through it; a new subsystem plugs in with one registry line; SPM tasks are
analysed by `partita analyze`; `partita run` fails loudly when the analysis fails."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest
from partita import subsys
from partita.analysis.cli import analyze_config, analyze_file
from partita.config import ConfigError, load_resolved, write_outputs
from partita.config.errors import Problem
from partita.model import Task
from pydantic import BaseModel, ConfigDict, ValidationError

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "partita"


def test_config_run_report_name_no_subsystem() -> None:
    """grep: no subsystem's name in config/ or run/, nor in the configuration path of analyze
    (its task-set tests keep the analysis's own `spm` test name)."""
    import inspect

    hits = [f"{p.relative_to(ROOT)}:{n}" for p in [*(TOOLS / "config").glob("*.py"),
                                                   *(TOOLS / "run").glob("*.py")]
            for n, line in enumerate(p.read_text().splitlines(), 1)
            if re.search(r"\bspm\b", line, re.IGNORECASE)]
    assert not hits, hits
    assert "spm" not in inspect.getsource(analyze_config).lower()


def test_spm_demo_analysis_covers_the_spm_tasks() -> None:
    doc = analyze_file(ROOT / "configs" / "spm-demo.yaml")
    from partita.subsys.spm import load
    from partita.subsys.spm.bounds import bounds_for

    spm = load(load_resolved(ROOT / "configs" / "spm-demo.yaml").subsys["spm"])
    assert spm is not None
    want = bounds_for(spm)
    assert set(doc["tasks"]) == {t.name for t in spm.tasks} and len(want) == 8
    for name, b in want.items():
        got = doc["tasks"][name]
        assert got["bound_ns"] == b["bound_ns"] and got["deadline_ns"] == b["deadline_ns"]
        assert got["scheduler"] == "spm" and got["wcet_ns"] > 0
    assert doc["test"].endswith("spm:spm")


def test_spm_tasks_are_the_model_type() -> None:
    from partita.model import ThreePhaseTask

    r = load_resolved(ROOT / "configs" / "spm-demo.yaml")
    (sub, section), = subsys.used(r.subsys)
    tasks = sub.tasks(section)
    assert all(isinstance(t, ThreePhaseTask) for t in tasks)
    fir = next(t for t in tasks if t.name == "fir0")
    assert (fir.wcet_ns, fir.period_ns, fir.priority) == (2_000_000, 20_000_000, 2)
    assert fir.load_bytes == 8192 and fir.unload_bytes == 8192


def test_linked_folders_follow_the_sections(tmp_path: Path) -> None:
    write_outputs(load_resolved(ROOT / "configs" / "spm-demo.yaml"), tmp_path)
    assert (tmp_path / "subsys.mk").read_text() == "PT_SUBSYS := spm io\n"
    assert (tmp_path / "pt_spm_config.c").exists()
    write_outputs(load_resolved(ROOT / "configs" / "demo.yaml"), tmp_path)
    assert (tmp_path / "subsys.mk").read_text() == "PT_SUBSYS := \n"
    assert not (tmp_path / "pt_spm_config.c").exists(), "stale subsystem table left behind"


class _ToyCfg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cpu: int
    period_ns: int
    wcet_ns: int


class _Toy:
    """The smallest subsystem: a section, a check, a table, one task and its bound."""

    name = "toy"
    model = _ToyCfg
    c_folders = ("toy",)
    gen_names = ("pt_toy.c",)
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    roles: ClassVar[dict[str, str]] = {}
    reserved_app_dirs = ()

    def parse(self, raw: Any) -> tuple[_ToyCfg | None, list[Problem]]:
        try:
            return _ToyCfg.model_validate(raw), []
        except ValidationError as e:  # one problem is enough here
            return None, [Problem(("toy",), str(e).splitlines()[0])]

    def check(self, section: _ToyCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        return [] if section.cpu < ncpus else [Problem(("toy", "cpu"), "no such cpu")]

    def claims(self, raw: Any) -> dict[int, str]:
        return {}

    def gen_files(self, section: _ToyCfg, outdir: Path) -> dict[str, str]:
        return {"pt_toy.c": f"const unsigned pt_toy_cpu = {section.cpu};\n"}

    def tasks(self, section: _ToyCfg) -> list[Task]:
        return [Task(name="toy0", wcet_ns=section.wcet_ns, period_ns=section.period_ns)]

    def bounds(self, section: _ToyCfg) -> dict[str, dict[str, Any]]:
        return {"toy0": {"bound_ns": section.wcet_ns, "deadline_ns": section.period_ns,
                         "schedulable": True}}

    def render_report(self, area: Any, out: Path | None) -> None:
        return None


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = types.ModuleType("toy_subsys")
    mod.SUBSYSTEM = _Toy()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_subsys", mod)
    monkeypatch.setitem(subsys._MODULES, "toy", "toy_subsys")


def _toy_config(tmp_path: Path, toy_section: str) -> Path:
    text = (ROOT / "tests/system/fp/sys_fp.yaml").read_text()
    cfg = tmp_path / "toy.yaml"
    cfg.write_text(text + f"\ntoy: {toy_section}\n")
    return cfg


def test_a_new_subsystem_plugs_in_with_one_registry_line(toy: None, tmp_path: Path) -> None:
    cfg = _toy_config(tmp_path, "{cpu: 0, period_ns: 1000000, wcet_ns: 100000}")
    r = load_resolved(cfg)
    write_outputs(r, tmp_path / "gen")
    assert (tmp_path / "gen" / "subsys.mk").read_text() == "PT_SUBSYS := toy\n"
    assert (tmp_path / "gen" / "pt_toy.c").read_text() == "const unsigned pt_toy_cpu = 0;\n"
    doc = analyze_file(cfg, auto_overheads=False)
    assert doc["tasks"]["toy0"] == {"bound_ns": 100000, "deadline_ns": 1000000,
                                    "schedulable": True, "wcet_ns": 100000,
                                    "scheduler": "toy", "cpu": None, "test": "toy"}


def test_a_subsystem_checks_its_own_section(toy: None, tmp_path: Path) -> None:
    cfg = _toy_config(tmp_path, "{cpu: 9, period_ns: 1000000, wcet_ns: 100000}")
    with pytest.raises(ConfigError) as e:
        load_resolved(cfg)
    assert "toy.cpu: no such cpu" in str(e.value) and str(cfg) in str(e.value)


def test_unknown_top_level_key_suggests_a_subsystem_section(tmp_path: Path) -> None:
    cfg = tmp_path / "typo.yaml"
    cfg.write_text((ROOT / "configs/spm-demo.yaml").read_text().replace("\nspm:", "\nspn:"))
    with pytest.raises(ConfigError) as e:
        load_resolved(cfg)
    assert "spn: unknown field (did you mean 'spm'?)" in str(e.value)


def test_run_fails_loudly_when_the_analysis_fails(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A configuration whose analysis cannot run (here: its `overheads:` file is missing)
    stops `partita run` before building, exit 2, the reason on stderr. (An unschedulable set
    is not a failure: it is analysed, without bounds; tests/python/analysis.)"""
    from partita.cli import main
    from partita.run.run import AnalysisFailed, write_bounds

    cfg = tmp_path / "noover.yaml"
    cfg.write_text((ROOT / "configs" / "demo.yaml").read_text()
                   + "\noverheads: nowhere/kernel.json\n")
    with pytest.raises(AnalysisFailed, match="nowhere/kernel.json does not exist"):
        write_bounds(cfg, tmp_path)
    assert main(["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "noover.yaml: analysis failed:" in err and "nowhere/kernel.json" in err
    assert not (tmp_path / "o" / "console.log").exists()  # nothing was booted


def test_run_writes_bounds_in_process(tmp_path: Path) -> None:
    from partita.run.run import write_bounds

    doc = write_bounds(ROOT / "configs" / "spm-demo.yaml", tmp_path)
    assert json.loads((tmp_path / "bounds.json").read_text()) == doc
    assert {"loop0", "mm1"} <= set(doc["tasks"])


def test_one_task_set_from_config_to_report() -> None:
    """Resolved.tasks() is the task set: threads' Task models and every subsystem's tasks;
    the report attaches period / deadline / wcet from it (SPM tasks included)."""
    from partita.trace.stats import TaskStats, attach_tasks

    demo = load_resolved(ROOT / "configs" / "demo.yaml")
    assert demo.tasks() == [t for th in demo.threads if (t := th.task()) is not None]
    r = load_resolved(ROOT / "configs" / "spm-demo.yaml")
    tasks = r.tasks()
    assert [t.name for t in tasks] == [t.name for t in load_spm(r).tasks]
    stats = {"fir0": TaskStats("fir0", 1001)}
    attach_tasks(stats, tasks)
    assert (stats["fir0"].period_ns, stats["fir0"].deadline_ns, stats["fir0"].wcet_ns) == (
        20_000_000, 20_000_000, 2_000_000)


def load_spm(r: Any) -> Any:
    from partita.subsys.spm import load

    return load(r.subsys["spm"])
