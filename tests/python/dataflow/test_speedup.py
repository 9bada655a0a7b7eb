"""The slot-ratio speed-up (partita.experiments.dataflow_speedup): the formula, applied to the
paper's own WCET reductions, gives the paper's Table 1; the decoders' configurations derive
as the experiment and the system tests use them."""

from __future__ import annotations

import pytest
from partita.experiments import dataflow_speedup as sp


@pytest.mark.parametrize(("reduction", "g10", "g20"), [
    (1.1, 0.9, 1.8),    # StS low end, DyS low end
    (1.8, 4.4, 8.9),    # StS high end (the paper prints 4.5: 1.8 is itself rounded)
    (3.0, 6.7, 13.3),   # DyS high end (printed 6.6)
    (1.3, 2.3, 4.6),    # JPEG
    (1.6, 3.75, 7.5),   # H.264 (printed 3.8)
])
def test_gain_formula_gives_the_papers_table(reduction: float, g10: float, g20: float) -> None:
    g = sp.gains(reduction, 1.0)
    assert g["gain_10_pct"] == pytest.approx(g10, abs=0.06)
    assert g["gain_20_pct"] == pytest.approx(g20, abs=0.06)
    # the application's own throughput: its time was 90 % / 80 % of the period
    assert g["throughput_gain_10_pct"] == pytest.approx(g["gain_10_pct"] / 0.9, abs=0.02)
    assert g["throughput_gain_20_pct"] == pytest.approx(g["gain_20_pct"] / 0.8, abs=0.02)


def test_no_reduction_no_gain() -> None:
    assert sp.gains(700, 700)["gain_10_pct"] == 0


@pytest.mark.parametrize("dec", list(sp.DECODERS))
def test_decoder_config_variants(dec: str) -> None:
    doc = sp.decoder_config(dec, "dys", "bitmap")
    assert doc["dataflow"]["tsm"] == "bitmap"
    assert {a["mode"] for s in doc["schedulers"] for a in s["tdm"]["apps"]} == {"dys"}
    assert doc["ncpus"] == 2
    cpus = {a["cpu"] for g in doc["dataflow"]["graphs"] for a in g["actors"]}
    assert cpus == {0, 1}
