"""The cache_model subsystem's registry entry (see partita.subsys): the `cache_model:` section
links subsys/cachemodel (which tells the QEMU plugin which thread and job run on each hart)
and configures the plugin (partita.subsys.cachemodel.model). No tables, tasks or events."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from partita.config.errors import Problem
from partita.model import Task
from partita.subsys.cachemodel.config import CacheModelCfg, parse
from partita.trace.format import Area


class _CacheModel:
    name = "cache_model"
    model = CacheModelCfg
    c_folders = ("cachemodel",)
    gen_names: tuple[str, ...] = ()
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    roles: ClassVar[dict[str, str]] = {}
    reserved_app_dirs: tuple[str, ...] = ()

    def parse(self, raw: Any) -> tuple[CacheModelCfg | None, list[Problem]]:
        return parse(raw)

    def check(self, section: CacheModelCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        return []  # the LLC geometry (cache:) is checked when the model is loaded

    def claims(self, raw: Any) -> dict[int, str]:
        return {}

    def gen_files(self, section: CacheModelCfg, outdir: Path) -> dict[str, str]:
        return {}

    def tasks(self, section: CacheModelCfg) -> list[Task]:
        return []

    def bounds(self, section: CacheModelCfg) -> dict[str, dict[str, Any]]:
        return {}

    def render_report(self, area: Area | None, out: Path | None) -> None:
        from partita.subsys.cachemodel.model import render

        if out is not None:
            render(out)


SUBSYSTEM = _CacheModel()
