"""Experiment CSVs parse with every row in the header's columns, also for method names with
a comma (spm-schedulability's "SPM (sigma=435us, Table IV)" once split a row in two)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from partita.experiments.runner import write_csv


def test_method_names_with_commas_stay_one_column(tmp_path: Path) -> None:
    methods = ["SPM (sigma=435us, Table IV)", "plain"]
    tot = np.array([[3, 4], [1, 2]])
    cnt = np.array([4, 4])
    path = write_csv(tmp_path / "r.csv", ["utilization"], [[0.5], [0.9]], methods, tot, cnt)
    rows = list(csv.DictReader(path.open()))
    assert [r["method"] for r in rows] == methods * 2
    assert [r["ratio"] for r in rows] == ["0.7500", "1.0000", "0.2500", "0.5000"]
    assert all(len(r) == 5 and None not in r for r in rows)
