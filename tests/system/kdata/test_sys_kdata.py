"""Kernel-data coloring in QEMU (kd_colored.yaml, kd_uncolored.yaml, kd_app.c): after the run,
the kernel's page tables are walked from the RAM file and every page of kernel data is located:
the kernel data window (thread control blocks, per-cpu data, scheduler instances, sync pools,
heap bookkeeping), every page-table page reachable from the kernel's and the user partitions'
roots, the kernel stacks of idle and user threads and the system heap. With `kernel_data:
colored` all of them lie in kernel_colors (0-1); with `uncolored` they spread over colors
outside them (scenario S2) while the partitions' own pages keep their colors. Kernel threads'
stacks are their own data: in their partition's colors in both modes."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import sv39
from partita.run.qemu import symbol
from partita.run.run import RunResult, gate, run_config
from partita.trace.format import DIR_HEADER, DIR_OFF, RING_PAGES, RINGS_MAGIC
from sv39 import PTE_LEAF, PTE_V, u64

HERE = Path(__file__).parent
KERNEL_COLORS = {0, 1}
NCOLORS = 8
KSTACK_VA, SLOT_BYTES, MAX_THREADS = 0xC0000000, 65536, 128  # kernel/core/kernel.h, limits.h
HEAP_KVA = 0xC0000000 + 0x20000000  # kernel/core/heaps.c: the system heap (no kernel heaps here)
KDATA_VA = 0xD0000000  # HAL_KDATA_VA
KTRACE_VA = 0xDF000000  # HAL_KTRACE_VA: the trace rings in kernel-color pages
PART_AS_OFFSET, MAX_PARTITIONS = 16, 16  # struct pt_partition: ..., hal_as_t as


def color(pa: int) -> int:
    return (pa >> 12) % NCOLORS


def walk(ram: bytes, root: int, va: int) -> int | None:
    """Physical address of va in the Sv39 table at root, None if unmapped."""
    r = sv39.walk(ram, root, va)
    return None if r is None else r[0]


def table_pages(ram: bytes, root: int, level: int = 2) -> set[int]:
    """Every page-table page of the tree at root (root included)."""
    out = {root}
    if level == 0:
        return out
    for i in range(512):
        pte = u64(ram, root + i * 8)
        if pte & PTE_V and not pte & PTE_LEAF:
            out |= table_pages(ram, (pte >> 10) << 12, level - 1)
    return out


@dataclass
class Placement:
    """Colors of the pages of each kind of kernel data (page counts in `pages`)."""

    colors: dict[str, set[int]] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    stacks: dict[str, set[int]] = field(default_factory=dict)  # kernel-thread stacks by name

    def add(self, kind: str, pa: int) -> None:
        self.colors.setdefault(kind, set()).add(color(pa))
        self.pages[kind] = self.pages.get(kind, 0) + 1


def placement(r: RunResult) -> Placement:
    elf, ram = r.build.elf, r.build.ram_file.read_bytes()
    kroot = u64(ram, symbol(elf, "kroot")[0])
    out = Placement()
    start, end = symbol(elf, "__kdata_start")[0], symbol(elf, "__kdata_end")[0]
    assert start == KDATA_VA and end > start
    for va in range(start, end, 4096):
        pa = walk(ram, kroot, va)
        assert pa is not None, f"kernel data window page {va:#x} unmapped"
        out.add("window", pa)
    for name, kind in (("pt_threads", "tcbs"), ("pt_cpus", "per-cpu"), ("pt_scheds", "scheds")):
        addr, size = symbol(elf, name)
        assert start <= addr and addr + size <= end, f"{name} not in the kernel data window"
        for va in range(addr & ~0xFFF, addr + size, 4096):
            pa = walk(ram, kroot, va)
            assert pa is not None
            out.add(kind, pa)
    # page tables: the kernel's tree and every user partition's
    roots = {kroot}
    parts, psize = symbol(elf, "pt_partitions")
    for i, p in enumerate(r.build.system.partitions):
        satp = u64(ram, parts + i * (psize // MAX_PARTITIONS) + PART_AS_OFFSET)
        if p.user:
            roots.add((satp & ((1 << 44) - 1)) << 12)
    for pa in set().union(*(table_pages(ram, root) for root in roots)):
        out.add("page tables", pa)
    # kernel stacks by slot (tid = slot + 1 at boot; idle threads take slots 0..ncpus-1)
    assert r.timeline is not None
    names = r.timeline.names
    user = {t.name for t in r.build.system.threads if r.build.system.partitions[t.partition].user}
    for slot in range(MAX_THREADS):
        name = "idle" if slot < r.build.system.ncpus else names.get(slot + 1)
        pas = [pa for off in range(0, SLOT_BYTES, 4096)
               if (pa := walk(ram, kroot, KSTACK_VA + slot * SLOT_BYTES + off)) is not None]
        if not pas:
            continue
        assert name is not None, f"kernel stack slot {slot} mapped, but no thread has it"
        for pa in pas:
            if name == "idle" or name in user:
                out.add("kernel stacks", pa)
            else:
                out.stacks.setdefault(name, set()).add(color(pa))
    # the trace rings: with colored kernel data, pages listed in the area's directory and
    # mapped at HAL_KTRACE_VA one ring after the other
    area = symbol(elf, "pt_trace_area")[0]
    if u64(ram, area + DIR_OFF) == RINGS_MAGIC:
        for cpu in range(r.build.system.ncpus):
            for k in range(RING_PAGES):
                pa = u64(ram, area + DIR_OFF + DIR_HEADER.itemsize + (cpu * RING_PAGES + k) * 8)
                va = KTRACE_VA + (cpu * RING_PAGES + k) * 4096
                assert walk(ram, kroot, va) == pa, f"ring {cpu} page {k}: {va:#x} not at {pa:#x}"
                out.add("trace rings", pa)
    for off in range(0, 8 * 16384, 4096):  # the system heap: at most 8 colors x 16 KiB
        pa = walk(ram, kroot, HEAP_KVA + off)
        if pa is not None:
            out.add("system heap", pa)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, RunResult]:
    base = tmp_path_factory.mktemp("kdata")
    out = {}
    for mode in ("colored", "uncolored"):
        r = run_config(HERE / f"kd_{mode}.yaml", base / mode, png=False, bounds=False)
        assert r.ok and not gate(r), r.describe()
        out[mode] = r
    return out


KINDS = ("window", "tcbs", "per-cpu", "scheds", "page tables", "kernel stacks")


def test_colored_kernel_data_lies_in_the_kernel_colors(runs: dict[str, RunResult]) -> None:
    pl = placement(runs["colored"])
    for kind in (*KINDS, "trace rings"):
        assert pl.pages.get(kind), f"no page of {kind} found"
        assert pl.colors[kind] <= KERNEL_COLORS, (kind, pl.colors[kind])
    # both kernel colors are used (pages go round-robin over them)
    assert pl.colors["window"] == KERNEL_COLORS and pl.colors["page tables"] == KERNEL_COLORS
    # 2 idle threads x 1 page + 2 user threads x 2 pages (8 KiB trap stacks)
    assert pl.pages["kernel stacks"] == 2 + 2 * 2, pl.pages
    assert pl.colors.get("system heap", set()) <= KERNEL_COLORS
    # every online hart's ring moved: 257 pages each, over both kernel colors
    assert pl.pages["trace rings"] == runs["colored"].build.system.ncpus * RING_PAGES
    assert pl.colors["trace rings"] == KERNEL_COLORS
    # and the trace read through the directory is the run's whole trace
    assert runs["colored"].timeline is not None and runs["colored"].timeline.jobs


def test_uncolored_kernel_data_spreads_over_every_color(runs: dict[str, RunResult]) -> None:
    pl = placement(runs["uncolored"])
    assert "trace rings" not in pl.pages  # the image's rings, which span every color
    for kind in KINDS:
        assert pl.pages.get(kind), f"no page of {kind} found"
    # the window (> 100 pages) and the page tables take pages round-robin over all 8 colors
    assert pl.colors["window"] == set(range(NCOLORS)), pl.colors["window"]
    assert pl.colors["page tables"] - KERNEL_COLORS, pl.colors["page tables"]
    assert pl.colors["tcbs"] - KERNEL_COLORS and pl.colors["kernel stacks"] - KERNEL_COLORS


def test_kernel_threads_stacks_keep_their_partitions_colors(
        runs: dict[str, RunResult]) -> None:
    for mode in ("colored", "uncolored"):
        pl = placement(runs[mode])
        assert set(pl.stacks) == {"k0", "s1"}, (mode, pl.stacks)
        assert pl.stacks["k0"] <= {5, 6} and pl.stacks["s1"] == {7}, (mode, pl.stacks)


def test_system_heap_has_one_heap_per_kernel_data_color(runs: dict[str, RunResult]) -> None:
    for mode, n in (("colored", 2), ("uncolored", NCOLORS)):
        m = re.search(r"^heap: kernel, (\d+) colors x 16 KiB", runs[mode].boot.console,
                      re.MULTILINE)
        assert m and int(m.group(1)) == n, (mode, runs[mode].boot.console[-1500:])


def test_partitions_keep_their_colors_in_both_modes(runs: dict[str, RunResult]) -> None:
    """Only kernel data moves: the user partition's private data pages stay in 2-4."""
    for mode in ("colored", "uncolored"):
        r = runs[mode]
        ram = r.build.ram_file.read_bytes()
        parts, psize = symbol(r.build.elf, "pt_partitions")
        i = next(i for i, p in enumerate(r.build.system.partitions) if p.name == "up")
        satp = u64(ram, parts + i * (psize // MAX_PARTITIONS) + PART_AS_OFFSET)
        root = (satp & ((1 << 44) - 1)) << 12
        lo, hi = symbol(r.build.elf, "__user_private_start")[0], symbol(r.build.elf, "__user_end")[0]
        got = {color(pa) for va in range(lo, hi, 4096) if (pa := walk(ram, root, va))}
        assert got and got <= {2, 3, 4}, (mode, got)


def test_window_fits_the_bound_partita_config_assumes(runs: dict[str, RunResult]) -> None:
    from partita.config.checks import KDATA_WINDOW_PAGES

    r = runs["colored"]
    m = re.search(r"^kdata: (\d+) pages at d0000000$", r.boot.console, re.MULTILINE)
    start, end = symbol(r.build.elf, "__kdata_start")[0], symbol(r.build.elf, "__kdata_end")[0]
    assert m and int(m.group(1)) == (end - start) // 4096 <= KDATA_WINDOW_PAGES


def test_config_colors_shows_the_kernel_and_its_data_mode() -> None:
    exe = Path(sys.executable).parent / "partita"
    for mode, note in (("colored", "kernel data colored"),
                       ("uncolored", "kernel data uncolored: on every color")):
        out = subprocess.run([str(exe), "config", str(HERE / f"kd_{mode}.yaml"), "--colors"],
                             capture_output=True, text=True, check=True).stdout
        line = next(ln for ln in out.splitlines() if ln.strip().startswith("kernel"))
        assert "0-1" in line and note in line, out
