"""Host UDP traffic tool for the I/O bandwidth experiment (brief 0, paper §VII-B).

Sends 1 KiB UDP payloads carrying a flow id (0..3, round-robin) and a sequence number, at a
fixed period, to the guest's virtio-net (QEMU `-netdev user,hostfwd=udp::PORT-:PORT` or a
socket backend), and counts the payloads that come back (the loopback tasks echo them, with
their own sequence stamp in bytes 4..7). Reports delivered bandwidth.

Payload layout (subsys/io/flow.h pt_io_flow_of, subsys/io/net.c): [flow u32 LE][seq u32 LE]
[filler]. Pacing is against the host clock; for virtual-time figures use the in-guest
synthetic source (`net: synthetic`), which produces the same traffic deterministically.

    python -m partita.spm.traffic --host 127.0.0.1 --port 5555 --seconds 5 --period-us 100
"""

from __future__ import annotations

import argparse
import socket
import struct
import sys
import time
from dataclasses import dataclass

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
