"""Two runs of the same configuration give byte-identical traces (icount, sleep=off)."""

from __future__ import annotations

from collections.abc import Callable

from partita.run import RunResult


def test_two_runs_identical_trace(boot: Callable[..., RunResult]) -> None:
    a = boot("sys_gedf")
    b = boot("sys_gedf", tag="again")
    ta = (a.out / "trace.bin").read_bytes()
    tb = (b.out / "trace.bin").read_bytes()
    assert a.area is not None and sum(len(x.records) for x in a.area.rings) > 1000
    assert len(ta) == len(tb)
    assert ta == tb, "traces differ between two runs of sys_gedf"
