"""Host UDP traffic tool for the I/O bandwidth experiment (brief 0, paper §VII-B).

Sends 1 KiB UDP payloads carrying a flow id (0..3, round-robin) and a sequence number to the
guest's virtio-net (QEMU `-netdev user,hostfwd=udp:127.0.0.1:PORT-:5555`: reachable without
root, and the guest driver answers ARP and speaks IPv4/UDP), and counts the payloads that come
back (the loopback tasks echo them, with their own sequence stamp in bytes 4..7).

Three pacings:
- `run_lockstep`: stop-and-wait, the next payload leaves only when the previous one came back.
  The guest is never offered more than one packet, so the outcome (every payload echoed, in
  order, with its flow id) does not depend on how fast the host or QEMU runs: the data-path
  check of the system tests uses it.
- `run`: against the host clock (wall time). Under `-icount ...,sleep=off` guest virtual time
  and host time are unrelated, so how many packets the guest can echo depends on host load.
- `run_paced`: against the guest's virtual clock, read live from the shared RAM file
  (`GuestClock`: the I/O core publishes its clock in `pt_io_clock_ns` at every loop iteration,
  at least every 2 us while it polls the virtio device). Packet k leaves when the guest clock
  has reached start + k * period. QEMU keeps `sleep=off` (everything but the arrival instants
  stays deterministic); the price is that the guest does not wait for the host: a packet
  leaves at the first clock value the host sees at or after its due time, and when the host
  falls behind (a Python process sharing the CPUs with QEMU) the late packets leave back to
  back. Packets are never early. The guest-side arrival times (IO_RX trace events) show the
  offered traffic actually achieved; `partita.subsys.spm.netbw` reports it.

Payload layout (partita/io_flow.h pt_io_flow_of, subsys/io/net.c): [flow u32 LE][seq u32 LE]
[filler]. The in-guest synthetic source (`net: synthetic`) produces the same traffic exactly.

    python -m partita.subsys.spm.traffic --host 127.0.0.1 --port 5555 --seconds 5 --period-us 100
"""

from __future__ import annotations

import argparse
import mmap
import socket
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PAYLOAD_BYTES = 1024
FLOWS = 4


def payload(seq: int, nbytes: int = PAYLOAD_BYTES) -> bytes:
    head = struct.pack("<II", seq % FLOWS, seq & 0xFFFFFFFF)
    return head + bytes((seq + i) & 0xFF for i in range(nbytes - len(head)))


def flow_of(data: bytes) -> int | None:
    return struct.unpack_from("<I", data)[0] & 0xFFFF if len(data) >= 4 else None


@dataclass
class Result:
    sent: int
    received: int
    received_bytes: int
    seconds: float
    per_flow: dict[int, int]

    @property
    def bandwidth_bps(self) -> float:
        return self.received_bytes * 8 / self.seconds if self.seconds > 0 else 0.0


def run(host: str, port: int, seconds: float, period_us: float,
        nbytes: int = PAYLOAD_BYTES) -> Result:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setblocking(False)
    sock.bind(("0.0.0.0", 0))
    period = period_us / 1e6
    start = time.monotonic()
    next_send = start
    seq = sent = received = rbytes = 0
    per_flow: dict[int, int] = {}
    while True:
        now = time.monotonic()
        if now - start >= seconds:
            break
        if now >= next_send:
            sock.sendto(payload(seq, nbytes), (host, port))
            seq += 1
            sent += 1
            next_send += period
        try:
            data, _ = sock.recvfrom(65536)
        except BlockingIOError:
            time.sleep(min(period / 4, 0.0005))
            continue
        received += 1
        rbytes += len(data)
        f = flow_of(data)
        if f is not None:
            per_flow[f] = per_flow.get(f, 0) + 1
    return Result(sent, received, rbytes, time.monotonic() - start, per_flow)


@dataclass
class LockstepResult:
    sent: int                     # distinct payloads sent (not counting sends again)
    echoed: int                   # payloads that came back intact (same flow id and filler)
    per_flow: dict[int, int]
    errors: list[str] = field(default_factory=list)  # first few mismatches or time-outs


