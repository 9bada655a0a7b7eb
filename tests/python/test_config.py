"""`partita config`: schema, error messages, unit conversions, P-EDF partitioning, C output."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from partita.cli import main
from partita.config import ConfigError, Resolved, load_resolved, write_outputs
from partita.config.gen import generate_c
from partita.config.partition import NoFit, assign, edf_fits
from partita.config.units import UNITS, UnitError, format_ns, pop_duration, to_ns
from partita.model import Task

ROOT = Path(__file__).resolve().parents[2]
BAD = sorted((Path(__file__).parent / "bad_configs").glob("*.yaml"))
GOOD = [ROOT / "configs" / "demo.yaml", *sorted((ROOT / "tests/system").glob("*/*.yaml"))]
CC = "riscv64-unknown-elf-gcc"


def expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: ...'"
    return first.removeprefix("# expect: ")


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "cfg.yaml"
    p.write_text(text)
    return p


BASE = """
name: t
ncpus: 3
schedulers:
  - {name: f0, policy: fp, cpus: [0]}
  - {name: pe, policy: edf, cpus: [1, 2], partition: HEUR}
threads:
"""


# --- bad files -----------------------------------------------------------------------------

def test_at_least_a_dozen_bad_files() -> None:
    assert len(BAD) >= 12


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_config_is_rejected_with_a_clear_line(path: Path) -> None:
    with pytest.raises(ConfigError) as ei:
        load_resolved(path)
    lines = ei.value.lines()
    want = expected(path)
    assert any(want in line for line in lines), "\n".join(lines)
    for line in lines:
        assert line.startswith(str(path)), line  # names the file
        assert "\n" not in line


@pytest.mark.parametrize("path", BAD[:4], ids=[p.stem for p in BAD[:4]])
def test_cli_exit_code_2_without_traceback(path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    assert main(["config", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert expected(path) in err
    assert "Traceback" not in err
    assert all(line.startswith("error: ") for line in err.splitlines())


def test_error_line_number_points_at_the_field(tmp_path: Path) -> None:
    p = write(tmp_path, BASE.replace("HEUR", "first-fit")
              + "  - {name: a, entry: app_fir, cpu: 0, period_ms: 10, wcet_ms: 1}\n"
              + "  - {name: b, entry: app_fir, cpu: 7, period_ms: 10, wcet_ms: 1}\n")
    with pytest.raises(ConfigError) as ei:
        load_resolved(p)
    (line,) = ei.value.lines()
    assert line.startswith(f"{p}:9: threads[1].scheduler: no scheduler owns cpu 7")


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_resolved(tmp_path / "nope.yaml")


# --- good files ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", GOOD, ids=[p.stem for p in GOOD])
def test_good_config_generates_c_that_compiles(path: Path, tmp_path: Path) -> None:
    system = load_resolved(path)
    files = write_outputs(system, tmp_path)
    c = tmp_path / "pt_config.c"
    assert c in files
    if shutil.which(CC) is None:
        pytest.fail(f"{CC} missing: run scripts/bootstrap.sh")
    proc = subprocess.run([CC, "-ffreestanding", "-std=c11", "-Wall", "-Wextra", "-Werror",
                           "-fsyntax-only", f"-I{ROOT / 'kernel/include'}", str(c)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    again = Resolved.model_validate_json((tmp_path / "pt_config.json").read_text())
    assert again == system
    assert generate_c(again) == c.read_text()


def test_demo_shape() -> None:
    demo = load_resolved(ROOT / "configs/demo.yaml")
    assert demo.ncpus == 4
    assert len(demo.threads) >= 12
    policies = {s.policy for s in demo.scheds}
    assert {"fp", "gedf"} <= policies
    entries = {t.entry for t in demo.threads}
    assert entries == {"app_fir", "app_iir", "app_matmul", "app_fft", "app_table_lookup",
                       "app_bitmanip"}
    assert any(demo.partitions[t.partition].user for t in demo.threads)
    assert 2e9 <= demo.run_for_ns <= 5e9


def test_outputs_untouched_when_unchanged(tmp_path: Path) -> None:
    system = load_resolved(ROOT / "configs/demo.yaml")
    write_outputs(system, tmp_path)
    c = tmp_path / "pt_config.c"
    before = c.stat().st_mtime_ns
    write_outputs(system, tmp_path)
    assert c.stat().st_mtime_ns == before


def test_defaults_and_dm_priorities(tmp_path: Path) -> None:
    p = write(tmp_path, """
