"""`partita run` as a CI gate (issue 11, item 2): non-zero exit on deadline misses, budget
aborts, bound violations, a kernel panic, or a guest killed by the host timeout (with the
likely cause named); `--allow-misses` for configurations meant to miss."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from partita.run.run import RunResult, gate
from partita.trace.stats import TaskStats

ROOT = Path(__file__).resolve().parents[3]
KSTACK = Path(__file__).resolve().parent.parent / "api" / "kstack.yaml"  # the api subject's


def _partita(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "partita.cli", *map(str, args)], cwd=ROOT,
                          check=False,
                          capture_output=True, text=True, timeout=900)


def test_misses_and_budget_aborts_fail_unless_allowed(boot: Callable[..., RunResult]) -> None:
    r = boot("sys_miss")
    why = gate(r)
    assert any("deadline miss" in w and "m_rec" in w and "--allow-misses" in w for w in why), why
    assert any("aborted at their budget" in w and "b_cut" in w for w in why), why
    assert gate(r, allow_misses=True) == []


def test_a_clean_run_passes(boot: Callable[..., RunResult]) -> None:
    assert gate(boot("sys_fp")) == []


def test_a_job_above_its_bound_fails_even_with_allow_misses(
        boot: Callable[..., RunResult]) -> None:
    r = boot("sys_fp")
    st = r.stats["low"]
    assert st.max_response_ns is not None
    tight = TaskStats(**{**st.__dict__, "bound_ns": st.max_response_ns - 1})
    fake = RunResult(r.build, r.out, r.boot, r.area, r.timeline, {**r.stats, "low": tight})
    why = gate(fake, allow_misses=True)
    assert len(why) == 1 and "above their analysis bound" in why[0] and "low" in why[0], why


def test_cli_exit_codes_and_panic(tmp_path: Path) -> None:
    p = _partita("run", KSTACK, "--out", tmp_path / "k", "--quiet",
                 "--no-png")
    assert p.returncode == 1, p.stderr
    assert "error: t_kstack: kernel panic: KERNEL PANIC cpu=" in p.stderr, p.stderr


def test_host_timeout_names_a_forgotten_run_for_ms(tmp_path: Path) -> None:
    cfg = tmp_path / "gate_forever.yaml"
    cfg.write_text((Path(__file__).resolve().parent.parent / "fp" / "sys_fp.yaml").read_text()
                   .replace("name: sys_fp", "name: gate_forever")
                   .replace("run_for_ms: 200\n", ""))
    p = _partita("run", cfg, "--out", tmp_path / "f", "--quiet", "--no-png", "--timeout", "3")
    assert p.returncode == 1, p.stderr
    line = next(ln for ln in p.stderr.splitlines() if "host timeout" in ln)
    assert "gate_forever: QEMU was killed by the host timeout" in line
    assert "no run_for_ms" in line
