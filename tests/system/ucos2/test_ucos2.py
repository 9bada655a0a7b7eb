"""The µC/OS-II API layer (compat/ucos2) in QEMU: the test application of this directory
(µC/OS-II-style scenarios: tasks and the unique-priority rule, delays, the scheduler lock,
critical sections, semaphores, mailboxes, queues, PIP mutexes, event flags, memory partitions,
ISR-context calls, each with its OS_ERR_* codes) reports one line per check, in a kernel and
in a user partition; and a µC/OS-II world on one core beside a native partition on another,
both keeping their timing."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from partita.run.run import RunResult, gate, run_config

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
COMPAT = ROOT / "compat" / "ucos2"

# every check the sources make: a scenario that stops reporting fails the test
EXPECTED = {m.group(1) for src in sorted(HERE.glob("*.c"))
            for m in re.finditer(r'(?:UC_EQ|uc_check)\("(\w+)"', src.read_text())}


def checks_of(r: RunResult) -> dict[str, bool]:
    console = r.boot.console
    got = {m.group(2): m.group(1) == "ok"
           for m in re.finditer(r"^uc: (ok|FAIL) (\w+)", console, re.MULTILINE)}
    done = re.search(r"^uc: done pass=(\d+) fail=(\d+)$", console, re.MULTILINE)
    assert done, r.describe()
    assert int(done.group(1)) + int(done.group(2)) == len(got), r.describe()
    return got


def test_expected_checks_are_many() -> None:
    assert len(EXPECTED) > 200, len(EXPECTED)


@pytest.mark.parametrize("cfg", ["ucos2.yaml", "ucos2_user.yaml"])
def test_ucos2_programs_pass(boot: Callable[..., RunResult], cfg: str) -> None:
    # kernel partition, and user partition (every call a checked system call)
    r = boot(str(HERE / cfg))
    got = checks_of(r)
    failed = sorted(n for n, ok in got.items() if not ok)
    assert not failed, failed
    assert set(got) == EXPECTED, (sorted(EXPECTED - set(got)), sorted(set(got) - EXPECTED))
    fatal = re.findall(r"^ucos2: fatal: task \? \(tid (\d+)\): (.*)$", r.boot.console, re.MULTILINE)
    if cfg == "ucos2.yaml":  # the native thread `intruder` calls OSTimeDly: refused, stopped
        assert len(fatal) == 1 and "no task of the world" in fatal[0][1], r.describe()
        assert "uc: intruder went on" not in r.boot.console
    else:
        assert not fatal, fatal


def test_ucos2_world_and_native_partition_keep_their_timing(tmp_path: Path) -> None:
    r = run_config(HERE / "ucos2_native.yaml", tmp_path, png=False, bounds=True)
    assert r.ok, r.describe()
    assert gate(r) == [], gate(r)  # no miss, no budget abort, no job above its bound
    got = checks_of(r)
    assert all(got.values()), sorted(n for n, ok in got.items() if not ok)
    assert set(got) == EXPECTED
    assert got["time_dly_exact_ticks"] and got["time_dly_native_time"]
    # every native release in 300 ms completed: 60 jobs of 5 ms, 30 of 10 ms
    assert r.stats["fir_fast"].completed == 60 and r.stats["iir_ctl"].completed == 30, r.stats
    assert r.stats["fir_fast"].misses == 0 and r.stats["iir_ctl"].misses == 0


def _compile(tmp_path: Path, cfg: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "os_cfg.h").write_text(cfg)
    src = tmp_path / "app.c"
    src.write_text('#include "ucos_ii.h"\n')
    return subprocess.run(["riscv64-unknown-elf-gcc", "-fsyntax-only", "-ffreestanding", "-Wall",
                           "-Werror", f"-I{tmp_path}", f"-I{COMPAT}", f"-I{ROOT / 'kernel/include'}",
                           str(src)], check=False, capture_output=True, text=True)


@pytest.mark.parametrize("option, message", [
    ("#define OS_TASK_STAT_EN 1u", "statistic task"),
    ("#define OS_TICK_STEP_EN 1u", "no tick interrupt"),
    ("#define OS_APP_HOOKS_EN 1u", "no application hooks"),
    ("#define OS_CPU_HOOKS_EN 1u", "port hooks"),
    ("#define OS_TMR_EN 1u", "not implemented on Partita yet"),
    ("#define OS_EVENT_MULTI_EN 1u", "not implemented on Partita yet"),
    ("#define OS_TICKS_PER_SEC 3u", "must divide 10^9"),
    ("#define OS_LOWEST_PRIO 254u", "do not fit"),
    ("#define OS_LOWEST_PRIO 255u", "at most 254"),
])
def test_options_partita_cannot_honour_are_compile_errors(tmp_path: Path, option: str,
                                                          message: str) -> None:
    base = (HERE / "os_cfg.h").read_text()
    name = option.split()[1]
    lines = [ln for ln in base.splitlines() if not ln.startswith(f"#define {name} ")]
    p = _compile(tmp_path, "\n".join(lines).replace("#endif", f"{option}\n#endif"))
    assert p.returncode != 0 and message in p.stderr, p.stderr


def test_the_test_configuration_compiles_cleanly(tmp_path: Path) -> None:
    p = _compile(tmp_path, (HERE / "os_cfg.h").read_text())
    assert p.returncode == 0, p.stderr
