"""Property-based fuzzing of `partita config` (issue 7): on any mutated file it never raises
anything but a ConfigError (one line per problem, naming file and field), and every
configuration it accepts is within the kernel's limits and generates C whose integer literals
fit their types. Bounded and derandomized here; `make fuzz-host` runs many more examples."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fuzz_config import mutated_text
from hypothesis import HealthCheck, given, settings
from partita import limits
from partita.cli import main
from partita.config import ConfigError, Resolved, load_resolved
from partita.config.gen import generate_c

FUZZ = int(os.environ.get("PARTITA_FUZZ_EXAMPLES", "0"))
FUZZ_SETTINGS = settings(max_examples=FUZZ or 200, derandomize=True, deadline=None,
                         suppress_health_check=list(HealthCheck))


def assert_within_limits(r: Resolved) -> None:
    """What the kernel needs of every configuration `config` accepts."""
    assert 1 <= r.ncpus <= limits.PT_MAX_CPUS
    assert len(r.threads) + r.ncpus <= limits.PT_MAX_THREADS
    assert len(r.partitions) <= limits.PT_MAX_PARTITIONS
    assert len(r.scheds) <= limits.PT_MAX_SCHEDS
    assert limits.PT_MIN_RAM_MB <= r.ram_mb <= limits.PT_MAX_RAM_MB
    assert 0 <= r.run_for_ns < limits.PT_MAX_DURATION_NS
    pages = 0
    for t in r.threads:
        for v in (t.period_ns, t.deadline_ns, t.offset_ns, t.wcet_ns, t.jitter_ns):
            assert 0 <= v < limits.PT_MAX_DURATION_NS
        if t.kind != "aperiodic":
            assert t.period_ns >= limits.PT_MIN_PERIOD_NS
        assert limits.PT_MIN_STACK_BYTES <= t.stack_bytes <= limits.PT_MAX_STACK_BYTES
        assert 0 <= t.priority < limits.PT_PRIO_LEVELS
        assert 0 <= t.arg < 2**64
        pages += t.stack_bytes // 4096 + 2
    for p in r.partitions:
        assert 0 <= p.heap_bytes <= limits.PT_MAX_HEAP_BYTES
        pages += -(-p.heap_bytes // 4096)
    assert pages <= limits.pool_bytes(r.ram_mb) // 4096
    for s in r.scheds:
        assert s.rr_slice_ns == 0 or s.rr_slice_ns >= limits.PT_MIN_PERIOD_NS
    c = generate_c(r)
    for lit in re.findall(r"= (\d+)(ull|u)?\b", c):  # every field initialiser fits its type
        bits = {"ull": 64, "u": 32, "": 31}[lit[1]]
        assert int(lit[0]) < 2**bits, lit


@FUZZ_SETTINGS
@given(mutated_text())
def test_fuzz_config_never_crashes_and_accepts_only_valid(
        tmp_path_factory: pytest.TempPathFactory, text: bytes) -> None:
    path = tmp_path_factory.getbasetemp() / "fuzz.yaml"
    path.write_bytes(text)
    try:
        r = load_resolved(path)
    except ConfigError as e:
        for line in e.lines():
            assert line.startswith(str(path)), line
            assert "\n" not in line
        return
    assert_within_limits(r)


def test_cli_exit_code_2_on_fuzz_like_input(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        "nonutf8.yaml": b"name: \xff\xfe\n",
        "deep.yaml": b"a: " + b"[" * 600 + b"]" * 600 + b"\n",
        "deepmap.yaml": b"".join(b"  " * i + b"k:\n" for i in range(600)),
        "dup.yaml": b"name: a\nname: b\nschedulers: []\n",
    }
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        code = main(["config", "--check", str(p)])
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert "Traceback" not in err
        assert all(line.startswith(f"error: {p}") for line in err.splitlines()), err
