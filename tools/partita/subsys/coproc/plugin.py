"""The coproc subsystem's registry entry (see partita.subsys): the `coproc:` section
(partita.subsys.coproc.config) links subsys/coproc, claims the cpus of role coproc its hart
back ends run on, and generates the coprocessor table (coproc_config.c). The scheduler
instances of policy offload that use a coprocessor are checked in partita.config.checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from partita.config.errors import Problem
from partita.model import Task
from partita.subsys.coproc import config as cc
from partita.trace.format import Area


class _Coproc:
    name = "coproc"
    model = cc.CoprocSection
    c_folders = ("coproc",)
    gen_names: tuple[str, ...] = ("coproc_config.c",)
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    roles: ClassVar[dict[str, str]] = {
        "coproc": "needs a coprocessor with `backend: hart` and `cpu: {cpu}` in the coproc: "
                  "section",
    }
    reserved_app_dirs: tuple[str, ...] = ()

    def parse(self, raw: Any) -> tuple[cc.CoprocSection | None, list[Problem]]:
        return cc.parse(raw)

    def check(self, section: cc.CoprocSection, ncpus: int, roles: dict[int, str]
              ) -> list[Problem]:
        return cc.check(section, ncpus, roles)

    def claims(self, raw: Any) -> dict[int, str]:
        return cc.claims(raw)

    def gen_files(self, section: cc.CoprocSection, outdir: Path) -> dict[str, str]:
        return {"coproc_config.c": cc.gen_c(section)}

    def tasks(self, section: cc.CoprocSection) -> list[Task]:
        return []

    def bounds(self, section: cc.CoprocSection) -> dict[str, dict[str, Any]]:
        return {}

    def render_report(self, area: Area | None, out: Path | None) -> None:
        return None

    def qemu_devices(self, section: cc.CoprocSection) -> list[str]:
        """backend device: the emulated scheduler coprocessors (build/qemu's QEMU)."""
        return cc.qemu_devices(section)


SUBSYSTEM = _Coproc()
