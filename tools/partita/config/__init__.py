"""`partita config`: YAML schema, checks, P-EDF partitioning, C table generation.

    from partita.config import load_resolved
    system = load_resolved("configs/demo.yaml")   # raises ConfigError with one line per problem
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

from partita.config.errors import ConfigError, Problem
from partita.config.lint import ConfigWarning
from partita.config.resolve import Resolved, ResolveError, resolve

__all__ = ["ConfigError", "ConfigWarning", "Problem", "Resolved", "load_resolved",
           "write_outputs"]


def _field_names(path: tuple[str | int, ...]) -> list[str]:
    """The field names the schema accepts where `path` points (with every duration unit)."""
    from partita.config.loader import DURATIONS
    from partita.config.schema import (
        CacheCfg,
        CpuCfg,
        PartitionCfg,
        SchedulerCfg,
        SystemCfg,
        ThreadCfg,
    )
    from partita.config.units import UNITS

    models = {"threads": ThreadCfg, "schedulers": SchedulerCfg, "partitions": PartitionCfg,
              "cpus": CpuCfg, "cache": CacheCfg}
    model = models.get(str(path[0]), SystemCfg) if len(path) > 1 else SystemCfg
    names = set(model.model_fields)
    key = str(path[0]) if len(path) > 1 and model is not SystemCfg else None
    for listkey, bases in DURATIONS:
        if listkey == key:
            names |= {f"{b}_{u}" for b in bases for u in UNITS}
    if model is SystemCfg:  # subsystem sections are top-level keys too
        from partita import subsys

        names |= set(subsys.names())
    return sorted(names - {"task", "subsys"})


def _suggest(problems: Sequence[Problem]) -> list[Problem]:
    """Add "did you mean" to unknown fields; drop exact duplicates (one message per fault)."""
    from partita.config.lint import did_you_mean

    out: list[Problem] = []
    for p in problems:
        if p.message == "unknown field" and p.path and isinstance(p.path[-1], str):
            p = Problem(p.path, p.message + did_you_mean(p.path[-1], _field_names(p.path)),
                        p.line)
        if p not in out:
            out.append(p)
    return out


def load_resolved(path: str | Path, *, app_dirs: Sequence[str | Path] = ()) -> Resolved:
    """Load, validate, lint and resolve a configuration file. Raises ConfigError (one line
    per problem: file, line, field, what is wrong); warns ConfigWarning for fields that have
    no effect. `app_dirs`: application directories outside the configuration
    (`partita build --app-dir`), see partita.config.apps."""
    from partita.config import apps, lint, loader

    file = str(path)
    raw, node = loader.parse_text(loader.read_text(path), file)
    try:
        cfg = loader.validate(raw, node, file)
    except ConfigError as e:
        raise ConfigError(file, _suggest(e.problems)) from None
    dirs, missing = apps.search_path(path, cfg.apps, app_dirs)
    errors, warns = lint.lint(cfg, dirs)
    errors = [Problem(("apps",), m) for m in missing] + errors
    if errors:
        raise ConfigError(file, _suggest([Problem(p.path, p.message, loader._line_of(node, p.path))
                                          for p in errors]))
    for w in warns:
        warnings.warn(Problem(w.path, w.message, loader._line_of(node, w.path)).render(file),
                      ConfigWarning, stacklevel=2)
    from partita import subsys

    roles = {c: cfg.role_of(c).value for c in range(cfg.ncpus)}
    sub_problems: list[Problem] = []
    for name, raw_section in cfg.subsys.items():  # each subsystem checks its own section
        sub = subsys.get(name)
        section, found = sub.parse(raw_section)
        sub_problems += found if section is None else sub.check(section, cfg.ncpus, roles)
    if sub_problems:
        raise ConfigError(file, [Problem(p.path, p.message, loader._line_of(node, p.path))
                                 for p in sub_problems])
    try:
        return resolve(cfg, file)
    except ResolveError as e:
        raise ConfigError(file, [Problem(p.path, p.message, loader._line_of(node, p.path))
                                 for p in e.problems]) from None


def _write_if_changed(path: Path, text: str) -> None:
    """Keep the timestamp when nothing changed, so make does not rebuild."""
    if path.exists() and path.read_text() == text:
        return
    path.write_text(text)


def write_outputs(r: Resolved, outdir: str | Path) -> list[Path]:
    """Write pt_config.c and pt_config.json into `outdir`."""
    from partita.config.gen import generate_c

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "pt_config.c": generate_c(r),
        "pt_config.json": r.model_dump_json(indent=1) + "\n",
    }
    # subsystems: only those the configuration uses are compiled and linked (mk/kernel.mk)
    from partita import subsys

    folders: list[str] = []
    for sub, section in subsys.used(r.subsys):
        folders += [f for f in sub.c_folders if f not in folders]
        files.update(sub.gen_files(section, out))
    files["subsys.mk"] = "PT_SUBSYS := " + " ".join(folders) + "\n"
    # a configuration that dropped a subsystem's section leaves no stale tables behind
    for stale in subsys.all_gen_names() - set(files):
        (out / stale).unlink(missing_ok=True)
    for name, text in files.items():
        _write_if_changed(out / name, text)
    return [out / n for n in files]
