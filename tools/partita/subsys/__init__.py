"""The subsystem plugin registry: how a subsystem (one folder under subsys/ in C, one package
here) plugs into `partita config`, `run`, `report` and `analyze` without them naming it.

A subsystem is a module that defines `SUBSYSTEM`, an object with the members of `Subsystem`
below. It contributes, all in one place:
- its YAML section (top-level key `name`) as a typed pydantic model (`model`, `parse`), and
  the section's checks against the rest of the configuration (`check`, `claims`);
- the C it needs: the folders under subsys/ to compile and link (`c_folders`, written into
  build/<cfg>/gen/subsys.mk) and its generated tables (`gen_files`, `gen_names`);
- its trace events (`trace_ranges`: the ranges of kernel/trace/trace_events.yaml it owns);
- its task set (`tasks`, the `partita.model` types) and their bounds (`bounds`), which
  `partita analyze` and `partita run` report beside the kernel's threads;
- its report (`render_report`: extra tables / files of a run, from the trace);
- optionally, the emulated devices it needs (`qemu_devices`: QEMU `-device` values; a run with
  any boots build/qemu's QEMU with Partita's device models instead of Debian's).

Adding a subsystem is one line in `_MODULES` plus its package. Modules are imported only when a
configuration uses them (or when a report looks for their events), so `partita config` on a
configuration without them pays nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

    from partita.config.errors import Problem
    from partita.model import Task
    from partita.trace.format import Area

# YAML section name -> module defining SUBSYSTEM. One line per subsystem.
_MODULES: dict[str, str] = {
    "spm": "partita.subsys.spm.plugin",
    "cache_model": "partita.subsys.cachemodel.plugin",
    "dataflow": "partita.subsys.dataflow.plugin",
    "coproc": "partita.subsys.coproc.plugin",
    "uk": "partita.subsys.uk.plugin",
}

# Timing models: QEMU plugins a run can load (`partita run --model NAME`), each configured by
# (and linking its kernel side through) one subsystem's section; a configuration with that
# section loads the model without being asked. name -> (module defining the Model members
# below, its section). One line per model.
_MODELS: dict[str, tuple[str, str]] = {
    "cachesim": ("partita.subsys.cachemodel.model", "cache_model"),
}


class Subsystem(Protocol):
    """What a subsystem provides (see the module docstring)."""

    name: str                                 # its YAML section, and its registry key
    model: type[BaseModel]                    # the section's typed model
    c_folders: tuple[str, ...]                # subsys/<folder> compiled and linked when used
    gen_names: tuple[str, ...]                # files it writes into the gen directory
    trace_ranges: Mapping[str, tuple[int, int]]  # C subsystem -> (first event, count)
    roles: Mapping[str, str]                  # cpu role it implements -> what it needs
    reserved_app_dirs: tuple[str, ...]        # apps/<dir> that are not entry libraries

    def parse(self, raw: Any) -> tuple[BaseModel | None, list[Problem]]:
        """The typed section, or the problems (paths start with the section name)."""
        ...

    def check(self, section: Any, ncpus: int, roles: dict[int, str]) -> list[Problem]:
        """Relations with the rest of the configuration (cpus and their roles)."""
        ...

    def claims(self, raw: Any) -> dict[int, str]:
        """cpu -> role the (raw, perhaps still invalid) section runs on it (a role of
        `roles`); the lint of roles uses it before the section is checked."""
        ...

    def gen_files(self, section: Any, outdir: Path) -> dict[str, str]:
        """Generated files by name (every name of `gen_names`)."""
        ...

    def tasks(self, section: Any) -> list[Task]:
        """The section's real-time tasks, in the analysis model."""
        ...

    def bounds(self, section: Any) -> dict[str, dict[str, Any]]:
        """{task: {"bound_ns", "deadline_ns", "schedulable", ...}} of its analysis."""
        ...

    def render_report(self, area: Area | None, out: Path | None) -> None:
        """Print its part of a run's report (nothing if the trace holds none of its events);
        with `out`, also write its files there."""
        ...


def qemu_devices(sections: Mapping[str, Any]) -> list[str]:
    """The emulated devices the configuration's sections need, as QEMU `-device` values (e.g.
    `partita-sched,addr=0x10200000,instances=2`). A subsystem declares them with an optional
    `qemu_devices(section) -> list[str]`; any device makes `partita run` boot build/qemu's
    QEMU (Partita's device models, scripts/qemu-dev.sh) instead of Debian's."""
    devs: list[str] = []
    for sub, section in used(sections):
        fn = getattr(sub, "qemu_devices", None)
        if fn is not None:
            devs += fn(section)
    return devs


class Model(Protocol):
    """A timing model's module: what `partita run` calls around the boot."""

    OUTPUTS: tuple[str, ...]  # files it writes into the run's out directory

    def qemu_args(self, system: Any, elf: Path, ram_file: Path, out: Path) -> list[str]:
        """Extra QEMU arguments (the -plugin option); ConfigError for a bad configuration."""
        ...

    def collect(self, out: Path, names: Mapping[int, str],
                wall_s: float | None = None) -> dict[str, Any]:
        """After the guest exited: turn the plugin's output into the model's files."""
        ...


def model_names() -> list[str]:
    """Every registered timing model."""
    return list(_MODELS)


def get_model(name: str) -> Model:
    """The module of model `name` (KeyError if none)."""
    mod: Model = importlib.import_module(_MODELS[name][0])  # type: ignore[assignment]
    return mod


def models_for(sections: Mapping[str, Any], requested: str | None) -> list[str]:
    """The models a run loads: `requested` (`none`: no model at all) and every model whose
    section the configuration has. ValueError names an unknown model."""
    if requested == "none":
        return []
    if requested is not None and requested not in _MODELS:
        raise ValueError(f"--model {requested}: no such model (known: "
                         f"{', '.join([*_MODELS, 'none'])})")
    return [n for n, (_, sec) in _MODELS.items() if n == requested or sec in sections]


def names() -> list[str]:
    """Every registered subsystem (its YAML section name), in registry order."""
    return list(_MODULES)


def get(name: str) -> Subsystem:
    """The subsystem of YAML section `name` (KeyError if none)."""
    sub: Subsystem = importlib.import_module(_MODULES[name]).SUBSYSTEM
    return sub


def registered() -> Iterator[Subsystem]:
    for name in _MODULES:
        yield get(name)


def used(sections: Mapping[str, Any]) -> Iterator[tuple[Subsystem, Any]]:
    """(subsystem, its typed section) for every section present in `sections` (the raw
    sections of a configuration, e.g. `Resolved.subsys`). The sections were validated by
    `partita config`; a section that no longer parses raises ValueError."""
    for name, raw in sections.items():
        if raw is None:
            continue
        sub = get(name)
        section, problems = sub.parse(raw)
        if section is None:
            raise ValueError("; ".join(p.message for p in problems))
        yield sub, section


def all_gen_names() -> set[str]:
    """Every file name a subsystem may write into a gen directory (stale ones are removed)."""
    return {n for sub in registered() for n in sub.gen_names}


def role_needs() -> dict[str, str]:
    """Role -> what it needs, for the cpu roles only subsystems implement."""
    return {role: need for sub in registered() for role, need in sub.roles.items()}
