"""The QEMU built with Partita's device models (scripts/qemu-dev.sh, build/qemu/) and its
scheduler-coprocessor device (platform/qemu-virt/devices/partita-sched.c, docs/devices.md).

A bare-metal probe (probe.c) drives every register of the device and checks each answer against
a reference model of the documented register map: errors, 64 threads on equal priorities, FIFO
and round robin among equals, both priority orders, two independent instances, 6000 random
commands; and that a command or a NEXT read costs the guest exactly one store / load under
icount. The fixture builds build/qemu first if it is missing or stale (tens of minutes cold).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from partita.run.qemu import QEMU, device_qemu

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BASE = 0x10200000


@pytest.fixture(scope="module")
def qemu() -> Path:
    return device_qemu(quiet=True)


def _bare_metal(out: Path, *sources: Path) -> Path:
    """A bare-metal image of start.S + `sources` (M-mode, hart 0, at the start of RAM)."""
    subprocess.run(["riscv64-unknown-elf-gcc", "-march=rv64imac_zicsr_zifencei", "-mabi=lp64",
                    "-mcmodel=medany", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                    "-ffreestanding", "-nostdlib", "-Wl,--no-warn-rwx-segments",
                    f"-I{ROOT / 'kernel/include'}", f"-I{ROOT / 'kernel/sched/offload'}",
                    "-T", str(HERE / "probe.ld"), "-o", str(out), str(HERE / "start.S"),
                    *map(str, sources)], check=True)
    return out


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _bare_metal(tmp_path_factory.mktemp("probe") / "probe.elf", HERE / "probe.c")


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """backend.c with the coprocessor runtime, both back ends and the scheduler service."""
    return _bare_metal(tmp_path_factory.mktemp("backend") / "backend.elf",
                       HERE / "backend.c", *(ROOT / f for f in (
                           "subsys/coproc/coproc.c", "subsys/coproc/coproc_device.c",
                           "kernel/svc/ring.c", "kernel/svc/lock.c",
                           "kernel/sched/offload/schedsvc.c")))


def boot(qemu: str | Path, elf: Path, *device: str, shift: int = 0) -> subprocess.CompletedProcess:
    cmd = [str(qemu), "-machine", "virt", "-bios", "none", "-kernel", str(elf), "-smp", "1",
           "-icount", f"shift={shift},sleep=off", "-nographic", "-no-reboot", "-m", "64M"]
    for d in device:
        cmd += ["-device", d]
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("shift", [0, 3])
def test_probe(qemu: Path, probe: Path, shift: int) -> None:
    r = boot(qemu, probe, f"partita-sched,addr={BASE:#x},instances=2", shift=shift)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "probe: PASS" in out, out
    m = re.search(r"16 NEXT loads (\d+) cycles, 16 RAM loads (\d+); 16 commands (\d+), "
                  r"16 RAM stores (\d+)", out)
    assert m, out
    # mcycle under icount counts 2^shift per instruction: 16 accesses + the counter read
    assert int(m[1]) == int(m[2]) == int(m[3]) == int(m[4]) == 17 << shift


def test_probe_fails_without_the_device(qemu: Path, probe: Path) -> None:
    """The probe can fail: with the device absent its first check does (the reads of an
    unmapped address return 0)."""
    r = boot(qemu, probe)
    assert r.returncode != 0 and "probe: FAIL" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("dev, why", [
    ("partita-sched,addr=0x10000000", "overlaps"),        # the UART
    ("partita-sched,addr=0x10201000", "64 KiB aligned"),
    ("partita-sched,instances=17", "instances=17"),
])
def test_bad_placement_is_refused(qemu: Path, probe: Path, dev: str, why: str) -> None:
    r = boot(qemu, probe, dev)
    assert r.returncode != 0 and why in r.stderr, r.stderr


def test_two_devices(qemu: Path, probe: Path) -> None:
    """A second device elsewhere does not disturb the first (the probe checks the first)."""
    r = boot(qemu, probe, f"partita-sched,addr={BASE:#x},instances=2",
             "partita-sched,addr=0x10300000")
    assert r.returncode == 0 and "probe: PASS" in r.stdout, r.stdout + r.stderr


def test_device_back_end_answers_as_the_service(qemu: Path, backend: Path) -> None:
    """The coproc back end `device` (subsys/coproc/coproc_device.c) gives the same replies and
    published words as the scheduler service (schedsvc.c, inline back end) for 8000 random
    requests in both priority orders, with and without replies (backend.c)."""
    r = boot(qemu, backend, f"partita-sched,addr={BASE:#x},instances=2")
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "backend: PASS" in out, out
    m = re.search(r"non-blocking post: device (\d+), inline service (\d+)", out)
    assert m and int(m[1]) < int(m[2]), out


def test_debian_qemu_has_no_device() -> None:
    """The device exists only in build/qemu: Debian's binary stays what every other
    configuration runs on."""
    r = subprocess.run([QEMU, "-device", "help"], capture_output=True, text=True, timeout=60,
                       check=False)
    assert "partita-sched" not in r.stdout + r.stderr
