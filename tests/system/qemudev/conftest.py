"""The FP system tests of tests/system/{fp,rr,api} re-run on the scheduler-coprocessor device
(test_fp_on_device.py imports them unchanged): here `boot(name)` boots the configuration's
device variant — every `policy: fp` instance becomes `policy: offload`, a client of one
scheduler coprocessor with `backend: device` (the emulated partita-sched device, so
build/qemu's QEMU). docs/devices.md."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from partita.run.run import RunResult

SYSTEM = Path(__file__).resolve().parents[1]


def config_path(name: str) -> Path:
    """tests/system/<subject>/<name>.yaml, as tests/system/conftest.py finds it."""
    found = sorted(SYSTEM.glob(f"*/{name}.yaml"))
    if len(found) != 1:
        raise FileNotFoundError(f"configuration {name}.yaml: {len(found)} found")
    return found[0]


def device_variant(raw: dict[str, Any], base: Path) -> dict[str, Any]:
    """Configuration `raw` (read from directory `base`) with its fp instances on the device;
    relative paths made absolute so it can be written anywhere. ValueError without fp."""
    out = dict(raw)
    scheds = [dict(s) for s in raw.get("schedulers", [])]
    clients = [s["name"] for s in scheds if s.get("policy") == "fp"]
    if not clients:
        raise ValueError("no scheduler of policy fp to offload")
    for s in scheds:
        if s.get("policy") == "fp":
            s["policy"] = "offload"
    out["schedulers"] = scheds
    out["coproc"] = [*raw.get("coproc", []), {"name": "schedcp", "service": "sched",
                                             "backend": "device", "clients": clients}]
    out["name"] = (str(raw["name"]) + "_dev")[:31]
    if "apps" in raw:
        out["apps"] = [str((base / a).resolve()) if (base / a).exists() else a
                       for a in raw["apps"]]
    if "overheads" in raw:
        out["overheads"] = str((base / raw["overheads"]).resolve())
    return out


@pytest.fixture
def boot(boot: Callable[..., RunResult],
         tmp_path_factory: pytest.TempPathFactory) -> Callable[..., RunResult]:
    base = tmp_path_factory.getbasetemp()
    where = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "device-variants"
    where.mkdir(parents=True, exist_ok=True)

    def _boot(name: str, tag: str = "") -> RunResult:
        cfg = config_path(name) if not name.endswith(".yaml") else Path(name)
        path = where / f"{cfg.stem}_dev.yaml"
        with open(where / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            raw = yaml.safe_load(cfg.read_text())
            path.write_text(yaml.safe_dump(device_variant(raw, cfg.parent), sort_keys=False))
        return boot(str(path), tag)

    return _boot
