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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from struct import error as struct_error

import numpy as np

from partita.trace.format import (
    AREA_BYTES,
    AREA_HEADER,
    COUNTERS_BYTES,
    DIR_BYTES,
    DIR_HEADER,
    DIR_OFF,
    MAGIC,
    MAX_CPUS,
    PAGE_BYTES,
    REC,
    RING_BYTES,
    RING_HEADER,
    RING_PAGES,
    RING_RECORDS,
    RINGS_MAGIC,
    Area,
    TraceFormatError,
    decode_area,
)

RAM_BASE = 0x80000000
QEMU = "qemu-system-riscv64"  # Debian's qemu-system-misc: every configuration without a device
_ROOT = Path(__file__).resolve().parents[3]  # the repository (tools/partita/run/qemu.py)
# QEMU 7.2 built from Debian's source with Partita's device models (scripts/qemu-dev.sh,
# docs/devices.md); used only by configurations that declare an emulated device.
DEVICE_QEMU = _ROOT / "build" / "qemu" / "bin" / "qemu-system-riscv64"


class DeviceQemuError(Exception):
    """build/qemu could not be built (the message says why and where the log is)."""


def device_qemu(quiet: bool = False) -> Path:
    """The QEMU with Partita's device models, built first if it is missing or older than the
    device sources (scripts/qemu-dev.sh: returns at once when fresh; a cold build takes tens of
    minutes, see docs/devices.md)."""
    script = _ROOT / "scripts" / "qemu-dev.sh"
    r = subprocess.run([str(script)], cwd=_ROOT, text=True,
                       stdout=subprocess.PIPE if quiet else None, stderr=subprocess.PIPE)
    if r.returncode != 0 or not DEVICE_QEMU.is_file():
        raise DeviceQemuError(f"{script} failed (exit {r.returncode}): "
                              f"{(r.stderr or '').strip()[-2000:]}")
    return DEVICE_QEMU


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


def command(elf: Path, ram_file: Path, ram_mb: int, ncpus: int, icount_shift: int,
            qemu: str | Path = QEMU) -> list[str]:
    return [
        str(qemu), "-machine", "virt,memory-backend=mem",
        "-object", f"memory-backend-file,id=mem,size={ram_mb}M,mem-path={ram_file},share=on",
        "-bios", "none", "-kernel", str(elf), "-smp", str(ncpus),
        "-icount", f"shift={icount_shift},sleep=off",
        # the RTC (goldfish, a PLIC interrupt source: docs/interrupts.md) on the virtual clock
        # from a fixed date, so its alarms are as deterministic as the rest of the run
        "-rtc", "clock=vm,base=2000-01-01T00:00:00",
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
         poll: Callable[[], None] | None = None, poll_s: float = 0.02,
         extra_args: list[str] | None = None, qemu: str | Path = QEMU,
         on_start: Callable[[], None] | None = None) -> BootResult:
    """Run QEMU until the guest powers off or `timeout_s` wall-clock seconds pass (None: no
    limit, for a debugging session). `poll` (e.g. TraceDrainer.poll) is called every `poll_s`
    seconds while the guest runs; `on_start` once, right after QEMU started (the RAM file is
    this boot's from then on). `qemu`: the binary (DEVICE_QEMU for emulated devices)."""
    if shutil.which(str(qemu)) is None:
        raise FileNotFoundError(f"{qemu} not found (run scripts/bootstrap.sh"
                                f"{'' if qemu == QEMU else ', make qemu-dev'})")
    _fresh_ram(ram_file, ram_mb)
    cmd = command(elf, ram_file, ram_mb, ncpus, icount_shift, qemu) + list(extra_args or [])
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    if on_start is not None:
        on_start()
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
    deadline = start + timeout_s if timeout_s is not None else float("inf")
    while True:
        try:
            proc.wait(timeout=poll_s if poll is not None else max(0.0, deadline - time.monotonic()))
            break
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                timed_out = True
                proc.kill()
                proc.wait()
                break
            if poll is not None:
                poll()
    reader.join(timeout=5)
    console = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    if console_file is not None:
        console_file.parent.mkdir(parents=True, exist_ok=True)
        console_file.write_text(console)
    return BootResult(proc.returncode, timed_out, console, time.monotonic() - start, cmd)


