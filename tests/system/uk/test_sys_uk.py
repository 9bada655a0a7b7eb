"""The proxy kernel delegating to the user-level kernel (uk.yaml, uk_kill.yaml, ukapp.c;
docs/proxy-kernel.md): each service's results, the sandbox holding against hostile paths and
pointers, the real-time set keeping its deadlines with and without the UK, a missing UK
failing calls at once, a timeout, and the UK going away with a request pending."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from partita.run.run import RunResult, run_config
from partita.subsys.uk.launch import UkOptions
from partita.subsys.uk.report import counts

HERE = Path(__file__).resolve().parent
ENOUK, EDEAD, ETIMEOUT, EBADREQ = -32, -33, -35, -36
EPERM, ENOENT, EXDEV, EBADF = 1, 2, 18, 9
MSG = b"written by a Partita process through the UK\n"


def errno_code(e: int) -> int:
    return -1000 - e


def printed(r: RunResult) -> dict[str, list[str]]:
    """`uk KEY VALUE...` lines of print.log, by key."""
    out: dict[str, list[str]] = {}
    for line in (r.out / "print.log").read_text().splitlines():
        m = re.search(r": uk (\S+) ?(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2).split()
    return out


def ints(v: list[str]) -> list[int]:
    return [int(x) for x in v]


def rt_ok(r: RunResult, names: tuple[str, ...]) -> None:
    for n in names:
        s = r.stats[n]
        assert s.misses == 0 and s.completed > 0, (n, s)


@pytest.fixture(scope="module")
def sandboxes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A sandbox with an input file and two symlinks that point out of it, and the directory
    they point to (which must stay untouched)."""
    base = tmp_path_factory.mktemp("uk")
    box, outside = base / "sandbox", base / "outside"
    box.mkdir()
    outside.mkdir()
    (box / "in.txt").write_text("hello from the host")
    (box / "in.bin").write_bytes(random.Random(16).randbytes(10_000))
    (outside / "secret.txt").write_text("secret")
    (box / "link").symlink_to(outside)
    (box / "filelink").symlink_to(outside / "secret.txt")
    return box, outside


