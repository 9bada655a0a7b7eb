"""Table IV as a benchmark (issue 13 part 4): `partita bench --config spm` boots
apps/bench/configs/bench-spm.yaml and writes spm.json / spm.md. Checks what must hold of any
correct measurement (not speeds): every figure present, the back-to-back switch observed in
every period, the cache model's records of the DMA copies matched to the trace's transfers."""

from __future__ import annotations

import json
from pathlib import Path

from partita.bench import spm


def test_table_iv_benchmark(tmp_path: Path) -> None:
    doc, md = spm.run(tmp_path)
    assert md in (tmp_path / "spm.md").read_text()
    assert json.loads((tmp_path / "spm.json").read_text())["switch"] == doc["switch"]
    assert "| context switch" in (tmp_path / "spm.md").read_text()
    c = doc["calibration"]
    assert c["bytes"] == 32768
    # the copy loop moves 8 bytes per iteration: at least one instruction per word
    assert c["load_cycles"] >= 32768 // 8 and c["unload_cycles"] >= 32768 // 8
    # the modeled copy costs its instructions plus stalls, and a cold 32 KiB copy misses
    assert c["load_modeled_cycles"] > c["load_cycles"]
    for kind in ("load", "unload"):
        d = doc[kind]
        assert d["bytes"] > 29000  # the configuration's near-full partition transfers
        assert d["cycles"]["n"] >= 25 and d["modeled_cycles"]["n"] == d["cycles"]["n"]
        assert d["modeled_cycles"]["min"] >= d["bytes"] // 8
    # one back-to-back switch per 2 ms period of the 60 ms run
    assert doc["switch"]["cycles"]["n"] >= 25
    assert 0 < doc["switch"]["cycles"]["min"] < 5000
    first = doc["execution"]["first"]
    assert first["instructions"]["min"] >= 100000  # arg: 100000 loop iterations
    assert first["modeled_cycles"]["min"] >= first["instructions"]["min"]
