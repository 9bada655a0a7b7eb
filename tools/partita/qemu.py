"""Boot a Partita image under QEMU (riscv64 virt, icount) and read its trace from guest RAM.

Guest RAM is a shared file (memory-backend-file, share=on): after QEMU exits, the host maps the
file and finds `pt_trace_area` through the ELF symbol table. RAM starts at guest physical
0x80000000, which is offset 0 of the file.
"""

from __future__ import annotations

import mmap
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from partita.tracefmt import AREA_BYTES, Area, decode_area

RAM_BASE = 0x80000000
QEMU = "qemu-system-riscv64"


@dataclass
class BootResult:
    returncode: int
    timed_out: bool
    console: str
    wall_s: float
    command: list[str]

    @property
    def clean(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def command(elf: Path, ram_file: Path, ram_mb: int, ncpus: int, icount_shift: int) -> list[str]:
    return [
        QEMU, "-machine", "virt,memory-backend=mem",
        "-object", f"memory-backend-file,id=mem,size={ram_mb}M,mem-path={ram_file},share=on",
        "-bios", "none", "-kernel", str(elf), "-smp", str(ncpus),
        "-icount", f"shift={icount_shift},sleep=off",
        "-nographic", "-no-reboot",
    ]


def _fresh_ram(ram_file: Path, ram_mb: int) -> None:
    """A zero-filled (sparse) RAM file, so no byte of a previous run can leak into this one."""
    ram_file.parent.mkdir(parents=True, exist_ok=True)
    ram_file.unlink(missing_ok=True)
    with open(ram_file, "wb") as f:
        f.truncate(ram_mb * 1024 * 1024)


def gdb_args(port: int) -> list[str]:
    """QEMU halted before the first instruction, its gdb stub on localhost:`port`; every hart
    is one gdb thread (`info threads`, `thread N`)."""
    return ["-gdb", f"tcp:127.0.0.1:{port}", "-S"]


def gdb_command(elf: Path, port: int) -> list[str]:
    """The gdb-multiarch command line that attaches to `gdb_args(port)` with symbols."""
    return ["gdb-multiarch", "-q", str(elf), "-ex", "set architecture riscv:rv64",
            "-ex", f"target remote 127.0.0.1:{port}"]


def boot(elf: Path, ram_file: Path, *, ram_mb: int, ncpus: int, icount_shift: int,
         timeout_s: float | None, console_file: Path | None = None, echo: bool = False,
         extra_args: list[str] | None = None) -> BootResult:
    """Run QEMU until the guest powers off or `timeout_s` wall-clock seconds pass (None: no
    limit, for a debugging session)."""
    if shutil.which(QEMU) is None:
        raise FileNotFoundError(f"{QEMU} not found (run scripts/bootstrap.sh)")
    _fresh_ram(ram_file, ram_mb)
    cmd = command(elf, ram_file, ram_mb, ncpus, icount_shift) + list(extra_args or [])
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    chunks: list[bytes] = []

    def pump() -> None:
        assert proc.stdout is not None
        for line in iter(proc.stdout.readline, b""):
            chunks.append(line)
            if echo:
                sys.stdout.write(line.decode("utf-8", "replace"))
                sys.stdout.flush()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        proc.kill()
        proc.wait()
    reader.join(timeout=5)
    console = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    if console_file is not None:
        console_file.parent.mkdir(parents=True, exist_ok=True)
        console_file.write_text(console)
    return BootResult(proc.returncode, timed_out, console, time.monotonic() - start, cmd)


def symbol(elf: Path, name: str) -> tuple[int, int]:
    """(address, size) of a symbol in the ELF symbol table."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    with open(elf, "rb") as f:
        ef = ELFFile(f)
        for sec in ef.iter_sections():
            if isinstance(sec, SymbolTableSection):
                syms = sec.get_symbol_by_name(name)
                if syms:
                    return int(syms[0]["st_value"]), int(syms[0]["st_size"])
    raise KeyError(f"symbol {name} not found in {elf}")


def read_trace_area(ram_file: Path, elf: Path) -> Area:
    """Decode the trace rings from the RAM file of a finished (or running) guest."""
    addr, _ = symbol(elf, "pt_trace_area")
    off = addr - RAM_BASE
    size = os.path.getsize(ram_file)
    if off < 0 or off + AREA_BYTES > size:
        raise ValueError(f"pt_trace_area at 0x{addr:x} lies outside the {size}-byte RAM file")
    with open(ram_file, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return decode_area(m[off: off + AREA_BYTES])