def symbol(elf: Path, name: str) -> tuple[int, int]:
    """(address, size) of a symbol in the ELF symbol table. A file that is not a readable ELF
    is a TraceFormatError naming it (never an elftools traceback)."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    try:
        with open(elf, "rb") as f:
            ef = ELFFile(f)
            for sec in ef.iter_sections():
                if isinstance(sec, SymbolTableSection):
                    syms = sec.get_symbol_by_name(name)
                    if syms:
                        return int(syms[0]["st_value"]), int(syms[0]["st_size"])
    except (ELFError, ValueError, KeyError, IndexError, struct_error) as e:
        raise TraceFormatError(f"{elf}: not a readable ELF file ({e})") from None
    raise TraceFormatError(f"{elf}: symbol {name} not found (not a Partita kernel?)")


def ring_pages(m: mmap.mmap | bytes, off: int, sym_size: int, what: str) -> np.ndarray | None:
    """The ring directory (kernel/include/partita/trace.h): for each hart the RAM-file offset
    of every page of its ring, when the kernel moved the rings into colored pages; else None
    (the rings are the ones inside the area)."""
    if sym_size < DIR_OFF + DIR_BYTES or off + DIR_OFF + DIR_BYTES > len(m):
        return None
    raw = np.frombuffer(m, dtype=np.uint8, count=DIR_BYTES, offset=off + DIR_OFF)
    hdr = raw[: DIR_HEADER.itemsize].view(DIR_HEADER)[0]
    if int(hdr["rings_magic"]) != RINGS_MAGIC:
        return None
    if int(hdr["ring_pages"]) != RING_PAGES or int(hdr["ring_page_bytes"]) != PAGE_BYTES:
        raise TraceFormatError(f"{what}: ring directory of {int(hdr['ring_pages'])} pages of "
                               f"{int(hdr['ring_page_bytes'])} bytes differs from tracefmt.py "
                               f"({RING_PAGES} x {PAGE_BYTES})")
    pa = raw[DIR_HEADER.itemsize:].view("<u8").reshape(MAX_CPUS, RING_PAGES).astype(np.int64)
    return pa - RAM_BASE


def _gather_ring(m: mmap.mmap | bytes, pages: np.ndarray, cpu: int, what: str) -> bytes:
    """One ring's bytes, in the in-area layout, from its pages in the RAM file."""
    offs = pages[cpu]
    if (offs < 0).any() or (offs + PAGE_BYTES > len(m)).any():
        raise TraceFormatError(f"{what}: ring {cpu}: a page of the directory lies outside the "
                               "RAM file")
    return b"".join(m[o: o + PAGE_BYTES] for o in offs.tolist())[:RING_BYTES]