name: t
ncpus: 1
run_for_ms: 2.5
schedulers: [{name: f, policy: fp, cpus: [0], rr_slice_us: 500}]
threads:
  - {name: slow, entry: app_fir, period_ms: 20, wcet_ms: 1}
  - {name: fast, entry: app_fir, period_ms: 5, wcet_ms: 1}
  - {name: tight, entry: app_fir, period_ms: 50, deadline_ms: 4, wcet_ms: 1}
  - {name: fixed, entry: app_fir, period_ms: 50, wcet_ms: 1, priority: 3}
  - {name: bg, entry: app_iir, kind: aperiodic, priority: 200}
""")
    r = load_resolved(p)
    prio = {t.name: t.priority for t in r.threads}
    assert prio["fixed"] == 3 and prio["bg"] == 200
    assert prio["tight"] < prio["fast"] < prio["slow"]  # deadline-monotonic
    assert r.run_for_ns == 2_500_000
    assert r.scheds[0].rr_slice_ns == 500_000
    t = {t.name: t for t in r.threads}
    assert t["slow"].deadline_ns == 20_000_000 and t["slow"].stack_bytes == 8192
    assert t["bg"].period_ns == 0 and t["bg"].task() is None
    assert t["tight"].task() == Task(name="tight", wcet_ns=1_000_000, period_ns=50_000_000,
                                     deadline_ns=4_000_000, priority=prio["tight"])
    assert r.partitions[0].name == "system" and t["slow"].partition == 0
    assert r.cache.hw_colors == 1 and r.cache.colors == 1


def test_cache_colors(tmp_path: Path) -> None:
    p = write(tmp_path, """
