"""Every kernel limit, in one place: the source of truth for the kernel and for `partita config`.

`python -m partita.limits` (or `partita limits-header`) writes `kernel/include/partita/limits.h`
from the constants below; the kernel includes that header and `partita config` imports this
module, so a configuration is checked against exactly the limits the kernel is built with.
The generated header is committed; `tests/python/test_limits.py` fails when it differs from
what this module writes now. Change a limit here, then regenerate the header.
"""

from __future__ import annotations

import sys
from pathlib import Path

PAGE_BYTES = 4096  # Sv39 base page; stacks, heaps and the page pool are counted in pages

PT_MAX_CPUS = 8  # harts; also the width of cpu masks and of the trace area
PT_MAX_THREADS = 128  # static thread pool, idle threads (one per hart) included
PT_MAX_PARTITIONS = 16  # partitions, the implicit 'system' partition included
PT_MAX_SCHEDS = 8  # scheduler instances after P-EDF expansion
PT_MAX_SEMS = 64  # semaphores created with pt_sem_create
PT_MAX_MUTEXES = 64  # mutexes created with pt_mutex_create
PT_MAX_MQS = 32  # message queues created with pt_mq_create
PT_MQ_POOL_BYTES = 16384  # storage behind pt_mq_create() queues
PT_MQ_MSG_MAX_BYTES = 4096  # largest message, and largest capacity, of a created queue
PT_MAX_COLORS = 128  # cache colors (bitmaps of PT_MAX_COLORS / 64 words)
PT_PAGE_BYTES = PAGE_BYTES
PT_STACK_SLOT_BYTES = 65536  # virtual space per thread stack; one page of it is a guard page
PT_MAX_STACK_BYTES = PT_STACK_SLOT_BYTES - PAGE_BYTES
PT_MIN_STACK_BYTES = PAGE_BYTES
# Below 50 us the release alarm, the dispatch and the job it releases cannot keep up on QEMU
# virt: the timer interrupt path would livelock the hart (issue 7 item 2).
PT_MIN_PERIOD_NS = 50_000
# epoch + offset + k * period must keep headroom in the kernel's uint64 cycle arithmetic.
PT_MAX_DURATION_NS = 1 << 62
PT_MAX_POOL_PAGES = 65536  # page-pool metadata entries (256 MiB of 4 KiB pages)
PT_KERNEL_RESERVE_BYTES = 16 << 20  # RAM `config` assumes the kernel image takes
PT_MIN_RAM_MB = 32  # the kernel image (about 12 MiB with the trace rings) and stacks must fit
PT_MAX_RAM_MB = 4096
PT_MAX_HEAP_BYTES = (1 << 32) - PAGE_BYTES  # heap_bytes is a uint32 in the tables
PT_PRIO_LEVELS = 256  # FP priorities 0 (highest) .. 255
PT_PGTABLE_PAGES = 160  # most Sv39 page-table pages, taken from the kernel data colors (mmu.c)
PT_THREAD_NAME_MAX = 15  # characters of a thread name (plus the NUL)
PT_HEAP_META_PAGES = 8192  # page-owner entries of all colored heaps (kernel/core/heaps.c)
PT_HEAP_USER_SPAN_BYTES = 128 << 20  # user VA of a partition's colored heaps (all colors)
PT_MAX_HEAP_COLOR_BYTES = 64 << 20  # heap.bytes: one color's heap (2^14 pages of 4 KiB)