def read_trace_area(ram_file: Path, elf: Path) -> Area:
    """Decode the trace rings (and the kernel's counters, when the kernel has them) from the
    RAM file of a finished (or running) guest; rings in colored pages are gathered through the
    area's directory."""
    addr, sym_size = symbol(elf, "pt_trace_area")
    off = addr - RAM_BASE
    size = os.path.getsize(ram_file)
    if off < 0 or off + AREA_BYTES > size:
        raise TraceFormatError(f"{ram_file}: pt_trace_area at 0x{addr:x} lies outside the "
                               f"{size}-byte RAM file")
    want = AREA_BYTES + (COUNTERS_BYTES if sym_size >= AREA_BYTES + COUNTERS_BYTES else 0)
    want = min(want, size - off)
    with open(ram_file, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        buf = bytearray(m[off: off + want])
        pages = ring_pages(m, off, sym_size, str(ram_file))
        if pages is not None:
            ncpus = min(int(np.frombuffer(buf, dtype=AREA_HEADER, count=1)[0]["ncpus"]),
                        MAX_CPUS)
            for cpu in range(ncpus):
                base = AREA_HEADER.itemsize + cpu * RING_BYTES
                buf[base: base + RING_BYTES] = _gather_ring(m, pages, cpu, str(ram_file))
        return decode_area(buf, what=str(ram_file))


class TraceDrainer:
    """Empties the guest's trace rings while it runs, through the shared RAM file: copies the
    records [tail, head) of each ring and advances the ring's `tail` (the kernel's producer
    treats the ring as full only when head - tail reaches its size), so runs of any length
    lose nothing as long as the host keeps up. `area()` then joins the drained records with
    what is left in RAM."""

    def __init__(self, ram_file: Path, elf: Path) -> None:
        self.ram_file, self.elf = ram_file, elf
        addr, self.sym_size = symbol(elf, "pt_trace_area")
        self.off = addr - RAM_BASE
        self.drained: dict[int, list[np.ndarray]] = {}
        self.count = 0  # records drained so far
        self.max_backlog = 0  # the fullest a ring was found, in records

    def poll(self) -> None:
        """One pass over the rings (cheap: a few header reads when nothing is new)."""
        try:
            f = open(self.ram_file, "r+b")
        except OSError:
            return
        with f:
            try:
                m = mmap.mmap(f.fileno(), 0)
            except ValueError:  # empty file: QEMU not up yet
                return
            try:
                self._drain(m)
            finally:
                m.close()

    def _drain(self, m: mmap.mmap) -> None:
        if self.off < 0 or self.off + AREA_BYTES > len(m):
            return
        raw = np.frombuffer(m, dtype=np.uint8, count=AREA_BYTES, offset=self.off)
        hdr = raw[: AREA_HEADER.itemsize].view(AREA_HEADER)[0]
        if int(hdr["magic"]) != MAGIC:
            return  # not initialised yet (the kernel zeroes head and tail first)
        pages = ring_pages(m, self.off, self.sym_size, str(self.ram_file))
        whole = np.frombuffer(m, dtype=np.uint8)
        for cpu in range(min(int(hdr["ncpus"]), MAX_CPUS)):
            # the ring's header, and the file offset of byte k of the ring
            if pages is None:
                start = self.off + AREA_HEADER.itemsize + cpu * RING_BYTES

                def at(k: np.ndarray | int, start: int = start) -> np.ndarray | int:
                    return start + k
            else:
                offs = pages[cpu]

                def at(k: np.ndarray | int, offs: np.ndarray = offs) -> np.ndarray | int:
                    return offs[k // PAGE_BYTES] + k % PAGE_BYTES
            h0 = int(at(0))
            rh = whole[h0: h0 + RING_HEADER.itemsize].view(RING_HEADER)
            head, tail = int(rh[0]["head"]), int(rh[0]["tail"])
            n = head - tail
            if n <= 0 or n > RING_RECORDS:
                continue
            self.max_backlog = max(self.max_backlog, n)
            idx = (np.arange(n, dtype=np.int64) + tail % RING_RECORDS) % RING_RECORDS
            # byte offsets of each record's 32 bytes (a record never straddles a page)
            first = np.asarray(at(RING_HEADER.itemsize + idx * REC.itemsize))
            rows = whole[first[:, None] + np.arange(REC.itemsize)]
            self.drained.setdefault(cpu, []).append(rows.copy().view(REC).reshape(n))
            self.count += n
            # the copy is complete before the producer may reuse the slots
            tail_view = np.frombuffer(m, dtype=np.uint64, count=1, offset=h0 + 16)
            tail_view[0] = head
        del raw, whole

    def area(self) -> Area:
        """The whole trace: drained records, then those still in the rings."""
        area = read_trace_area(self.ram_file, self.elf)
        for ring in area.rings:
            parts = self.drained.get(ring.cpu, [])
            if parts:
                ring.records = np.concatenate([*parts, ring.records])
                ring.tail = 0
        return area
