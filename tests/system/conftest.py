"""System tests: boot QEMU through `partita.run.run.run_config` and check the trace.

Layout: one folder per subject, `tests/system/<subject>/`, holding its pytest file(s), its
configuration(s) and the C program(s) they name (`apps: [.]`, or a relative path to another
subject's folder). The helpers shared by several subjects (this file, invariants.py,
gedf_sim.py) stay here; this folder is put on sys.path so that a test in a subfolder can
`from invariants import ...`.

Each configuration is built and booted once per test session: xdist workers share the runs
through the session's base temporary directory (a lock per run; the second worker reads the
first one's results back). partita.run.build's lock serialises boots of one build directory.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from partita.config import ConfigError
from partita.run.build import BuildError
from partita.run.run import RunResult, load_result, run_config

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the shared helpers, for the tests in the subject folders


def config_path(name: str) -> Path:
    """tests/system/<subject>/<name>.yaml: the one subject folder holding that configuration
    (an error if none or several do)."""
    found = sorted(HERE.glob(f"*/{name}.yaml"))
    if len(found) != 1:
        where = ", ".join(str(p.relative_to(HERE)) for p in found) or "no subject folder"
        raise FileNotFoundError(f"configuration {name}.yaml: expected in exactly one "
                                f"tests/system/<subject>/, found in {where}")
    return found[0]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "system: boots the kernel under QEMU (slow)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
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


# Subjects whose tests hold for every fixed-priority implementation: each of their tests that
# boots runs three times, on the configurations as written (`inline`), on their offloaded
# variant (`offload`: every fp instance scheduled by a scheduler coprocessor on one extra hart,
# partita.subsys.coproc.variant; docs/offload.md) and on the same with the coprocessor on the
# emulated device (`device`: backend device, build/qemu's QEMU; docs/devices.md). The tests
# themselves are not copied.
FP_IMPL_SUBJECTS = ("fp", "rr", "api")
# Offloaded variants known not to pass, and why (docs/offload.md, "Not passing").
OFFLOAD_XFAIL = {
    "smoke": "its G-EDF cluster (cpus 2-3, not offloaded) shares QEMU's icount clock with the "
             "extra coprocessor hart and the fp harts' waits for it: bits_u completes 39 of 40 "
             "jobs with 10 deadline misses (timing, not a scheduling decision)",
}
FP_IMPL_BACKEND = {"offload": "hart", "device": "device"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    subject = Path(str(metafunc.definition.fspath)).parent.name
    if "boot" in metafunc.fixturenames and subject in FP_IMPL_SUBJECTS:
        metafunc.parametrize("fp_impl", ["inline", *FP_IMPL_BACKEND], indirect=True)


@pytest.fixture
def fp_impl(request: pytest.FixtureRequest) -> str:
    """The fixed-priority implementation a test boots: inline unless parametrized."""
    return str(getattr(request, "param", "inline"))


@pytest.fixture
def boot(fp_impl: str, session_boot: Callable[..., RunResult],
         tmp_path_factory: pytest.TempPathFactory,
         request: pytest.FixtureRequest) -> Callable[..., RunResult]:
    """session_boot, or (fp_impl = offload / device) the same on the offloaded variant of the
    configuration (coprocessor on a hart / on the device)."""
    if fp_impl == "inline":
        return session_boot
    from partita.subsys.coproc.variant import write_offload_variant

    where = _shared_dir(tmp_path_factory) / "offload-variants"

    def _boot(name: str, tag: str = "") -> RunResult:
        cfg = config_path(name) if not name.endswith(".yaml") else Path(name)
        if cfg.stem in OFFLOAD_XFAIL:  # runs, and is reported as XFAIL / XPASS
            request.node.add_marker(pytest.mark.xfail(reason=OFFLOAD_XFAIL[cfg.stem]))
        with open(where.parent / ".offload-variants.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            path = write_offload_variant(cfg, where, backend=FP_IMPL_BACKEND[fp_impl])
        return session_boot(str(path), tag)

    return _boot


@pytest.fixture(scope="session")
def session_boot(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., RunResult]:
    """boot("sys_fp") -> the run of tests/system/fp/sys_fp.yaml (found by name in the subject
    folders; a path ending in .yaml is taken as it is), booted once per session (shared by
    the xdist workers). `tag` gives a second, independent boot of it."""
    shared = _shared_dir(tmp_path_factory) / "system-runs"

    def _boot(name: str, tag: str = "") -> RunResult:
        key = (name, tag)
        if key not in _cache:  # failures are cached too: one boot per configuration
            try:
                cfg = config_path(name) if not name.endswith(".yaml") else Path(name)
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
