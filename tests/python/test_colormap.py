"""The color map of `partita config` (issue 12): owners, the default pool, shared colors."""

from __future__ import annotations

from pathlib import Path

import pytest
from partita.cli import main
from partita.config import load_resolved
from partita.config.colormap import color_map, fmt_colors
from partita.config.loader import load

ROOT = Path(__file__).resolve().parents[2]

BASE = """name: cm
ncpus: 1
cache: {size_bytes: 524288, ways: 16}
schedulers: [{name: fp0, policy: fp, cpus: [0]}]
"""


def write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "c.yaml"
    p.write_text(BASE + body)
    return p


def test_fmt_colors() -> None:
    assert fmt_colors({0, 1, 2, 5, 7, 8}) == "0-2,5,7-8"
    assert fmt_colors(set()) == "none"


def test_demo_default_partition_gets_unowned_colors() -> None:
    """The demo's G-EDF threads (no partition) no longer share the user partitions' colors."""
    r = load_resolved(ROOT / "configs" / "demo.yaml")
    colors = {p.name: set(p.colors) for p in r.partitions}
    assert colors["system"] == set(range(20, 32))
    assert colors["control"] == set(range(4, 12))
    assert not colors["system"] & (colors["control"] | colors["infotain"] | set(r.kernel_colors))


def test_shared_colors_allow_an_overlap(tmp_path: Path) -> None:
    body = ("shared_colors: [2]\npartitions: [{name: a, colors: ['0-2']}, "
            "{name: b, colors: ['2-4']}]\n")
    cm, problems = color_map(load(write(tmp_path, body)))
    assert problems == []
    assert cm.owned == {"a": {0, 1, 2}, "b": {2, 3, 4}}
    assert cm.default_pool == {5, 6, 7}


def test_partition_without_colors_draws_from_the_pool(tmp_path: Path) -> None:
    body = ("kernel_colors: [0]\npartitions: [{name: a, colors: ['1-3']}, {name: b}]\n"
            "threads: [{name: t, entry: app_fir, partition: b, period_ms: 10, wcet_ms: 1}]\n")
    r = load_resolved(write(tmp_path, body))
    colors = {p.name: p.colors for p in r.partitions}
    assert colors["b"] == colors["system"] == [4, 5, 6, 7]


def test_colors_flag_prints_the_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", str(ROOT / "configs" / "demo.yaml"), "--check", "--colors"]) == 0
    out = capsys.readouterr().out
    assert "colors: 32" in out
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.startswith("  ")}
    assert "0-3" in lines["kernel"] and "4-11" in lines["control"]
    assert "20-31" in lines["system"] and "default pool" in lines["system"]


def test_heap_mode_in_the_tables(tmp_path: Path) -> None:
    body = "partitions: [{name: a, user: true, colors: ['1-2'], heap: {mode: user, bytes: 8192}}]\n"
    r = load_resolved(write(tmp_path, body))
    a = next(p for p in r.partitions if p.name == "a")
    assert (a.heap_mode, a.heap_color_bytes) == ("user", 8192)
    from partita.config.gen import generate_c

    c = generate_c(r)
    assert ".heap_mode = PT_HEAP_USER, .heap_color_bytes = 8192u" in c
