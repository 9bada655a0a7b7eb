"""partita.bench.bench without QEMU: console parsing, flatness and verdicts, doc blocks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from partita.bench.bench import (
    Result,
    is_flat,
    parse_console,
    table,
    targets,
    update_doc,
    verdict,
    write_json,
)

CONSOLE = """Partita: config 'bench-kernel'
BENCH-OVERHEAD 2
BENCH yield kernel threads=1 dispatch=1 min=640 max=640 n=34
BENCH create kernel threads=64 dispatch=0 min=1646 max=1650 n=16
noise BENCH yield kernel threads=2
"""


def test_parse_console() -> None:
    rs = parse_console(CONSOLE, "cfg")
    assert [(r.op, r.threads, r.dispatch, r.cycles, r.cycles_max, r.reps) for r in rs] == [
        ("yield", 1, True, 640, 640, 34), ("create", 64, False, 1646, 1650, 16)]
    assert rs[0].config == "cfg"


def test_flat_and_verdict() -> None:
    a = Result("yield", "kernel", 1, True, 50, 50, 16)
    b = Result("yield", "kernel", 64, True, 50, 51, 16)
    assert is_flat({1: a, 64: a})
    assert not is_flat({1: a, 64: b})
    # issue 9: kernel tracing on <= 1.25x FreeRTOS, off <= FreeRTOS (<= half on wake paths)
    assert targets(("yield", True), True) == (147, 118)
    assert targets(("resume", True), True) == (243, 97)
    assert targets(("resume", True), False) == (345, 345)  # user threads: + 150
    assert targets(("set_priority_self", True), True) is None
    assert targets(("timer_to_thread", True), True) == (None, 400)
    assert verdict(900, 401, (None, 400)) == "**misses: off +1**"
    assert verdict(147, 118, (147, 118)) == "meets target"
    assert verdict(148, 118, (147, 118)) == "**misses: on +1**"
    assert verdict(640, 119, (147, 118)) == "**misses: on +493, off +1**"
    assert verdict(100, None, (147, 118)) == "meets target"
    assert verdict(1, 1, None) == "no reference"


def test_json_and_doc(tmp_path: Path) -> None:
    rs = [Result("yield", "kernel", n, True, 640, 640, 34) for n in (1, 8, 32, 64)]
    off = [Result("yield", "kernel", n, True, 100, 100, 34, trace=False) for n in (1, 8, 32, 64)]
    write_json(rs + off, tmp_path / "kernel.json")
    text = (tmp_path / "kernel.json").read_text()
    assert '"context_switch"' in text and '"cycles_max": 640' in text
    doc = json.loads(text)
    assert {r["cycles"] for r in doc["results"]} == {640}  # tracing-off figures kept apart
    assert [r["cycles"] for r in doc["results_notrace"]] == [100] * 4
    md = table(rs + off, "kernel")
    assert "| 640 | 640 | 640 | 640 | yes | 100 | 118 | 147 / 118 | **misses: on +493** |" in md
    md_doc = tmp_path / "b.md"
    md_doc.write_text("hand\n<!-- BEGIN GENERATED kernel -->\nold\n<!-- END GENERATED kernel -->\ntail\n")
    update_doc(md_doc, md, None)
    out = md_doc.read_text()
    assert out.startswith("hand\n") and out.endswith("tail\n") and "old" not in out
    assert "| 640 |" in out


def test_bench_writes_out_and_touches_tracked_files_only_with_doc(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11, item 12: `make bench` leaves docs/benchmarks.md and the analysis' default
    kernel costs alone; `make bench-docs` (--doc) rewrites both."""
    import argparse

    from partita.bench import bench

    rs = [Result("yield", "kernel", n, True, 640, 640, 34) for n in (1, 8, 32, 64)]
    monkeypatch.setattr(bench, "run_kernel", lambda out, configs: (rs, []))
    doc, costs = tmp_path / "benchmarks.md", tmp_path / "kernel-costs.json"
    doc.write_text("hand\n")
    costs.write_text("{}")
    monkeypatch.setattr(bench, "DOC", doc)
    monkeypatch.setattr(bench, "OVERHEADS", costs)
    p = argparse.ArgumentParser()
    bench.add_arguments(p)
    out = tmp_path / "out"
    assert bench.run(p.parse_args(["--kernel-only", "--out", str(out)])) == 0
    assert "| 640 |" in (out / "benchmarks.md").read_text()
    assert doc.read_text() == "hand\n" and costs.read_text() == "{}"
    assert bench.run(p.parse_args(["--kernel-only", "--out", str(out), "--doc"])) == 0
    assert "| 640 |" in doc.read_text()
    assert costs.read_text() == (out / "kernel.json").read_text()


def test_console_sums_give_mean_sd_and_the_coprocessor_share() -> None:
    """BENCH lines with sum/sumsq/cp (apps/bench) -> mean, standard deviation and the
    coprocessor hart's share per sample (partita.bench.offload); old lines still parse."""
    from partita.bench.bench import parse_console
    from partita.bench.offload import stats, table

    new = ("BENCH resume kernel threads=8 dispatch=1 min=10 max=14 n=4 sum=48 sumsq=584 cp=20\n"
           "BENCH resume kernel threads=8 dispatch=0 min=7 max=7 n=2\n")
    got = parse_console(new, "x")
    assert [r.extra for r in got] == [{"sum": 48, "sumsq": 584, "cp": 20}, {}]
    mean, sd, cp = stats(got[0])
    assert (mean, cp) == (12.0, 5.0)
    assert abs(sd - 2**0.5) < 1e-9  # samples 10, 12, 12, 14
    inline = parse_console(new.replace("sum=48 sumsq=584 cp=20", "sum=24 sumsq=144 cp=0"))
    md, rows = table(inline, got)
    assert rows[0]["offload_app"] == 7.0 and rows[0]["offload_coproc"] == 5.0
    assert "| resume | yes | 8 | 6 ± 0.0 | 12 ± 1.4 | 7 | 5 | 2.00 | 4 |" in md