# (name, comment) in the order of the generated header; the values are the constants above.
LIMITS: list[tuple[str, str]] = [
    ("PT_MAX_CPUS", "harts; also the width of cpu masks and of the trace area"),
    ("PT_MAX_THREADS", "static thread pool, idle threads (one per hart) included"),
    ("PT_MAX_PARTITIONS", "partitions, the implicit 'system' partition included"),
    ("PT_MAX_SCHEDS", "scheduler instances after P-EDF expansion"),
    ("PT_MAX_SEMS", "semaphores created with pt_sem_create"),
    ("PT_MAX_MUTEXES", "mutexes created with pt_mutex_create"),
    ("PT_MAX_MQS", "message queues created with pt_mq_create"),
    ("PT_MQ_POOL_BYTES", "storage behind pt_mq_create() queues"),
    ("PT_MQ_MSG_MAX_BYTES", "largest message, and largest capacity, of a created queue"),
    ("PT_MAX_COLORS", "cache colors (bitmaps of PT_MAX_COLORS / 64 words)"),
    ("PT_PAGE_BYTES", "page size of stacks, heaps and the page pool"),
    ("PT_STACK_SLOT_BYTES", "virtual space per thread stack (kernel and user windows)"),
    ("PT_MAX_STACK_BYTES", "largest stack_bytes: the slot minus its guard page"),
    ("PT_MIN_STACK_BYTES", "smallest stack_bytes"),
    ("PT_MIN_PERIOD_NS", "shortest period / minimum inter-arrival time on QEMU virt"),
    ("PT_MAX_DURATION_NS", "every duration stays below 2^62 ns (uint64 headroom)"),
    ("PT_MAX_POOL_PAGES", "page pool covers min(RAM, PT_MAX_POOL_PAGES pages)"),
    ("PT_KERNEL_RESERVE_BYTES", "RAM config assumes for the kernel image (build checks it)"),
    ("PT_MIN_RAM_MB", "smallest ram_mb"),
    ("PT_MAX_RAM_MB", "largest ram_mb"),
    ("PT_MAX_HEAP_BYTES", "per-partition heap_bytes (uint32; also bounded by the pool)"),
    ("PT_PRIO_LEVELS", "FP priorities 0 (highest) .. PT_PRIO_LEVELS - 1"),
    ("PT_PGTABLE_PAGES", "page-table pages (kernel, every partition), in kernel data colors"),
    ("PT_THREAD_NAME_MAX", "characters of a thread name (plus the NUL)"),
    ("PT_HEAP_META_PAGES", "page-owner entries of all colored heaps (heap.bytes x colors, summed)"),
    ("PT_HEAP_USER_SPAN_BYTES", "user virtual space of one partition's colored heaps"),
    ("PT_MAX_HEAP_COLOR_BYTES", "heap.bytes: the most one color's heap may grow to"),
]

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "kernel" / "include" / "partita" / "limits.h"


def pool_bytes(ram_mb: int) -> int:
    """Bytes of the page pool for `ram_mb` of RAM (the kernel derives the same at boot),
    counting PT_KERNEL_RESERVE_BYTES for the kernel image."""
    return max(0, min((ram_mb << 20) - PT_KERNEL_RESERVE_BYTES,
                      PT_MAX_POOL_PAGES * PAGE_BYTES))


def pgtable_pages(user_parts: list[tuple[int, int]]) -> int:
    """Upper estimate of the page-table pages the kernel takes at boot: its own tables
    (root, stack and user-view tables, kernel-stack level-0 tables) plus, per user partition
    given as (heap_bytes, threads), a root, copies of the user view around the data window,
    the private region's level-1 table, one level-0 table per 2 MiB of heap and per 2 MiB
    window of user stacks (at most 4: PT_MAX_THREADS 64 KiB slots)."""
    two_mb = 2 << 20
    total = 12
    for heap, nthreads in user_parts:
        total += 7 + min(4, nthreads) + -(-heap // two_mb)
    return total


def header_text() -> str:
    """The text of kernel/include/partita/limits.h."""
    out = [
        "/* Generated by `python -m partita.limits` from tools/partita/limits.py -- do not edit."
        " */",
        "/*",
        " * Every kernel limit, shared with `partita config`, which rejects configurations",
        " * beyond them. Change a limit in tools/partita/limits.py and regenerate this file.",
        " */",
        "#ifndef PARTITA_LIMITS_H",
        "#define PARTITA_LIMITS_H",
        "",
    ]
    for name, comment in LIMITS:
        value = globals()[name]
        suffix = "ull" if value >= 1 << 31 else ""
        out.append(f"#define {name} {value}{suffix} /* {comment} */")
    out += ["", "#endif", ""]
    return "\n".join(out)


def write_header(path: Path = HEADER) -> Path:
    path.write_text(header_text())
    return path


def add_arguments(p: object) -> None:
    import argparse

    assert isinstance(p, argparse.ArgumentParser)
    p.add_argument("path", nargs="?", default=str(HEADER), help="output (default: the kernel's)")


def run(args: object) -> int:
    return main([str(getattr(args, "path", HEADER))])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    path = Path(argv[0]) if argv else HEADER
    write_header(path)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
