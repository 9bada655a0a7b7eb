"""`partita experiment coloring` end to end at its smallest (--quick, 256 KiB only: one set
per scheduler, 6 QEMU runs with the cache model): the CSV and figures are written, S3 costs
more than S1 and S2 stays within 1 % of S1 (the kernel's data, spread over every color in S2, is
a few hundred lines against the LLC: docs/coloring.md), and a
second call reuses the cached runs and gives the same CSV (the runs are deterministic)."""

from __future__ import annotations

import csv
import time
from pathlib import Path

from partita.experiments.cli import run_experiment


def test_quick_experiment(tmp_path: Path) -> None:
    t0 = time.perf_counter()
    out = run_experiment("coloring", tmp_path, jobs=2, quick=True, wss_kib=(256,))
    first_s = time.perf_counter() - t0
    d = out.parent
    for f in ("fig10.png", "fig11.png", "fig12.png", "tasks.csv", "jobs.json"):
        assert (d / f).stat().st_size > 0, f
    cfgs = sorted(f.name for f in (d / "configs").glob("*.yaml"))
    assert len([f for f in cfgs if not f.startswith("calibration_")]) == 6, cfgs
    assert "calibration_16colors.yaml" in cfgs  # the P-EDF set's colors (one per number)
    rows = {(r["scheduler"], r["scenario"]): r for r in csv.DictReader(out.open())}
    assert len(rows) == 6
    for sched in ("G-EDF", "P-EDF"):
        assert float(rows[sched, "S3"]["wcet_scaling"]) > 1.3
        assert abs(float(rows[sched, "S2"]["wcet_scaling"]) - 1) < 0.01
        assert float(rows[sched, "S1"]["missed_pct"]) == 0
        assert float(rows[sched, "S1"]["s1_wcet_over_c"]) < 1
    text = out.read_text()
    t0 = time.perf_counter()
    assert run_experiment("coloring", tmp_path, jobs=2, quick=True, wss_kib=(256,)) == out
    assert out.read_text() == text
    assert time.perf_counter() - t0 < first_s / 2  # no QEMU run the second time
