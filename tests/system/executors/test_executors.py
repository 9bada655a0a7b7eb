"""Scale-out (issue 11, item 10): an experiment sweep and a QEMU soundness campaign give the
same seeded results on a Dask LocalCluster as on the default process pool."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from partita.experiments.cli import run_experiment
from partita.experiments.runner import ExecutorError, check_executor

pytest.importorskip("dask.distributed")


def test_sweep_on_a_local_cluster_equals_the_process_pool(tmp_path: Path) -> None:
    a = run_experiment("spm-schedulability", tmp_path / "pool", seed=5, sets=4, jobs=2)
    b = run_experiment("spm-schedulability", tmp_path / "dask", seed=5, sets=4, jobs=2,
                       executor="local")
    assert a.read_text() == b.read_text()
    assert len(a.read_text().splitlines()) == 1 + 20 * 5  # 4 SPM curves + the baseline


def test_qemu_campaign_on_a_local_cluster(tmp_path: Path) -> None:
    from partita.subsys.spm.soundness import campaign

    pool = campaign(4, 2, tmp_path / "pool", seed=7, jobs=1)
    dask = campaign(4, 2, tmp_path / "dask", seed=7, jobs=2, executor="local")
    assert [r["config"] for r in dask] == [r["config"] for r in pool] == ["spm-sound0",
                                                                          "spm-sound1"]
    for p, d in zip(pool, dask, strict=True):
        assert p["error"] is None and d["error"] is None, (p, d)
        assert p["phases"] == d["phases"] == 2
        assert p["violations"] == d["violations"] == []
        # the same seeded sets: the same tasks and bounds; every response within its bound
        assert {n: t["bound_ns"] for n, t in p["tasks"].items()} == \
            {n: t["bound_ns"] for n, t in d["tasks"].items()}
        for t in [*p["tasks"].values(), *d["tasks"].values()]:
            assert t["jobs"] > 0 and t["max_response_ns"] <= t["bound_ns"], t


def test_bad_executor_is_a_clear_error() -> None:
    with pytest.raises(ExecutorError, match="use process, local or dask://HOST:PORT"):
        check_executor("threads")


def test_plots_leave_the_matplotlib_backend_alone(tmp_path: Path) -> None:
    """No process-wide matplotlib.use("Agg") behind a notebook's back (item 9)."""
    code = ("import matplotlib; matplotlib.use('svg');"
            "from partita.experiments.cli import run_experiment;"
            f"run_experiment('spm-schedulability', __import__('pathlib').Path({str(tmp_path)!r}),"
            " seed=1, sets=1);"
            "print(matplotlib.get_backend())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "svg"