name: t
ncpus: 1
cache: {size_bytes: 8388608, ways: 16, line_bytes: 64, page_bytes: 4096, colors: 32}
kernel_colors: [0]
schedulers: [{name: f, policy: fp, cpus: [0]}]
partitions: [{name: a, colors: [1, "4-5"]}]
""")
    r = load_resolved(p)
    assert r.cache.hw_colors == 128 and r.cache.colors == 32
    assert r.partitions[1].colors == [1, 4, 5]
    assert r.kernel_colors == [0]
    assert "0x0000000000000032ull" in generate_c(r)


# --- P-EDF ---------------------------------------------------------------------------------

def _threads(wcets_ms: list[int]) -> str:
    return "".join(f"  - {{name: t{i}, entry: app_fir, scheduler: pe, period_ms: 10, "
                   f"wcet_ms: {c}}}\n" for i, c in enumerate(wcets_ms))


@pytest.mark.parametrize("heur, want", [
    # decreasing order: t0 (0.5), t1 (0.4), t2 (0.3), t3 (0.2)
    ("first-fit", {"t0": 1, "t1": 1, "t2": 2, "t3": 2}),
    ("best-fit", {"t0": 1, "t1": 1, "t2": 2, "t3": 2}),
    ("worst-fit", {"t0": 1, "t1": 2, "t2": 2, "t3": 1}),
])
def test_pedf_heuristics(tmp_path: Path, heur: str, want: dict[str, int]) -> None:
    r = load_resolved(write(tmp_path, BASE.replace("HEUR", heur) + _threads([5, 4, 3, 2])))
    got = {t.name: t.cpu for t in r.threads}
    assert got == want
    assert [s.name for s in r.scheds] == ["f0", "pe@1", "pe@2"]
    for t in r.threads:
        assert r.scheds[t.sched].cpus == [t.cpu] and r.scheds[t.sched].policy == "edf"


def test_three_heuristics_differ() -> None:
    ts = [Task(name=f"t{i}", wcet_ns=c, period_ns=100) for i, c in enumerate([68, 42, 36, 13, 7])]
    # first-fit: 68->c0, 42->c1 (no room on c0), 36->c1 (.78), 13->c0 (.81), 7->c0 (.88)
    assert assign(ts, [0, 1], "first-fit") == {"t0": 0, "t1": 1, "t2": 1, "t3": 0, "t4": 0}
    # best-fit: 13 and 7 go to the fuller cpu that still fits: c1 (.78 -> .91 -> .98)
    assert assign(ts, [0, 1], "best-fit") == {"t0": 0, "t1": 1, "t2": 1, "t3": 1, "t4": 1}
    # worst-fit: always the emptier cpu: 13->c0 (.68 < .78), 7->c1 (.78 < .81)
    assert assign(ts, [0, 1], "worst-fit") == {"t0": 0, "t1": 1, "t2": 1, "t3": 0, "t4": 1}


def test_pedf_pins_are_honoured(tmp_path: Path) -> None:
    text = BASE.replace("HEUR", "first-fit") + _threads([5, 4]) + (
        "  - {name: pin, entry: app_fir, scheduler: pe, cpu: 1, period_ms: 10, wcet_ms: 6}\n")
    r = load_resolved(write(tmp_path, text))
    got = {t.name: t.cpu for t in r.threads}
    assert got["pin"] == 1
    assert got["t0"] == 2 and got["t1"] == 1  # t0 (0.5) no longer fits next to the pin


def test_pedf_failure_names_first_misfit(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as ei:
        load_resolved(write(tmp_path, BASE.replace("HEUR", "worst-fit") + _threads([7, 6, 5])))
    (line,) = ei.value.lines()
    assert "threads[2]" in line and "thread 't2'" in line


def test_pedf_constrained_deadlines_use_density_or_exact_test() -> None:
    a = Task(name="a", wcet_ns=2, period_ns=10, deadline_ns=4)
    b = Task(name="b", wcet_ns=2, period_ns=10, deadline_ns=5)
    assert edf_fits([a, b])  # density 0.9
    c = Task(name="c", wcet_ns=3, period_ns=10, deadline_ns=3)
    # density 1.9, yet U = 0.7: feasible only if the demand never exceeds supply: h(3)=3,
    # h(4)=5 > 4 -> infeasible by every test
    assert not edf_fits([a, b, c])


tasks_st = st.lists(
    st.builds(lambda c, t: (c, t), st.integers(1, 50), st.integers(50, 200)),
    min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(tasks_st, st.sampled_from(["first-fit", "best-fit", "worst-fit"]), st.integers(1, 4))
def test_partitioning_is_sound(spec: list[tuple[int, int]], heur: str, ncpu: int) -> None:
    ts = [Task(name=f"t{i}", wcet_ns=c, period_ns=t) for i, (c, t) in enumerate(spec)]
    cpus = list(range(ncpu))
    try:
        got = assign(ts, cpus, heur)
    except NoFit as e:
        assert e.task.name in {t.name for t in ts}
        # decreasing first-fit never fails below the utilization bound m*(... ) >= 1 per cpu
        assert sum(t.utilization for t in ts) > 0.5
        return
    assert set(got) == {t.name for t in ts}
    for c in cpus:
        assert edf_fits([t for t in ts if got[t.name] == c])


# --- units ---------------------------------------------------------------------------------

def test_units() -> None:
    assert to_ns(10, "ms", "x") == 10_000_000
    assert to_ns("2.5", "us", "x") == 2_500
    assert to_ns(0.001, "ms", "x") == 1_000
    assert to_ns(3, "s", "x") == 3_000_000_000
    with pytest.raises(UnitError, match="whole number"):
        to_ns(0.5, "ns", "x")
    with pytest.raises(UnitError, match="expected a number"):
        to_ns(True, "ms", "x")
    d = {"period_us": 250, "other": 1}
    assert pop_duration(d, "period") == 250_000 and d == {"other": 1}
    assert pop_duration(d, "period") is None
    with pytest.raises(UnitError, match="only one"):
        pop_duration({"a_ms": 1, "a_s": 1}, "a")
    assert format_ns(1_500_000) == "1.5 ms" and format_ns(12) == "12 ns"


@given(st.integers(0, 10**6), st.sampled_from(sorted(UNITS)))
def test_units_roundtrip(n: int, unit: str) -> None:
    d = {f"x_{unit}": n}
    assert pop_duration(d, "x") == n * UNITS[unit]


@given(st.integers(50, 10**7))  # from PT_MIN_PERIOD_NS (50 us)
def test_yaml_units_agree(n_us: int) -> None:
    from partita.config import loader

    def period(key: str, value: float) -> int:
        raw, node = loader.parse_text(
            "name: t\nncpus: 1\nschedulers: [{name: f, policy: fp, cpus: [0]}]\n"
            f"threads: [{{name: a, entry: f, {key}: {value}, wcet_ns: 1}}]\n", "x.yaml")
        return loader.validate(raw, node, "x.yaml").threads[0].task.period_ns  # type: ignore

    assert period("period_us", n_us) == period("period_ns", n_us * 1000)
    if n_us % 1000 == 0:
        assert period("period_ms", n_us // 1000) == n_us * 1000


def test_pt_config_json_is_plain_json(tmp_path: Path) -> None:
    write_outputs(load_resolved(ROOT / "configs/demo.yaml"), tmp_path)
    doc = json.loads((tmp_path / "pt_config.json").read_text())
    assert {"threads", "scheds", "partitions", "cpus", "cache"} <= set(doc)
