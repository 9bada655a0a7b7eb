"""The QEMU runner on tiny bare-metal images: console capture, power-off, timeout, fresh RAM."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from partita.run.qemu import RAM_BASE, boot, command, symbol
from partita.trace.format import TraceFormatError

CC = "riscv64-unknown-elf-gcc"

HELLO = """
.option norelax          # no gp-relative addressing: gp is not set up
.globl _start
.text
_start:
  la t2, marker          # the RAM file must show what the guest wrote
  li t3, 0x1234
  sd t3, 0(t2)
  li t0, 0x10000000      # NS16550A UART
  la t1, msg
1: lbu a0, 0(t1)
  beqz a0, 2f
  sb a0, 0(t0)
  addi t1, t1, 1
  j 1b
2: li t0, 0x100000       # sifive_test: pass -> QEMU exits 0
  li t1, 0x5555
  sw t1, 0(t0)
3: j 3b
.data
msg: .asciz "hello from the guest\\n"
.balign 8
.globl marker
marker: .dword 0
"""

SPIN = ".globl _start\n.text\n_start: j _start\n"


def _elf(tmp_path: Path, name: str, src: str) -> Path:
    if shutil.which(CC) is None or shutil.which("qemu-system-riscv64") is None:
        pytest.fail("cross compiler or QEMU missing: run scripts/bootstrap.sh")
    s = tmp_path / f"{name}.S"
    s.write_text(src)
    elf = tmp_path / f"{name}.elf"
    subprocess.run([CC, "-nostdlib", "-Wl,-Ttext=0x80000000", "-o", str(elf), str(s)],
                   check=True)
    return elf


def test_command_line(tmp_path: Path) -> None:
    cmd = command(tmp_path / "k.elf", tmp_path / "ram.bin", 64, 4, 2)
    joined = " ".join(cmd)
    assert "-machine virt,memory-backend=mem" in joined
    assert f"size=64M,mem-path={tmp_path / 'ram.bin'},share=on" in joined
    assert "-icount shift=2,sleep=off" in joined and "-smp 4" in joined
    assert "-bios none" in joined and "-no-reboot" in joined


def test_boot_captures_console_and_ram(tmp_path: Path) -> None:
    elf = _elf(tmp_path, "hello", HELLO)
    ram = tmp_path / "ram.bin"
    ram.write_bytes(b"\xff" * 4096)  # stale content must not survive
    log = tmp_path / "console.log"
    r = boot(elf, ram, ram_mb=16, ncpus=1, icount_shift=0, timeout_s=30, console_file=log)
    assert r.clean, r
    assert "hello from the guest" in r.console
    assert log.read_text() == r.console
    assert ram.stat().st_size == 16 * 1024 * 1024
    addr, _ = symbol(elf, "marker")
    with open(ram, "rb") as f:
        assert f.read(8) != b"\xff" * 8
        f.seek(addr - RAM_BASE)
        assert int.from_bytes(f.read(8), "little") == 0x1234


def test_boot_timeout_kills_the_guest(tmp_path: Path) -> None:
    elf = _elf(tmp_path, "spin", SPIN)
    r = boot(elf, tmp_path / "ram.bin", ram_mb=16, ncpus=1, icount_shift=0, timeout_s=1.5)
    assert r.timed_out and not r.clean
    assert r.wall_s < 15


def test_symbol_missing(tmp_path: Path) -> None:
    elf = _elf(tmp_path, "spin", SPIN)
    with pytest.raises(TraceFormatError, match="pt_trace_area"):
        symbol(elf, "pt_trace_area")
