"""Reading a guest's Sv39 page tables from its RAM file (shared by the tests that check where
pages live: tests/system/heap, tests/system/kdata)."""

from __future__ import annotations

import struct

from partita.run.qemu import RAM_BASE

PTE_V, PTE_LEAF = 0x1, 0xE  # valid; R|W|X (any set: a leaf)


def u64(ram: bytes, pa: int) -> int:
    """The 64-bit word at guest physical address `pa`."""
    return int(struct.unpack_from("<Q", ram, pa - RAM_BASE)[0])


def walk(ram: bytes, root: int, va: int) -> tuple[int, int] | None:
    """(physical address, leaf PTE) of `va` in the Sv39 table at `root`, None if unmapped."""
    table = root
    for level in (2, 1, 0):
        pte = u64(ram, table + ((va >> (12 + 9 * level)) & 0x1FF) * 8)
        if not pte & PTE_V:
            return None
        if pte & PTE_LEAF:
            return ((pte >> 10) << 12) + (va & ((1 << (12 + 9 * level)) - 1)), pte
        table = (pte >> 10) << 12
    return None
