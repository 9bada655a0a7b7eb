"""`partita config`: YAML schema, checks, P-EDF partitioning, C table generation.

    from partita.config import load_resolved
    system = load_resolved("configs/demo.yaml")   # raises ConfigError with one line per problem
"""

from __future__ import annotations

from pathlib import Path

from partita.config.errors import ConfigError, Problem
from partita.config.resolve import Resolved, ResolveError, resolve

__all__ = ["ConfigError", "Problem", "Resolved", "load_resolved", "write_outputs"]


def load_resolved(path: str | Path) -> Resolved:
    """Load, validate and resolve a configuration file."""
    from partita.config import loader

    file = str(path)
    raw, node = loader.parse_text(loader.read_text(path), file)
    cfg = loader.validate(raw, node, file)
    from partita.spm import check_section  # brief 0 section
    spm_problems = check_section(cfg.spm, cfg.ncpus, {c: cfg.role_of(c).value
                                                      for c in range(cfg.ncpus)})
    if spm_problems:
        raise ConfigError(file, [Problem(p.path, p.message, loader._line_of(node, p.path))
                                 for p in spm_problems])
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
    """Write pt_config.c, pt_config_gen.h and pt_config.json into `outdir`."""
    from partita.config.gen import generate_c, generate_h

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "pt_config.c": generate_c(r),
        "pt_config_gen.h": generate_h(r),
        "pt_config.json": r.model_dump_json(indent=1) + "\n",
    }
    # subsystems: only those the configuration uses are compiled and linked (mk/kernel.mk)
    subsystems = ["spm", "io"] if r.spm is not None else []
    files["subsys.mk"] = "PT_SUBSYS := " + " ".join(subsystems) + "\n"
    if r.spm is not None:
        from partita.spm import gen_files  # brief 0: pt_spm_config.c, pt_spm_images.S
        files.update(gen_files(r.spm, out))
    else:  # a configuration that dropped its spm: section leaves no stale tables behind
        for stale in ("pt_spm_config.c", "pt_spm_images.S", "pt_spm_images.mk"):
            (out / stale).unlink(missing_ok=True)
    for name, text in files.items():
        _write_if_changed(out / name, text)
    return [out / n for n in files]
