"""The SPM subsystem's registry entry (see partita.subsys): the `spm:` section, its checks, its
C tables, its trace events (SPM and I/O ranges), its three-phase tasks and their bounds, and
its part of a run's report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partita.config.errors import Problem
from partita.model import ThreePhaseTask
from partita.subsys.spm.config import SpmCfg, check, parse
from partita.trace.events import SUBSYS_RANGES
from partita.trace.format import Area


class _Spm:
    name = "spm"
    model = SpmCfg
    c_folders = ("spm", "io")  # the application-core runtime and the I/O core
    gen_names = ("pt_spm_config.c", "pt_spm_images.S", "pt_spm_images.mk")
    trace_ranges = {k: SUBSYS_RANGES[k] for k in ("spm", "io")}
    roles = {"io": "runs the SPM I/O core of subsys/io and needs an spm: section with "
                   "io_cpu: {cpu}"}
    reserved_app_dirs = ("spm",)  # task images, built separately by mk/spm.mk

    def parse(self, raw: Any) -> tuple[SpmCfg | None, list[Problem]]:
        return parse(raw)

    def check(self, section: SpmCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        return check(section, ncpus, roles)

    def claims(self, raw: Any) -> dict[int, str]:
        io_cpu = raw.get("io_cpu") if isinstance(raw, dict) else None
        return {io_cpu: "io"} if isinstance(io_cpu, int) else {}

    def gen_files(self, section: SpmCfg, outdir: Path) -> dict[str, str]:
        from partita.subsys.spm.gen import write

        return write(section, outdir)

    def tasks(self, section: SpmCfg) -> list[ThreePhaseTask]:
        return [t.task() for t in section.tasks]

    def bounds(self, section: SpmCfg) -> dict[str, dict[str, Any]]:
        from partita.subsys.spm.bounds import bounds_for

        return bounds_for(section)

    def render_report(self, area: Area | None, out: Path | None) -> None:
        from partita.subsys.spm.report import render_extra

        render_extra(area, out)


SUBSYSTEM = _Spm()
