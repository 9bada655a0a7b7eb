"""Issue 7's holes stay closed (hostile.c, hostile.yaml).

A user partition `attacker` replays each attack the fuzzing campaign found; partition `victim`
shares its harts. Every attack must fail with the documented error, the kernel must not
panic, the victims must keep their deadlines and their memory, and nothing the kernel
counted (misses, budget stops) may be missing from the trace.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from partita.run.run import RunResult
from partita.trace.format import Ev

TEST_CONFIGS = Path(__file__).resolve().parent
STOP_BUDGET = 3  # enum pt_stop_reason

EXPECTED_CHECKS = {
    # 1. ids re-used under a blocked caller; buffers checked when copied
    "mq_new_id_differs", "mq_fresh_send", "mq_recv_stale_id_edeleted", "mq_stale_id_einval",
    "mq_send_stale_id_no_transfer", "mq_send_stale_id_edeleted", "sem_stale_id_einval",
    "mutex_stale_id_einval", "mq_short_buffer", "mq_message_kept",
    # 2. degenerate periods
    "degenerate_periods_einval", "offset_overflow_einval", "wcet_above_period",
    # 3. rights
    "create_other_scheduler_eperm", "create_priority0_eperm", "aperiodic_above_victims_eperm",
    "set_priority_above_range_eperm", "set_priority_aperiodic_above_victims",
    "set_priority_in_range", "rt_within_budget", "rt_over_budget", "budget_returned_on_delete",
    # 4. quotas
    "sem_quota", "mutex_quota", "mq_quota", "mq_bytes_quota", "thread_quota",
    "victim_quota_intact", "mq_storage_no_fragmentation",
    # 5. trace flooding, 6. timeouts
    "trace_marks_budgeted", "huge_timeouts_wait", "huge_timeouts_given",
    "victim_memory_intact",
}


@pytest.fixture(scope="module")
def run(session_boot: Callable[..., RunResult]) -> RunResult:
    # session_boot: `boot` is per test (it may switch the fixed-priority implementation)
    return session_boot(str(TEST_CONFIGS / "hostile.yaml"))


def kernel_counts(console: str) -> dict[str, dict[str, int]]:
    """The kernel's own per-task counters (its end-of-run summary)."""
    out = {}
    for m in re.finditer(r"^task (\w+) jobs=(\d+) misses=(\d+) overruns=(\d+) budget=(\d+)",
                         console, re.MULTILINE):
        out[m.group(1)] = {"done": int(m.group(2)), "miss": int(m.group(3)),
                           "overrun": int(m.group(4)), "budget": int(m.group(5))}
    return out


def test_every_attack_fails_as_documented(run: RunResult) -> None:
    console = run.boot.console
    assert "KERNEL PANIC" not in console and run.boot.returncode == 0, run.describe()
    ok = set(re.findall(r"^hostile: ok (\w+)$", console, re.MULTILINE))
    failed = re.findall(r"^hostile: FAIL (\w+)$", console, re.MULTILINE)
    assert not failed, failed
    assert ok == EXPECTED_CHECKS, sorted(EXPECTED_CHECKS ^ ok)
    assert "hostile: done pass=30 fail=0" in console, run.describe()


def test_victims_keep_their_deadlines(run: RunResult) -> None:
    counts = kernel_counts(run.boot.console)
    for name in ("v_fast", "v_low", "v_other"):
        assert counts[name]["miss"] == 0 and counts[name]["overrun"] == 0, (name, counts[name])
        assert run.stats[name].misses == 0
        # they ran the whole time: 120 ms of 0.5 ms / 2 ms periods
        assert counts[name]["done"] >= (55 if name == "v_low" else 235), (name, counts[name])


def test_budget_of_a_created_thread_is_enforced_and_traced(run: RunResult) -> None:
    # rt_spin spins in every job above v_low: its budget stops are what kept v_low's deadlines
    assert run.timeline is not None
    tid = run.timeline.tid_of("rt_spin")
    assert tid is not None
    stops = [p for p in run.timeline.points
             if p.kind == Ev.THREAD_STOP and p.tid == tid and p.arg0 == STOP_BUDGET]
    assert len(stops) >= 7  # one per job while it lived (8 ms of 1 ms periods)


def test_trace_flood_hides_no_miss(run: RunResult) -> None:
    tl = run.timeline
    assert tl is not None and tl.lost == 0
    counts = kernel_counts(run.boot.console)
    tid = tl.tid_of("v_late")
    traced = [p for p in tl.points if p.kind == Ev.DEADLINE_MISS and p.tid == tid]
    assert counts["v_late"]["miss"] >= 100
    assert len(traced) == counts["v_late"]["miss"] == run.stats["v_late"].misses
    # every mark the attacker was told was written is in the trace, and no more
    written = int(re.search(r"^hostile: marks_written=(\d+)$", run.boot.console,
                            re.MULTILINE).group(1))  # type: ignore[union-attr]
    marks = [p for p in tl.points if p.kind == Ev.MARK and p.arg0 == 0xF100D]
    assert len(marks) == written < 40000
