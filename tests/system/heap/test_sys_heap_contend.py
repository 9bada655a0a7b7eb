"""Four harts grow one colored heap at the same instant (contend.yaml, contend_test.c).

Each growth holds the heap's spin lock with interrupts masked while the other harts wait on
it. Under QEMU icount the harts run in turns from one host thread; before the kernel's spin
locks paused (hal_spin_pause ends the waiter's turn), the waiters kept their turns and the
holder never ran again: no thread finished and the run ended at the host's time-out. Every
thread must finish, with its blocks intact, long before the end of the run."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from partita.run.run import RunResult

CFG = Path(__file__).resolve().parent / "contend.yaml"


def test_four_harts_growing_one_heap_all_finish(boot: Callable[..., RunResult]) -> None:
    r = boot(str(CFG))
    console = r.boot.console
    assert "FAIL" not in console, console
    done = {int(t): int(c) for t, c in re.findall(r"^contend: ok (\d) (\d+)$", console, re.MULTILINE)}
    assert sorted(done) == [0, 1, 2, 3], console
    # the four threads overlapped (they all started at the epoch) and finished inside the
    # 50 ms run (measured: 5.6 to 15.7 ms, depending on how the harts' turns fall); a hang
    # shows as missing lines, a near-hang as late finishes
    assert max(done.values()) < 40_000_000, done
