"""The dataflow subsystem's registry entry (see partita.subsys): the `dataflow:` section
(task graphs), its checks (partita.subsys.dataflow.sdf) and its trace events."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from partita.config.errors import Problem
from partita.model import Task
from partita.subsys.dataflow.config import DataflowCfg, check, parse
from partita.trace.events import SUBSYS_RANGES
from partita.trace.format import Area


class _Dataflow:
    name = "dataflow"
    model = DataflowCfg
    c_folders = ("dataflow",)
    gen_names: tuple[str, ...] = ("pt_dataflow_config.c",)
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {"dataflow": SUBSYS_RANGES["dataflow"]}
    roles: ClassVar[dict[str, str]] = {}
    reserved_app_dirs: tuple[str, ...] = ()

    def parse(self, raw: Any) -> tuple[DataflowCfg | None, list[Problem]]:
        return parse(raw)

    def check(self, section: DataflowCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        return check(section, ncpus, roles)

    def claims(self, raw: Any) -> dict[int, str]:
        return {}

    def gen_files(self, section: DataflowCfg, outdir: Path) -> dict[str, str]:
        from partita.subsys.dataflow.gen import generate

        return {"pt_dataflow_config.c": generate(section)}

    def tasks(self, section: DataflowCfg) -> list[Task]:
        return []  # actors run as the configuration's threads (their timing is there)

    def bounds(self, section: DataflowCfg) -> dict[str, dict[str, Any]]:
        return {}

    def render_report(self, area: Area | None, out: Path | None) -> None:
        return None


SUBSYSTEM = _Dataflow()
