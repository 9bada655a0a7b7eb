"""Two runs of the same configuration give byte-identical traces (icount, sleep=off).

With `idle: spin` (the default) no hart ever halts, so QEMU never warps its clock over an
all-idle period; such warps are computed by QEMU's main loop and race the harts, and with
`idle: wfi` runs drifted apart by tens of ns after an idle period (docs/kernel.md,
"Determinism"). Checked on the default system and on a set with an overloaded hart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from partita.run.run import RunResult

DEMO = str(Path(__file__).resolve().parents[3] / "configs" / "demo.yaml")


@pytest.mark.parametrize("cfg", [DEMO, "sys_edf"], ids=["demo", "sys_edf"])
def test_two_runs_identical_trace(boot: Callable[..., RunResult], cfg: str) -> None:
    a = boot(cfg)
    b = boot(cfg, tag="again")
    ta = (a.out / "trace.bin").read_bytes()
    tb = (b.out / "trace.bin").read_bytes()
    assert a.area is not None and sum(len(x.records) for x in a.area.rings) > 1000
    assert len(ta) == len(tb)
    assert ta == tb, f"traces differ between two runs of {cfg}"
