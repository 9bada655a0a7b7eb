"""The `spm:` configuration section: rejection messages, derived sigma, generated tables."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from partita.config import ConfigError, load_resolved, write_outputs
from partita.subsys.spm.config import SpmCfg, check, mbuf_bytes, parse

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "configs" / "spm-demo.yaml"


def _variant(tmp_path: Path, edit) -> Path:
    raw = yaml.safe_load(DEMO.read_text())
    edit(raw)
    p = tmp_path / "variant.yaml"
    p.write_text(yaml.safe_dump(raw))
    return p


def test_demo_is_accepted() -> None:
    r = load_resolved(DEMO)
    assert r.subsys.get("spm") is not None
    spm, problems = parse(r.subsys["spm"])
    assert not problems and spm is not None
    assert spm.sigma == 200_000
    assert len(spm.tasks) == 8


def test_image_too_big_names_task_and_sizes(tmp_path: Path) -> None:
    def edit(raw):
        raw["spm"]["tasks"][2]["image_bytes"] = 80000

    with pytest.raises(ConfigError) as e:
        load_resolved(_variant(tmp_path, edit))
    msg = str(e.value)
    assert "fir0" in msg and "80000" in msg and "partition 71680" in msg


def test_mirrors_count_towards_the_partition(tmp_path: Path) -> None:
    def edit(raw):
        raw["spm"]["tasks"][0]["image_bytes"] = 71680 - 64  # fits alone, not with mirrors

    with pytest.raises(ConfigError) as e:
        load_resolved(_variant(tmp_path, edit))
    assert "loop0" in str(e.value) and "mirrors" in str(e.value)


def test_sigma_shorter_than_largest_copy(tmp_path: Path) -> None:
    def edit(raw):
        raw["spm"]["sigma_us"] = 5

    with pytest.raises(ConfigError) as e:
        load_resolved(_variant(tmp_path, edit))
    msg = str(e.value)
    assert "sigma 5000 ns" in msg
    # the largest copy: fir0/fft0/iir1/mm1 declare 8192-byte images
    assert "8192 bytes take 11000 ns" in msg and "DMA setup 3000 ns" in msg


def test_sigma_derived_from_largest_copy() -> None:
    spm, _ = parse({"io_cpu": 2, "app_cpus": [0, 1], "dma_setup_ns": 3000,
                    "copy_ns_per_kib": 1000,
                    "tasks": [{"name": "a", "core": 0, "image": "fir", "priority": 0,
                               "period_ms": 10, "wcet_ms": 1, "image_bytes": 10240}]})
    assert spm is not None
    assert spm.largest_copy[:2] == (13000, "a")
    assert spm.sigma == 13000


def test_roles_and_cores_checked() -> None:
    spm = SpmCfg(io_cpu=1, app_cpus=[0, 1], tasks=[])
    probs = check(spm, 2, {0: "app", 1: "app"})
    text = " ".join(p.message for p in probs)
    assert "must have role io" in text and "also the I/O core" in text


def test_duplicate_priority_and_unknown_image() -> None:
    base = {"core": 0, "period_ms": 10, "wcet_ms": 1, "image_bytes": 1024}
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0, 1], "tasks": [
        {"name": "a", "image": "nope", "priority": 0, **base}]})
    assert spm is None and "unknown image 'nope'" in problems[0].message
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0, 1], "tasks": [
        {"name": "a", "image": "fir", "priority": 0, **base},
        {"name": "b", "image": "fir", "priority": 0, **base}]})
    assert spm is not None
    msgs = [p.message for p in check(spm, 3, {0: "app", 1: "app", 2: "io"})]
    assert any("priority 0 already used by a" in m for m in msgs)


def test_mbuf_layout_matches_c() -> None:
    # subsys/io/include/partita/io_flow.h: 16-byte header, entries of 4 + payload rounded up to 8
    assert mbuf_bytes(1, 1024) == 16 + 4 + 1024
    assert mbuf_bytes(2, 13) == 16 + 2 * (4 + 16)
    assert mbuf_bytes(0, 1024) == 0


def test_generated_tables(tmp_path: Path) -> None:
    r = load_resolved(DEMO)
    files = write_outputs(r, tmp_path)
    names = {f.name for f in files}
    assert {"pt_spm_config.c", "pt_spm_images.S"} <= names
    c = (tmp_path / "pt_spm_config.c").read_text()
    assert ".io_hart = 2" in c and ".napp = 2" in c and ".sigma_ns = 200000ull" in c
    assert c.count("PT_IO_QUEUE") == 4 and "PT_IO_OVERWRITE" not in c
    assert c.count(".depth = 27") == 2 and c.count(".depth = 32") == 2
    assert ".in_slots = 27, .out_slots = 27" in c
    s = (tmp_path / "pt_spm_images.S").read_text()
    assert s.count(".incbin") == 8  # one private copy per task, even for a shared image


def test_no_spm_section_links_no_spm(tmp_path: Path) -> None:
    # a configuration without spm: generates no SPM tables and links no subsystem
    # (mk/kernel.mk compiles only the folders subsys.mk lists); stale tables are removed
    (tmp_path / "pt_spm_config.c").write_text("stale")
    r = load_resolved(ROOT / "configs" / "demo.yaml")
    write_outputs(r, tmp_path)
    assert not (tmp_path / "pt_spm_config.c").exists()
    assert (tmp_path / "subsys.mk").read_text().split() == ["PT_SUBSYS", ":="]
    r = load_resolved(ROOT / "configs" / "spm-demo.yaml")
    write_outputs(r, tmp_path)
    assert (tmp_path / "subsys.mk").read_text().split() == ["PT_SUBSYS", ":=", "spm", "io"]
    assert (tmp_path / "pt_spm_config.c").exists()


def test_spm_durations_go_through_the_one_parser() -> None:
    """The section's durations take the units, the whole-ns rule and the range of every
    configuration duration (partita.config.units.convert); before, no range was checked."""
    _, problems = parse({"io_cpu": 2, "app_cpus": [0, 1], "sigma_s": 10**12, "tasks": []})
    assert [(p.path, "out of range" in p.message) for p in problems] == [(("spm", "sigma"), True)]
    _, problems = parse({"io_cpu": 2, "app_cpus": [0, 1], "tasks": [
        {"name": "a", "core": 0, "image": "fir", "priority": 0, "period_ms": 1,
         "wcet_us": 0.0001, "image_bytes": 64}]})
    assert [p.path for p in problems] == [("spm", "tasks", 0, "wcet")]
    assert "not a whole number of nanoseconds" in problems[0].message
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0, 1], "sigma_us": 400, "tasks": []})
    assert not problems and spm is not None and spm.sigma_ns == 400_000


def _loop(**sub) -> dict:
    return {"name": "lp", "core": 0, "image": "loopback", "priority": 0, "period_ms": 4,
            "wcet_us": 100, "image_bytes": 4096, "in_mirror": {"slot_bytes": 1024},
            "subscribe": [{"flow": 0, **sub}, {"flow": 1, "mirror_depth": 3}]}


def test_mirror_depth_sizes_the_input_mirror() -> None:
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0], "tasks": [_loop(mirror_depth=5)]})
    assert not problems and spm is not None
    t = spm.tasks[0]
    assert t.in_mirror.slots == 8  # 5 + 3
    assert t.subscribe[0].policy == "queue"  # refuse when full is the default


def test_mirror_depth_errors_name_task_and_flow() -> None:
    task = _loop(mirror_depth=5)
    task["in_mirror"] = {"slots": 6, "slot_bytes": 1024}
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0], "tasks": [task]})
    assert spm is None
    assert "task lp" in problems[0].message and "8 entries" in problems[0].message
    assert "in_mirror.slots is 6" in problems[0].message
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0], "tasks": [
        _loop(mirror_depth=5, policy="overwrite")]})
    assert spm is None and "flow 0: mirror_depth needs policy queue" in problems[0].message
    spm, problems = parse({"io_cpu": 2, "app_cpus": [0], "tasks": [_loop(mirror_depth=0)]})
    assert spm is None and "mirror_depth" in str(problems[0].path)
