"""The offloaded variant of a configuration: the same system with every `policy: fp` instance
scheduled by a scheduler coprocessor on one extra hart (`role: coproc`, backend hart). The FP
system tests boot both (tests/system/conftest.py), so the two implementations are held to the
same tests without copying them; `partita bench` measures both the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from partita import limits

COPROC_NAME = "schedcp"
# name / file suffix of a variant, per back end: the variants of one configuration coexist
SUFFIX = {"hart": "_off", "inline": "_inl", "device": "_dev"}


def offload_variant(raw: dict[str, Any], base: Path, *, backend: str = "hart",
                    priority_order: str = "low_first") -> dict[str, Any]:
    """The variant of configuration `raw` (read from directory `base`): fp instances become
    offload clients of one coprocessor; relative paths (apps, overheads) become absolute so
    the result can be written anywhere. ValueError if no fp instance or no hart is left."""
    out = dict(raw)
    ncpus = int(raw.get("ncpus", 4))
    scheds = [dict(s) for s in raw.get("schedulers", [])]
    clients = [s["name"] for s in scheds if s.get("policy") == "fp"]
    if not clients:
        raise ValueError("no scheduler of policy fp to offload")
    for s in scheds:
        if s.get("policy") == "fp":
            s["policy"] = "offload"
    out["schedulers"] = scheds
    entry: dict[str, Any] = {"name": COPROC_NAME, "service": "sched", "backend": backend,
                             "priority_order": priority_order, "clients": clients}
    if backend == "hart":
        if ncpus >= limits.PT_MAX_CPUS:
            raise ValueError(f"{ncpus} harts: no room for a coprocessor hart")
        out["ncpus"] = ncpus + 1
        out["cpus"] = [*raw.get("cpus", []), {"id": ncpus, "role": "coproc"}]
        entry["cpu"] = ncpus
    out["coproc"] = [*raw.get("coproc", []), entry]
    out["name"] = (str(raw["name"]) + SUFFIX[backend])[:31]
    if "apps" in raw:
        out["apps"] = [str((base / a).resolve()) if (base / a).exists() else a
                       for a in raw["apps"]]
    if "overheads" in raw:
        out["overheads"] = str((base / raw["overheads"]).resolve())
    return out


def write_offload_variant(cfg: Path, outdir: Path, **kw: Any) -> Path:
    """Write the variant of the configuration file `cfg` into `outdir` as STEM_off.yaml
    (STEM_dev.yaml for backend device, STEM_inl.yaml for backend inline)."""
    raw = yaml.safe_load(cfg.read_text())
    outdir.mkdir(parents=True, exist_ok=True)
    # its own run directory beside the original
    path = outdir / f"{cfg.stem}{SUFFIX[kw.get('backend', 'hart')]}.yaml"
    path.write_text(yaml.safe_dump(offload_variant(raw, cfg.parent, **kw), sort_keys=False))
    return path
