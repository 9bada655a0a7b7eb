"""The configurations `partita experiment dataflow` boots are valid systems, and their points
are the documented ones (no QEMU here: the experiment itself boots them)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from partita.config import load_resolved
from partita.experiments import dataflow as exp


@pytest.mark.parametrize(("policy", "k"), [("sts", 0), ("dys", 1), ("dys", 5), ("fig13", 0)])
def test_experiment_configs_pass_partita_config(tmp_path: Path, policy: str, k: int) -> None:
    doc = exp.config(policy, "scan", run_ms=5, k=k)
    cfg = tmp_path / "x.yaml"
    cfg.write_text(yaml.safe_dump(doc, sort_keys=False))
    r = load_resolved(cfg)
    assert r.ncpus == 1  # one hart per run (icount turns, docs/dataflow.md)
    pts = exp._points(policy, k)
    assert len(doc["dataflow"]["graphs"]) == len(pts)
    for (m, kk, _), g in zip(pts, doc["dataflow"]["graphs"], strict=True):
        assert len(g["actors"]) == m
        assert len(g["fifos"]) == (9 if policy == "fig13" else m * kk)
    if policy == "fig13":  # T2 has 9 FIFOs, the others 1 (the paper's Fig. 13 shape)
        fifos = doc["dataflow"]["graphs"][0]["fifos"]
        per = [sum(a in (f["producer"], f["consumer"]) for f in fifos)
               for a in (f"T{i}" for i in range(1, 11))]
        assert tuple(per) == exp.FIG13_FIFOS
    if policy == "dys":  # the round robin runs against the token: every task is checked
        app = doc["schedulers"][0]["tdm"]["apps"][-1]
        assert app["mode"] == "dys"
        assert app["order"][1] == app["order"][0][:-1] + str(len(app["order"]) - 1)
