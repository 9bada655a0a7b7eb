"""A configuration at every kernel limit at once is accepted by `partita config` and boots:
16 partitions, 128 threads with the idle ones, 60 KiB stacks, a heap near the page pool."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from partita import limits
from partita.config import ConfigError, load_resolved
from partita.config.checks import check
from partita.config.loader import parse_text, validate
from partita.run.run import run_config

NCPUS = 2


def limit_config() -> str:
    users = limits.PT_MAX_PARTITIONS - 1  # plus the implicit system partition
    nthreads = limits.PT_MAX_THREADS - NCPUS
    parts = [f"  - {{name: p{i}, user: true, heap_bytes: {4096 if i else 12 << 20}}}"
             for i in range(users)]
    threads = []
    for i in range(nthreads):
        part = f"p{i}" if i < users else "system"
        stack = 8192 if i < users else limits.PT_MAX_STACK_BYTES
        threads.append(f"  - {{name: t{i}, entry: app_bitmanip, arg: 1, partition: {part}, "
                       f"period_ms: 50, wcet_us: 300, stack_bytes: {stack}}}")
    return "\n".join([
        "name: sys_limits", f"ncpus: {NCPUS}", "ram_mb: 64", "run_for_ms: 120",
        "schedulers: [{name: g, policy: gedf, cpus: [0, 1]}]", "partitions:", *parts,
        "threads:", *threads, ""])


def test_limit_config_is_at_the_limits() -> None:
    raw, node = parse_text(limit_config(), "x.yaml")
    cfg = validate(raw, node, "x.yaml")
    assert len(cfg.threads) + cfg.ncpus == limits.PT_MAX_THREADS
    assert len(cfg.partitions) + 1 == limits.PT_MAX_PARTITIONS
    # one more thread is refused
    more = limit_config() + "  - {name: extra, entry: app_fir, kind: aperiodic}\n"
    raw, node = parse_text(more, "x.yaml")
    with pytest.raises(ConfigError, match="PT_MAX_THREADS"):
        validate(raw, node, "x.yaml")
    assert check(cfg) == []


def test_limit_config_boots(tmp_path: Path) -> None:
    cfg = tmp_path / "sys_limits.yaml"
    cfg.write_text(limit_config())
    load_resolved(cfg)
    r = run_config(cfg, tmp_path / "out", png=False, bounds=False)
    assert r.ok, r.describe()
    assert "PANIC" not in r.boot.console
    # the page pool follows ram_mb (64 MiB here), not a hard-coded 256 MiB
    m = re.search(r"mm: (\d+) pages free", r.boot.console)
    assert m, r.describe()
    assert (64 - 16) << 20 <= int(m.group(1)) * 4096 <= 64 << 20, m.group(0)
    assert r.timeline is not None
    done = {r.timeline.name(t) for t, jobs in r.timeline.jobs.items()
            if any(j.complete_ns is not None for j in jobs.values())}
    assert len(done) == limits.PT_MAX_THREADS - NCPUS, sorted(done)