@pytest.fixture(scope="module")
def with_uk(sandboxes: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return run_config(HERE / "uk.yaml", tmp_path_factory.mktemp("uk_run"), png=False,
                      bounds=False, uk=UkOptions(sandbox=sandboxes[0]))


@pytest.fixture(scope="module")
def without_uk(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return run_config(HERE / "uk.yaml", tmp_path_factory.mktemp("uk_none"), png=False,
                      bounds=False)


def test_services_through_the_uk(with_uk: RunResult, sandboxes: tuple[Path, Path]) -> None:
    r = with_uk
    assert r.ok, r.describe()
    p = printed(r)
    pid = int(p["getpid_local"][0])
    assert pid > 0 and ints(p["getpid"]) == [pid]  # local and delegated agree
    assert ints(p["open_out"]) == [0]
    assert ints(p["write_total"]) == [3 * len(MSG)]
    assert ints(p["close"]) == [0]
    assert ints(p["read_back"]) == [3 * len(MSG), 1]
    assert ints(p["lseek"]) == [6] and ints(p["read_at6"]) == [4, 1]
    assert ints(p["close2"]) == [0] and ints(p["close_again"]) == [errno_code(EBADF)]
    assert ints(p["stat_in"]) == [0, len("hello from the host")]
    assert " ".join(p["in_txt"]) == "hello from the host"
    box, _ = sandboxes
    assert (box / "out.txt").read_bytes() == 3 * MSG  # the host file the process wrote
    # named pipe between two processes on two harts, a blocking read, then the end
    assert ints(p["pipe_w"]) == [0] and ints(p["pipe_r"]) == [0]
    assert p["pipe_data"] == ["ping0ping1ping2ping3", "0"]
    assert ints(p["client_done"]) == [1]
    rt_ok(r, ("rt_a", "rt_b"))
    c = counts(r.area)
    assert c["SEND"] == c["REPLY"] + c.get("TIMEOUT", 0) and c["SEND"] >= 30


def test_file_copier_example(with_uk: RunResult, sandboxes: tuple[Path, Path]) -> None:
    box, _ = sandboxes
    line = [ln for ln in (with_uk.out / "print.log").read_text().splitlines() if "ukcopy" in ln]
    assert line and line[0].split()[-3:] == ["bytes", "10000", "0"], line
    assert (box / "copy.bin").read_bytes() == (box / "in.bin").read_bytes()


def test_udp_echo_example(with_uk: RunResult) -> None:
    log = (with_uk.out / "print.log").read_text()
    assert "udpecho port 1" in log
    assert "udpclient ok 3" in log and "udpecho echoed 3" in log, log[-600:]


def test_sandbox_and_pointers_hold(with_uk: RunResult, sandboxes: tuple[Path, Path]) -> None:
    p = printed(with_uk)
    assert ints(p["dotdot"]) == [errno_code(EPERM)]
    assert ints(p["absolute"]) == [errno_code(EPERM)]
    assert ints(p["symlink"]) == [errno_code(EXDEV)]       # RESOLVE_BENEATH refuses
    assert ints(p["symlink_file"]) == [errno_code(EXDEV)]
    assert ints(p["kernel_ptr"]) == [EBADREQ]              # not the caller's memory
    assert ints(p["read_to_text"]) == [EBADREQ]            # read-only page: nothing written
    assert ints(p["bad_fd"]) == [errno_code(EBADF)]
    box, outside = sandboxes
    assert sorted(x.name for x in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "secret"
    assert not (box.parent / "escape.txt").exists()


def test_timeout_then_uk_still_serves(with_uk: RunResult) -> None:
    p = printed(with_uk)
    assert ints(p["pipe_never"]) == [0]
    code, waited_us = ints(p["timeout"])
    assert code == ETIMEOUT
    assert 20_000 <= waited_us <= 21_000  # uk.yaml: timeout_us 20000, poll_us 5
    assert int(p["after_timeout"][0]) == int(p["getpid_local"][0])


def test_without_uk_calls_fail_at_once(without_uk: RunResult) -> None:
    r = without_uk
    assert r.ok, r.describe()
    p = printed(r)
    assert int(p["getpid_local"][0]) > 0  # served by the PK alone
    for key in ("getpid", "open_out", "close", "stat_in", "pipe_w", "pipe_r", "after_timeout"):
        assert int(p[key][0]) == ENOUK, key
    assert int(p["timeout"][0]) == ENOUK and int(p["timeout"][1]) < 100  # no wait
    assert ints(p["client_done"]) == [1]
    rt_ok(r, ("rt_a", "rt_b"))
    c = counts(r.area)
    assert c["NOUK"] >= 15 and "SEND" not in c


@pytest.mark.parametrize("kill", [False, True], ids=["sigterm", "sigkill"])
def test_uk_gone_with_a_request_pending(kill: bool, tmp_path: Path) -> None:
    box = tmp_path / "box"
    r = run_config(HERE / "uk_kill.yaml", tmp_path / "run", png=False, bounds=False,
                   uk=UkOptions(sandbox=box, stop_when_parked=True, kill=kill))
    assert r.ok, r.describe()
    p = printed(r)
    assert ints(p["blocker_pipe"]) == [0]
    assert ints(p["blocker_read"]) == [EDEAD]  # woken with an error, not left hanging
    assert ints(p["blocker_after"]) == [ENOUK]
    rt_ok(r, ("rt_a",))
    assert counts(r.area).get("DEAD") == 1


def test_core_short_sleeps_on_two_harts(tmp_path: Path) -> None:
    """Regression test of the hang found while building the UK (sleephang.c): it reproduced
    on every run before main's 84fedfc was merged, and no longer does."""
    r = run_config(HERE / "sleephang.yaml", tmp_path, png=False, bounds=False)
    s = r.stats["rt_a"]
    assert s.misses == 0 and s.completed >= 55, s
