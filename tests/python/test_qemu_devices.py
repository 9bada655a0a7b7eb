"""Which QEMU `partita run` boots: Debian's, unless a subsystem section declares an emulated
device (`qemu_devices`), then build/qemu's with Partita's device models and its -device
options (docs/devices.md). The boot itself is replaced: these tests check the choice."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest
from partita import subsys
from partita.run import run as runmod
from partita.run.qemu import DEVICE_QEMU, QEMU, command

ROOT = Path(__file__).resolve().parents[2]


class _Booted(Exception):
    pass


def _fake_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cfg: Path) -> dict[str, Any]:
    """run_config up to the boot, with the build and the boot replaced: the boot's arguments."""
    seen: dict[str, Any] = {}
    gen = tmp_path / "gen"
    gen.mkdir()
    (gen / "pt_config.json").write_text("{}")
    fake = types.SimpleNamespace(gen_dir=gen, elf=tmp_path / "k.elf", ram_file=tmp_path / "ram")

    def boot(*args: Any, **kw: Any) -> None:
        seen.update(kw)
        raise _Booted

    monkeypatch.setattr(runmod, "build", lambda *a, **k: fake)
    monkeypatch.setattr(runmod, "boot", boot)
    monkeypatch.setattr(runmod, "device_qemu", lambda quiet=False: Path("/dev-qemu"))
    with pytest.raises(_Booted):
        runmod.run_config(cfg, tmp_path / "out", bounds=False, png=False, drain=False)
    return seen


class _Dev:
    """A toy subsystem whose section asks for one device."""

    name = "devtoy"
    c_folders = ()
    gen_names = ()
    trace_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    roles: ClassVar[dict[str, str]] = {}
    reserved_app_dirs = ()

    def parse(self, raw: Any) -> tuple[Any, list[Any]]:
        return raw, []

    def check(self, section: Any, ncpus: int, roles: dict[int, str]) -> list[Any]:
        return []

    def claims(self, raw: Any) -> dict[int, str]:
        return {}

    def gen_files(self, section: Any, outdir: Path) -> dict[str, str]:
        return {}

    def tasks(self, section: Any) -> list[Any]:
        return []

    def bounds(self, section: Any) -> dict[str, Any]:
        return {}

    def render_report(self, area: Any, out: Path | None) -> None:
        return None

    def qemu_devices(self, section: Any) -> list[str]:
        return [f"partita-sched,addr={section['addr']},instances=2"]


@pytest.fixture
def devtoy(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = types.ModuleType("devtoy_subsys")
    mod.SUBSYSTEM = _Dev()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "devtoy_subsys", mod)
    monkeypatch.setitem(subsys._MODULES, "devtoy", "devtoy_subsys")


def test_without_a_device_debian_qemu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen = _fake_run(monkeypatch, tmp_path, ROOT / "tests/system/fp/sys_fp.yaml")
    assert seen["qemu"] == QEMU
    assert "-device" not in seen["extra_args"]


def test_a_device_section_picks_build_qemu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                            devtoy: None) -> None:
    cfg = tmp_path / "dev.yaml"
    cfg.write_text((ROOT / "tests/system/fp/sys_fp.yaml").read_text()
                   + "\ndevtoy: {addr: '0x10200000'}\n")
    seen = _fake_run(monkeypatch, tmp_path, cfg)
    assert seen["qemu"] == Path("/dev-qemu")
    args = seen["extra_args"]
    assert args[args.index("-device") + 1] == "partita-sched,addr=0x10200000,instances=2"


def test_sections_without_the_hook_declare_no_device() -> None:
    assert subsys.qemu_devices({}) == []
    assert subsys.qemu_devices({"cache_model": None}) == []


def test_command_names_the_binary(tmp_path: Path) -> None:
    assert command(tmp_path / "k", tmp_path / "r", 64, 1, 0)[0] == QEMU
    assert command(tmp_path / "k", tmp_path / "r", 64, 1, 0, DEVICE_QEMU)[0] == str(DEVICE_QEMU)
    assert DEVICE_QEMU == ROOT / "build/qemu/bin/qemu-system-riscv64"


def _cfg(tmp_path: Path, coproc: str) -> Path:
    cfg = tmp_path / "dev.yaml"
    cfg.write_text((ROOT / "tests/system/fp/sys_fp.yaml").read_text()
                   .replace("policy: fp", "policy: offload") + f"\ncoproc: {coproc}\n")
    return cfg


def test_coproc_backend_device_gives_its_device(tmp_path: Path) -> None:
    from partita.config import load_resolved

    r = load_resolved(_cfg(tmp_path, "[{name: cp, service: sched, backend: device, "
                                     "priority_order: high_first, clients: [fp0]}]"))
    assert subsys.qemu_devices(r.subsys) == [
        "partita-sched,addr=0x10200000,instances=1,high-first=on"]
    r = load_resolved(_cfg(tmp_path, "[{name: cp, service: sched, backend: device, "
                                     "base: 0x10300000, clients: [fp0]}]"))
    assert subsys.qemu_devices(r.subsys) == [
        "partita-sched,addr=0x10300000,instances=1,high-first=off"]


@pytest.mark.parametrize("coproc, msg", [
    ("[{name: cp, service: sched, backend: device, base: 0x10201000, clients: [fp0]}]",
     "must be 64 KiB aligned"),
    ("[{name: cp, service: sched, backend: device, base: 0x10000000, clients: [fp0]}]",
     "must be 64 KiB aligned in [0x10200000, 0x20000000)"),
    ("[{name: cp, service: sched, backend: inline, base: 0x10200000, clients: [fp0]}]",
     "`base:` is for backend device only"),
    (("[{name: cp, service: sched, backend: device, clients: [fp0]},"
      " {name: cq, service: sched, backend: device, base: 0x10200000}]"),
     "base 0x10200000 is coprocessor cp's"),
])
def test_coproc_device_placement_is_checked(tmp_path: Path, coproc: str, msg: str) -> None:
    from partita.config import ConfigError, load_resolved

    with pytest.raises(ConfigError) as e:
        load_resolved(_cfg(tmp_path, coproc))
    assert msg in str(e.value), str(e.value)
