"""Device interrupts in the threads' priority space (irq.c, docs/interrupts.md).

Everything here is deterministic under icount: the flood's device is the RTC alarm on the
virtual clock (partita run starts QEMU with -rtc clock=vm), the latency program raises the
UART's transmitter-empty interrupt itself. Only the receive test takes host input, and it
checks only that the line arrives through the interrupt path.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from partita.run.build import build
from partita.run.qemu import _fresh_ram, command
from partita.run.run import RunResult
from partita.subsys.spm.traffic import run_lockstep

HERE = Path(__file__).resolve().parent
JOBS = 10  # jobs of `high` the flood program reports on
TRAP_BOUND_CYCLES = 1500  # interrupt -> handler thread's first instruction (measured: 775-1,081)


def _responses(r: RunResult, name: str) -> list[int]:
    tl = r.timeline
    assert tl is not None, r.describe()
    tid = tl.tid_of(name)
    jobs = tl.jobs[tid]
    return [jobs[k].response_ns for k in sorted(jobs) if jobs[k].response_ns is not None]


def _flood_line(r: RunResult) -> dict[str, int]:
    for ln in (r.out / "print.log").read_text().splitlines():
        if "irq-flood:" in ln:
            words = ln.split("irq-flood:")[1].split()
            return {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    raise AssertionError(f"no irq-flood line\n{r.describe()}")


def _spans(r: RunResult) -> list[int]:
    return [int(ln.split("irq-flood-span:")[1]) for ln in
            (r.out / "print.log").read_text().splitlines() if "irq-flood-span:" in ln]


def test_low_priority_flood_delays_high_thread_by_zero_cycles(
        boot: Callable[..., RunResult]) -> None:
    quiet, follow, off = boot("irq_flood_quiet"), boot("irq_flood_follow"), boot("irq_flood_off")
    for r in (quiet, follow, off):
        assert r.ok, r.describe()
    fq, ff, fo = _flood_line(quiet), _flood_line(follow), _flood_line(off)
    assert fq["handled"] == 0 and ff["handled"] > 100 and fo["handled"] > 100
    # unified space: the controller holds the low-priority source while `high` runs
    assert ff["traps_in_jobs"] == 0
    # threshold off: the same flood traps into (nearly) every job of `high`
    assert fo["traps_in_jobs"] >= JOBS - 1
    # each job, first to last instruction, takes exactly as long as without any device
    # interrupt; with the threshold off the flood's trap is in it
    sq, sf, so = _spans(quiet), _spans(follow), _spans(off)
    print("spans quiet ", sq, "\nspans follow", sf, "\nspans off   ", so)
    assert len(sq) == len(sf) == len(so) == JOBS
    assert sf == sq
    assert sum(o > q for o, q in zip(so, sq, strict=True)) >= JOBS - 1
    # Response times (release to completion) also carry the release's timer delivery, which
    # QEMU 7.2's CLINT places up to 100 ns late depending on when mtimecmp was last written
    # (docs/interrupts.md): they agree with the quiet run within about that (measured: up to
    # 100 cycles apart), not to the cycle. Two ticks is the bound asserted.
    rq, rf = (_responses(r, "high")[:JOBS] for r in (quiet, follow))
    print("responses quiet ", rq, "\nresponses follow", rf)
    assert all(abs(f - q) <= 200 for f, q in zip(rf, rq, strict=True)), (rf, rq)


def _lat(r: RunResult) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"isr": [], "thread": []}
    for ln in (r.out / "print.log").read_text().splitlines():
        if "irq-lat " in ln:
            head, vals = ln.split("irq-lat ")[1].split(":")
            out[head.split()[0]] += [int(v) for v in vals.split()]
    return out


def test_high_priority_interrupt_preempts_low_thread_within_bound(
        boot: Callable[..., RunResult]) -> None:
    for cfg in ("irq_lat_dedicated", "irq_lat_full"):
        r = boot(cfg)
        assert r.ok, r.describe()
        lat = _lat(r)
        assert len(lat["isr"]) == len(lat["thread"]) == 40, lat
        assert max(lat["thread"]) <= TRAP_BOUND_CYCLES, (cfg, lat["thread"])
        assert statistics.pstdev(lat["isr"]) == 0, (cfg, lat["isr"])  # deterministic
        assert 0 < min(lat["isr"]) < min(lat["thread"])


def test_dedicated_context_reaches_the_isr_sooner(boot: Callable[..., RunResult]) -> None:
    ded, full = _lat(boot("irq_lat_dedicated")), _lat(boot("irq_lat_full"))
    assert max(ded["isr"]) < min(full["isr"]), (ded["isr"][:3], full["isr"][:3])


def test_uart_receive_interrupt_wakes_handler(tmp_path: Path) -> None:
    b = build(HERE / "irq_rx.yaml", quiet=True)
    _fresh_ram(b.ram_file, 128)
    cmd = command(b.elf, b.ram_file, 128, 1, 0)
    log = tmp_path / "console.log"
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        assert p.stdin is not None
        try:
            deadline = time.monotonic() + 300  # start-up and delivery limits only
            while b"irq-rx: ready" not in log.read_bytes():
                assert p.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "guest did not start"
                time.sleep(0.1)
            p.stdin.write(b"partita\r")
            p.stdin.flush()
            while b"irq-rx: got" not in log.read_bytes():
                assert p.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "no receive interrupt\n" + log.read_text()
                time.sleep(0.1)
        finally:
            p.kill()
            p.wait()
    text = log.read_text()
    assert "irq: source 10 -> thread rx" in text
    assert "irq-rx: got 'partita'" in text


def test_virtio_net_receive_is_interrupt_driven(tmp_path: Path) -> None:
    """Stop-and-wait UDP echo through the `net0` handler thread: whatever the host's pace,
    every payload comes back, and the guest took receive interrupts to do it."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    b = build(HERE / "irq_net.yaml", quiet=True)
    _fresh_ram(b.ram_file, 128)
    cmd = command(b.elf, b.ram_file, 128, 1, 0) + [
        "-netdev", f"user,id=n0,hostfwd=udp:127.0.0.1:{port}-:5555",
        "-device", "virtio-net-device,netdev=n0"]
    log = tmp_path / "console.log"
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 300
            while b"irq-net: ready" not in log.read_bytes():
                assert p.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "guest did not start"
                time.sleep(0.1)
            r = run_lockstep("127.0.0.1", port, 20, alive=lambda: p.poll() is None)
            while b"irq-net: echoed 20" not in log.read_bytes() and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            p.kill()
            p.wait()
    text = log.read_text()
    assert r.errors == [], text
    assert (r.sent, r.echoed) == (20, 20)
    assert "irq: source" in text and "-> thread net" in text
    assert "irq-net: echoed 20 after" in text, text
