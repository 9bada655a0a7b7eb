"""A configuration whose job cannot finish by its deadline once the kernel's per-job cost is
charged is analysed, not refused: its scheduler group gets no bounds and says why, and the
other groups keep theirs (before, `partita analyze` and `partita run` stopped with an error)."""

from __future__ import annotations

from pathlib import Path

from partita.analysis.cli import analyze_file

CFG = """
name: overload
ncpus: 2
icount_shift: 0
run_for_ms: 10
schedulers:
  - {name: fp0, policy: fp, cpus: [0]}
  - {name: fp1, policy: fp, cpus: [1]}
threads:
  - {name: tight, entry: app_fir, cpu: 0, priority: 1, period_us: 500, deadline_us: 100, wcet_us: 100}
  - {name: other, entry: app_fir, cpu: 0, priority: 2, period_ms: 5, wcet_us: 100}
  - {name: fine, entry: app_fir, cpu: 1, priority: 1, period_ms: 5, wcet_us: 100}
"""


def test_a_job_over_its_deadline_with_overheads_gets_no_bound(tmp_path: Path) -> None:
    cfg = tmp_path / "overload.yaml"
    cfg.write_text(CFG)
    doc = analyze_file(cfg)
    tasks = doc["tasks"]
    assert tasks["tight"]["bound_ns"] is None and not tasks["tight"]["schedulable"]
    assert "exceeds deadline" in tasks["tight"]["reason"]
    assert tasks["other"]["bound_ns"] is None  # same scheduler group: no bound either
    assert tasks["fine"]["schedulable"] and tasks["fine"]["bound_ns"] > 100_000
    assert "reason" not in tasks["fine"]
