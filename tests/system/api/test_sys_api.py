"""The native API end to end (api_test.c: create, delete, suspend, resume,
set-priority, semaphores with timeouts, mutex priority inheritance, cross-core message
queues, user-mode system calls), bad system-call arguments, and a kernel stack overflow."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from partita.run.run import RunResult, run_config

TEST_CONFIGS = Path(__file__).resolve().parent


def test_every_api_check_passes(boot: Callable[..., RunResult]) -> None:
    r = boot(str(TEST_CONFIGS / "api.yaml"))
    console = r.boot.console
    fails = [ln for ln in console.splitlines() if ln.startswith("api: FAIL")]
    assert not fails, fails
    done = re.search(r"api: done pass=(\d+) fail=(\d+)", console)
    assert done, r.describe()
    passed = int(done.group(1))
    assert done.group(2) == "0"
    # every check that ran printed its own line: the count cannot be satisfied by a short run
    assert passed == len(re.findall(r"^api: ok ", console, re.MULTILINE)) >= 20


def test_bad_syscall_arguments_are_refused_and_kernel_writes_stopped(
        boot: Callable[..., RunResult]) -> None:
    r = boot(str(TEST_CONFIGS / "smoke.yaml"))
    console = r.boot.console
    assert "test_bad_syscalls: OK" in console, r.describe()
    fault = re.search(r"FAULT thread=badwrite cause=(\w+) addr=(0x[0-9a-f]+)", console)
    assert fault and fault.group(1) == "store_page_fault", r.describe()
    # the other user threads kept running after the fault
    assert console.count("test_user_tick: 100 jobs") >= 1
    assert r.stats["bits_u"].completed >= 40


def test_kernel_stack_overflow_panics_naming_the_thread(tmp_path: Path) -> None:
    # Kernel faults are not contained (by design): the guard page turns the overflow into a
    # panic that names the thread and the stack, and the guest exits with code 3.
    r = run_config(TEST_CONFIGS / "kstack.yaml", tmp_path, png=False, bounds=False)
    assert r.boot.returncode == 3, r.describe()
    m = re.search(r"KERNEL PANIC cpu=\d thread=(\w+) kernel stack overflow .*stack=\[(0x[0-9a-f]+),"
                  r"(0x[0-9a-f]+)\)", r.boot.console)
    assert m and m.group(1) == "k_ovf", r.describe()


def test_application_globals_are_private_to_each_partition(
        boot: Callable[..., RunResult]) -> None:
    # the same global, written by partition A (1000) and then by B (2000): each user partition
    # sees only its own copy, the kernel partition the image's; a PT_SHARED flag is common
    r = boot(str(TEST_CONFIGS / "isolation.yaml"))
    seen = dict(re.findall(r"^iso: (\w+) counter=(\d+)$", r.boot.console, re.MULTILINE))
    assert seen == {"reader": "7", "writer": "1000", "kernel": "7"}, r.describe()


def test_mutex_of_a_cut_off_owner_goes_on_with_eownerdead(
        boot: Callable[..., RunResult]) -> None:
    # owners cut off by budget enforcement (a waiter is queued) and by deletion (nobody
    # waits: the next locker is told); afterwards each mutex locks normally again
    r = boot(str(TEST_CONFIGS / "robust.yaml"))
    got = {k: int(v) for k, v in re.findall(r"^robust: (\w+) (-?\d+)$", r.boot.console,
                                             re.MULTILINE)}
    eownerdead = -8  # PT_EOWNERDEAD, kernel/include/partita/api.h
    assert got == {"budget_lock": eownerdead, "budget_unlock": 0, "budget_relock": 0,
                   "delete": 0, "deleted_lock": eownerdead, "deleted_unlock": 0}, r.describe()
    assert r.stats["r_budget"].budget_stops >= 1


def test_report_after_a_panic_gives_the_exit_code(tmp_path: Path) -> None:
    # pt_panic records exit code 1 in the trace area before powering off (issue 7 item 9):
    # the header says so (not just the SHUTDOWN record), and so does the report
    from partita.run.report import exit_text

    r = run_config(TEST_CONFIGS / "panic.yaml", tmp_path, png=False, bounds=False)
    assert "PANIC: test_panic: deliberate panic" in r.boot.console, r.describe()
    assert r.area is not None and r.timeline is not None, r.describe()
    assert r.area.exit_code == 1
    assert exit_text(r.timeline).startswith("1 (kernel panic)")
    assert r.boot.returncode != 0
