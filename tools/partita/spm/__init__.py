"""Brief 0 (scratchpad-centric execution, dedicated I/O core): the `spm:` configuration
section and its generator, the relocation checker, the trace decoder and report additions,
and the host UDP traffic tool. The main configuration tool calls `check_section` and
`gen_files`; nothing else here is needed by it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partita.config.errors import Problem


def check_section(raw: Any, ncpus: int, roles: dict[int, str]) -> list[Problem]:
    """Problems of a system's `spm:` section (empty if it is absent or fine)."""
    from partita.spm.config import check, parse

    if raw is None:
        return []
    spm, problems = parse(raw)
    if spm is None:
        return problems
    return check(spm, ncpus, roles)


def load(raw: Any):  # -> SpmCfg | None
    """The validated section (call after check_section passed)."""
    from partita.spm.config import parse

    if raw is None:
        return None
    spm, problems = parse(raw)
    if problems:
        raise ValueError("; ".join(p.message for p in problems))
    return spm


def gen_files(raw: Any, outdir: str | Path) -> dict[str, str]:
    """Generated files for the gen directory: always present, empty tables without `spm:`."""
    from partita.spm.gen import write

    return write(load(raw), Path(outdir))
