"""Release times of SPM tasks as the I/O core produces them (subsys/io/io_core.c
`interarrival`): periodic, or sporadic with a per-task xorshift64 extra in
[0, sporadic_extra_ns] on top of the period (the minimum inter-arrival)."""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed(task_index: int) -> int:
    """The generator's state at the start of every phase (io_core.c)."""
    return (0x9E3779B97F4A7C15 ^ ((task_index + 1) * 0xBF58476D1CE4E5B9)) & MASK


def release_times(task_index: int, origin: int, offset: int, period: int, extra: int,
                  count: int) -> list[int]:
    """The first `count` releases (ns; icount shift 0: 1 cycle = 1 ns)."""
    x, t, out = seed(task_index), origin + offset, []
    for _ in range(count):
        out.append(t)
        if extra:
            x ^= (x << 13) & MASK
            x ^= x >> 7
            x ^= (x << 17) & MASK
            t += period + x % (extra + 1)
        else:
            t += period
    return out
