"""O(1) kernel operations cost the same number of cycles with 1 and with 64 threads present.

Boots the benchmark configurations of apps/bench (`partita bench` runs the same code) and
compares, for every operation, the cycle counts measured with 1, 8, 32 and 64 lower-priority
threads present. Under icount shift 0 on one hart a cycle is an instruction, so the counts
must be *equal*: no tolerance is allowed, except where a test states and justifies one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from partita.bench.bench import (
    BENCH_DIR,
    FLAT_OPS,
    THREAD_COUNTS,
    ConfigRun,
    Result,
    run_kernel_config,
)
from partita.trace.format import unpack

_runs: dict[tuple[str, bool], ConfigRun] = {}


def bench_run(name: str, tmp: Path, trace: bool = True) -> ConfigRun:
    """trace=False: the image built with PT_TRACE=0 (every trace record compiled out)."""
    if (name, trace) not in _runs:
        out = tmp / (name if trace else f"{name}-notrace")
        _runs[(name, trace)] = run_kernel_config(BENCH_DIR / f"{name}.yaml", out, trace)
    return _runs[(name, trace)]


def by_threads(results: list[Result], op: str, dispatch: bool) -> dict[int, Result]:
    return {r.threads: r for r in results if r.op == op and r.dispatch == dispatch}


# Every operation is flat, thread creation included: slot_alloc pops a free-slot stack
# (kernel/core/thread.c) instead of scanning the pool.
# ... with tracing on (the default image) and, for kernel threads, compiled out (the direct
# hand-off and lean dispatch paths are then the whole operation).
CASES = [
    pytest.param(cfg, op, d, True,
                 id=f"{cfg.removeprefix('bench-')}-{op}-{'d' if d else 'nd'}")
    for cfg in ("bench-kernel", "bench-user")
    for op, d in FLAT_OPS + (("timer_to_handler", False), ("timer_to_thread", True))
] + [
    pytest.param("bench-kernel", op, d, False, id=f"kernel-notrace-{op}-{'d' if d else 'nd'}")
    for op, d in FLAT_OPS + (("timer_to_thread", True),)
]


@pytest.mark.parametrize(("cfg", "op", "dispatch", "trace"), CASES)
def test_flat(cfg: str, op: str, dispatch: bool, trace: bool,
              tmp_path_factory: pytest.TempPathFactory) -> None:
    run = bench_run(cfg, tmp_path_factory.getbasetemp() / "bench", trace)
    rs = by_threads(run.results, op, dispatch)
    assert sorted(rs) == list(THREAD_COUNTS), f"{op}: measured for {sorted(rs)} threads"
    for n, r in rs.items():
        # icount: every repetition takes the same path, so min == max
        assert r.cycles == r.cycles_max, f"{op} with {n} threads: min {r.cycles} != max " \
                                         f"{r.cycles_max} over {r.reps} repetitions"
    one, many = rs[THREAD_COUNTS[0]], rs[THREAD_COUNTS[-1]]
    assert one.cycles == many.cycles, (
        f"{op} ({'dispatch' if dispatch else 'no dispatch'}, {run.config}): "
        f"{one.cycles} cycles with 1 thread, {many.cycles} with 64 — "
        + ", ".join(f"{n}: {rs[n].cycles}" for n in THREAD_COUNTS))


def test_ipi_wake_flat(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Two harts: cycles are virtual ns of the shared clock, not one hart's instructions, and
    QEMU interleaves the harts; the minimum must still not depend on the thread count."""
    run = bench_run("bench-ipi-kernel", tmp_path_factory.getbasetemp() / "bench")
    rs = by_threads(run.results, "ipi_wake", True)
    assert sorted(rs) == list(THREAD_COUNTS)
    assert len({r.cycles for r in rs.values()}) == 1, {n: r.cycles for n, r in rs.items()}


def test_notrace_image_writes_no_records(tmp_path_factory: pytest.TempPathFactory) -> None:
    """PT_TRACE=0 compiles every record out: the area is initialised, the rings stay empty,
    while the default image of the same configuration traces (its timer marks are read)."""
    base = tmp_path_factory.getbasetemp() / "bench"
    off = bench_run("bench-kernel", base, trace=False)
    on = bench_run("bench-kernel", base, trace=True)
    area = unpack((base / "bench-kernel-notrace" / "trace.bin").read_bytes())
    assert [r.head for r in area.rings] == [0] * len(area.rings)
    assert not any(r.op == "timer_to_handler" for r in off.results)
    assert any(r.op == "timer_to_handler" for r in on.results)
    assert unpack((base / "bench-kernel" / "trace.bin").read_bytes()).rings[0].head > 0
