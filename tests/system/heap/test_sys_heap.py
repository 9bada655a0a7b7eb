"""Colored heaps in QEMU (heap_test.c, heap.yaml): OS-centric
user and kernel threads, a user-centric user thread; bad colors, exhaustion, double and foreign
frees refused with the right code and a PT_EV_HEAP_ERROR record; and, from the RAM file after
the run, every page mapped in any heap window walked through the partition's page table to a
physical page of exactly that heap's color."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from partita.run.qemu import symbol
from partita.run.run import RunResult
from partita.trace.format import Ev
from sv39 import u64, walk

CFG = Path(__file__).resolve().parent / "heap.yaml"
HEAP_UVA = 0x100000000 + 0x18000000  # kernel/core/heaps.c
HEAP_KVA = 0xC0000000 + 0x20000000
PART_AS_OFFSET = 16  # struct pt_partition: cfg, id, user, fault_policy, then hal_as_t as
PTE_V, PTE_U, PTE_LEAF = 0x1, 0x10, 0xE
# <partita/heap.h>
ECOLOR, ENOTOWNED, ENOMEM, EFOREIGN, EDOUBLEFREE, EOVERFLOW, EHEAPMODE = 20, 21, 22, 23, 24, 25, 27


def run(boot: Callable[..., RunResult]) -> RunResult:
    return boot(str(CFG))


def test_every_heap_check_passes(boot: Callable[..., RunResult]) -> None:
    console = run(boot).boot.console
    fails = [ln for ln in console.splitlines() if ln.startswith("heap: FAIL")]
    assert not fails, fails
    oks = re.findall(r"^heap: ok (\w+)$", console, re.MULTILINE)
    # two OS-centric user threads and one kernel thread run os_round; one user-centric thread
    assert oks.count("os_user_blocks") == 2 and oks.count("os_kernel_blocks") == 1
    assert oks.count("os_refuses_malloc_color") == 3 and oks.count("calloc_zeroed") == 3
    for name in ("not_owned", "bad_color", "exhausted_after_16", "double_free",
                 "foreign_free", "inside_free", "realloc", "user_refuses_malloc"):
        assert name in oks, (name, console[-2000:])
    assert "heap: user done" in console


def test_os_centric_color_is_thread_id_mod_colors(boot: Callable[..., RunResult]) -> None:
    r = run(boot)
    colors = {p.name: sorted(p.colors) for p in r.build.system.partitions}
    blocks = re.findall(r"^heap: blk part=(\w+) va=(\d+) color=(-?\d+) tid=(\d+)$",
                        r.boot.console, re.MULTILINE)
    assert len(blocks) >= 30
    seen = set()
    for part, _va, color, tid in blocks:
        if part in ("osp", "ksp"):
            own = colors[part]
            assert int(color) == own[int(tid) % len(own)], (part, tid, color)
            seen.add((part, int(color)))
    assert {c for p, c in seen if p == "osp"} == {1, 2}  # two threads, two colors


def test_every_heap_page_is_of_its_heaps_color(boot: Callable[..., RunResult]) -> None:
    r = run(boot)
    system = r.build.system
    ram = r.build.ram_file.read_bytes()
    ncolors = system.cache.colors
    parts_addr, parts_size = symbol(r.build.elf, "pt_partitions")
    stride = parts_size // 16  # PT_MAX_PARTITIONS
    kroot = u64(ram, symbol(r.build.elf, "kroot")[0])
    kva = HEAP_KVA
    mapped: dict[str, int] = {}
    roots: dict[str, int] = {}
    for i, p in enumerate(system.partitions):
        satp = u64(ram, parts_addr + i * stride + PART_AS_OFFSET)
        if p.user:
            assert satp >> 60 == 8 and (satp >> 44) & 0xFFFF == i + 1  # Sv39, asid i + 1
            roots[p.name] = (satp & ((1 << 44) - 1)) << 12
        else:
            assert satp == 0
            roots[p.name] = kroot
        if p.heap_mode == "none":
            continue
        base = HEAP_UVA if p.user else kva
        span = p.heap_color_bytes
        if not p.user:
            kva += len(p.colors) * span
        n = 0
        for k, color in enumerate(sorted(p.colors)):
            for off in range(0, span, 4096):
                got = walk(ram, roots[p.name], base + k * span + off)
                if got is None:
                    continue
                pa, pte = got
                assert (pa >> 12) % ncolors == color, (p.name, hex(base + k * span + off))
                assert bool(pte & PTE_U) == p.user  # user heaps U, kernel heaps S-only
                n += 1
        mapped[p.name] = n
    assert mapped["osp"] >= 16 and mapped["usp"] >= 16 + 3 and mapped["ksp"] >= 8, mapped
    # the blocks the guest printed: walked to a page of the color it reported, and owned
    for part, va, color, _tid in re.findall(
            r"^heap: blk part=(\w+) va=(\d+) color=(-?\d+) tid=(\d+)$", r.boot.console,
            re.MULTILINE):
        got = walk(ram, roots[part], int(va))
        assert got is not None
        assert (got[0] >> 12) % ncolors == int(color)
        assert int(color) in next(p.colors for p in system.partitions if p.name == part)


def test_refusals_are_traced(boot: Callable[..., RunResult]) -> None:
    r = run(boot)
    assert r.area is not None
    recs = r.area.merged()
    heap = recs[recs["type"] == Ev.HEAP_ERROR]
    codes = [int(a) & 0xFF for a in heap["arg0"]]
    colors = {int(a) & 0xFF: (int(a) >> 16) & 0xFFFF for a in heap["arg0"]}
    for code in (ECOLOR, ENOTOWNED, ENOMEM, EFOREIGN, EDOUBLEFREE, EOVERFLOW, EHEAPMODE):
        assert code in codes, (code, codes)
    assert colors[ENOTOWNED] == 1 and colors[ENOMEM] == 5  # the color asked for
    # exactly the refusals the guest made: 3 x (malloc_color in os mode, calloc overflow),
    # and the user thread's 9 (not owned, 2 bad colors, mode, exhausted, double, inside,
    # foreign, the old block after realloc)
    assert len(heap) == 3 * 2 + 9, codes