def run_lockstep(host: str, port: int, npackets: int, *, wait_s: float = 60.0,
                 resend_s: float = 1.0, alive: Callable[[], bool] = lambda: True,
                 nbytes: int = PAYLOAD_BYTES) -> LockstepResult:
    """Send `npackets` payloads one at a time, each only after the echo of the previous one.
    A payload without an echo after `resend_s` host seconds is sent again (QEMU's user network
    drops what arrives before the guest driver is ready, and a busy host can take long to get
    there); after `wait_s` the run stops and says so. Late echoes of an earlier payload are
    recognised by their filler and ignored. The loopback tasks overwrite bytes 4..7 with their
    own stamp; everything else must come back unchanged."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", 0))
    sock.settimeout(0.05)
    per_flow: dict[int, int] = {}
    errors: list[str] = []
    echoed = sent = 0
    earlier: set[bytes] = set()
    try:
        for seq in range(npackets):
            want = payload(seq, nbytes)
            sock.sendto(want, (host, port))
            sent += 1
            t0 = time.monotonic()
            t_resend = t0 + resend_s
            while True:
                now = time.monotonic()
                if now > t0 + wait_s or not alive():
                    errors.append(f"payload {seq}: no echo within {wait_s:g} s")
                    return LockstepResult(sent, echoed, per_flow, errors)
                if now > t_resend:
                    sock.sendto(want, (host, port))
                    t_resend = now + resend_s
                try:
                    data, _ = sock.recvfrom(65536)
                except TimeoutError:
                    continue
                if data[:4] == want[:4] and data[8:] == want[8:]:
                    break
                if data[:4] + data[8:] in earlier:
                    continue  # a late echo of a payload sent again
                errors.append(f"payload {seq}: echo differs (flow {flow_of(data)}, "
                              f"{len(data)} bytes)")
                return LockstepResult(sent, echoed, per_flow, errors)
            earlier.add(want[:4] + want[8:])
            echoed += 1
            per_flow[seq % FLOWS] = per_flow.get(seq % FLOWS, 0) + 1
    finally:
        sock.close()
    return LockstepResult(sent, echoed, per_flow, errors)


class GuestClock:
    """The guest's virtual time (ns), read live from its RAM file (QEMU memory-backend-file
    with share=on): the 8-byte mailbox `pt_io_clock_ns` of the I/O core."""

    def __init__(self, ram_file: Path, elf: Path, name: str = "pt_io_clock_ns") -> None:
        from partita.run.qemu import RAM_BASE, symbol

        addr, _ = symbol(elf, name)
        self._off = addr - RAM_BASE
        self._f = open(ram_file, "rb")  # noqa: SIM115 (closed in close())
        self._m = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ)

    def __call__(self) -> int:
        return int(struct.unpack_from("<Q", self._m, self._off)[0])

    def close(self) -> None:
        self._m.close()
        self._f.close()


@dataclass
class PacedResult:
    sent: int
    received: int
    received_bytes: int
    start_ns: int                 # guest clock when packet 0 left
    end_ns: int                   # guest clock when the last packet left
    per_flow: dict[int, int]
    late_ns: list[int] = field(default_factory=list)  # guest clock at send - due time

    @property
    def virtual_seconds(self) -> float:
        return (self.end_ns - self.start_ns) / 1e9


def run_paced(host: str, port: int, clock: Callable[[], int], period_ns: int, npackets: int,
              alive: Callable[[], bool] = lambda: True, drain_s: float = 1.0,
              nbytes: int = PAYLOAD_BYTES) -> PacedResult:
    """Send `npackets` payloads, packet k when the guest clock reaches start + k period_ns,
    counting the echoes; then wait `drain_s` (host time) for the last echoes."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setblocking(False)
    sock.bind(("0.0.0.0", 0))
    received = rbytes = 0
    per_flow: dict[int, int] = {}
    late: list[int] = []

    def poll() -> None:
        nonlocal received, rbytes
        while True:
            try:
                data, _ = sock.recvfrom(65536)
            except BlockingIOError:
                return
            received += 1
            rbytes += len(data)
            f = flow_of(data)
            if f is not None:
                per_flow[f] = per_flow.get(f, 0) + 1

    start = clock()
    now = start
    k = 0
    while k < npackets and alive():
        now = clock()
        due = start + k * period_ns
        if now >= due:
            sock.sendto(payload(k, nbytes), (host, port))
            late.append(now - due)
            k += 1
            continue
        poll()
    end = now
    t_end = time.monotonic() + drain_s
    while time.monotonic() < t_end and alive():
        poll()
        time.sleep(0.001)
    poll()
    sock.close()
    return PacedResult(k, received, rbytes, start, end, per_flow, late)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="partita-spm-traffic", description=__doc__.split("\n")[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5555)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--period-us", type=float, default=100.0)
    p.add_argument("--bytes", type=int, default=PAYLOAD_BYTES)
    a = p.parse_args(argv)
    r = run(a.host, a.port, a.seconds, a.period_us, a.bytes)
    print(f"sent {r.sent}, received {r.received} ({r.received_bytes} bytes) in {r.seconds:.2f} s:"
          f" {r.bandwidth_bps / 1e6:.3f} Mb/s delivered; per flow {r.per_flow}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
