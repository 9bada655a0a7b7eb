"""System tests: boot QEMU through `partita.run.run.run_config` and check the trace.

Each configuration is built and booted once per test session: xdist workers share the runs
through the session's base temporary directory (a lock per run; the second worker reads the
first one's results back). partita.run.build's lock serialises boots of one build directory.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from partita.config import ConfigError
from partita.run.build import BuildError
from partita.run.run import RunResult, load_result, run_config

CONFIGS = Path(__file__).parent / "configs"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "system: boots the kernel under QEMU (slow)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.system)


_cache: dict[tuple[str, str], RunResult | str] = {}


def _shared_dir(factory: pytest.TempPathFactory) -> Path:
    """A directory shared by every xdist worker of this session (the session's basetemp)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _run_once(cfg: Path, out: Path) -> RunResult:
    """Boot `cfg` into `out` unless another worker of this session already did."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f".{out.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (out / "run.json").exists():
            return load_result(cfg, out)
        return run_config(cfg, out, png=False, bounds=False)


@pytest.fixture(scope="session")
def boot(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., RunResult]:
    """boot("sys_fp") -> the run of tests/system/configs/sys_fp.yaml, booted once per session
    (shared by the xdist workers). `tag` gives a second, independent boot of it."""
    shared = _shared_dir(tmp_path_factory) / "system-runs"

    def _boot(name: str, tag: str = "") -> RunResult:
        key = (name, tag)
        if key not in _cache:  # failures are cached too: one boot per configuration
            cfg = CONFIGS / f"{name}.yaml" if not name.endswith(".yaml") else Path(name)
            try:
                r = _run_once(cfg, shared / f"{cfg.stem}{tag}")
            except (ConfigError, BuildError, OSError) as e:  # reported as the test failure
                _cache[key] = f"{name}: {type(e).__name__}: {e}"
            else:
                ok = r.ok and r.timeline is not None
                _cache[key] = r if ok else f"{name}: the run failed: {r.describe()}"
        got = _cache[key]
        if isinstance(got, str):
            pytest.fail(got)
        return got

    return _boot
