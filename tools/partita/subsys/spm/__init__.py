"""Brief 0 (scratchpad-centric execution, dedicated I/O core): the `spm:` configuration
section and its generator, the relocation checker, the trace decoder and report additions,
and the host UDP traffic tool. The toolkit reaches it only through the subsystem registry
(`partita.subsys`, entry `SUBSYSTEM` in `partita.subsys.spm.plugin`)."""

from __future__ import annotations

from typing import Any

from partita.subsys.spm.config import SpmCfg


def load(raw: Any) -> SpmCfg | None:
    """The validated section of a raw `spm:` mapping (None if absent); ValueError if bad."""
    from partita.subsys.spm.config import parse

    if raw is None:
        return None
    spm, problems = parse(raw)
    if spm is None or problems:
        raise ValueError("; ".join(p.message for p in problems))
    return spm
