"""The uk subsystem's registry entry (see partita.subsys): the `uk:` section links subsys/uk
(the PK's delegation of system calls to the user-level kernel, uk/) and writes its timeout
and poll period into gen/pt_uk_config.c. No tasks: a delegated call is not real-time work."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from partita.config.errors import Problem
from partita.model import Task
from partita.subsys.uk.config import UkCfg, generate_c, parse
from partita.trace.events import SUBSYS_RANGES
from partita.trace.format import Area


class _Uk:
    name = "uk"
    model = UkCfg
    c_folders = ("uk",)
    gen_names: tuple[str, ...] = ("pt_uk_config.c",)
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {"uk": SUBSYS_RANGES["uk"]}
    roles: ClassVar[dict[str, str]] = {}
    reserved_app_dirs: tuple[str, ...] = ()

    def parse(self, raw: Any) -> tuple[UkCfg | None, list[Problem]]:
        return parse(raw)

    def check(self, section: UkCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        return []

    def claims(self, raw: Any) -> dict[int, str]:
        return {}

    def gen_files(self, section: UkCfg, outdir: Path) -> dict[str, str]:
        return {"pt_uk_config.c": generate_c(section)}

    def tasks(self, section: UkCfg) -> list[Task]:
        return []

    def bounds(self, section: UkCfg) -> dict[str, dict[str, Any]]:
        return {}

    def render_report(self, area: Area | None, out: Path | None) -> None:
        from partita.subsys.uk.report import render

        render(area)


SUBSYSTEM = _Uk()
