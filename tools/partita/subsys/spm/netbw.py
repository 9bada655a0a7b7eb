"""I/O bandwidth through virtio-net with the host traffic tool paced in guest virtual time
(brief 0, paper §VII-B): `measure(cfg)` builds and boots an `spm:` configuration with
`net: virtio` behind QEMU's user network (hostfwd udp), drives `traffic.run_paced` against the
guest clock mailbox (`GuestClock`), stops QEMU and reads the trace rings from the RAM file.

Reported over a window of guest virtual time [start + warm-up, start + warm-up + duration]:
- delivered bandwidth: payload bytes the I/O core handed back to the NIC (IO_TX events) in the
  window, per virtual second; this is the figure compared with the design bound 1 KiB / (2 sigma);
- offered traffic actually achieved: packets the I/O core received (IO_RX) in the window and
  their virtual inter-arrival times (the host sends on the guest clock, published every
  <= 2 us; sends are never early but can be late, see traffic.run_paced);
- end to end: payloads sent by the host and echoes received back, per flow.

The arrival instants follow the host's scheduling (QEMU runs with icount sleep=off and does not
wait for the host), so the delivered figure below the bound depends on host load: it is a
benchmark (`make bench-net` writes out/bench/netbw.json), not a test. The system test checks
only what holds for any arrivals (never above the bound, protocol invariants).

    python -m partita.subsys.spm.netbw tests/system/spm/spm_netbw400.yaml [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from partita.run.build import build
from partita.run.qemu import _fresh_ram, command, read_trace_area
from partita.subsys.spm.events import decode
from partita.subsys.spm.report import invariant_violations
from partita.subsys.spm.traffic import GuestClock, PacedResult, run_paced

RAM_MB = 128
GUEST_PORT = 5555


@dataclass
class NetBw:
    sigma_ns: int
    window_ns: int
    tx_packets: int               # echoed by the guest in the window
    tx_bytes: int
    rx_packets: int               # received by the guest in the window
    rx_gap_max_ns: int            # largest virtual inter-arrival time in the window
    rx_gap_mean_ns: float
    host: PacedResult
    violations: list[str]         # protocol invariants broken in the trace (none expected)

    @property
    def delivered_bps(self) -> float:
        return self.tx_bytes * 8 / (self.window_ns / 1e9)

    @property
    def bound_bps(self) -> float:
        return 1024 * 8 / (2 * self.sigma_ns / 1e9)


def _free_udp_port() -> int:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


def measure(cfg: Path, duration_ns: int = 400_000_000, warmup_ns: int = 20_000_000,
            period_ns: int = 100_000, log: Path | None = None,
            timeout_s: float = 600.0, sleep: bool = False) -> NetBw:
    doc = yaml.safe_load(cfg.read_text())
    spm = doc["spm"]
    sigma = spm.get("sigma_ns") or spm["sigma_us"] * 1000
    b = build(cfg, quiet=True)
    _fresh_ram(b.ram_file, RAM_MB)
    port = _free_udp_port()
    cmd = command(b.elf, b.ram_file, RAM_MB, doc["ncpus"], doc.get("icount_shift", 0)) + [
        "-netdev", f"user,id=n0,hostfwd=udp:127.0.0.1:{port}-:{GUEST_PORT}",
        "-device", "virtio-net-device,netdev=n0"]
    if sleep:
        cmd = [a.replace("sleep=off", "sleep=on") for a in cmd]
    log = log or b.build_dir / "netbw-console.log"
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        clock = None
        try:
            deadline = time.monotonic() + 60
            while b"spm: calibration" not in log.read_bytes():
                if p.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"guest did not start: {log.read_text()[-2000:]}")
                time.sleep(0.05)
            clock = GuestClock(b.ram_file, b.elf)
            origin = GuestClock(b.ram_file, b.elf, "pt_io_origin_ns")
            while origin() == 0 or clock() < origin():
                if p.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the I/O core did not reach its time origin")
            origin.close()
            n = (warmup_ns + duration_ns) // period_ns + 1
            t0 = time.monotonic()
            host = run_paced("127.0.0.1", port, clock, period_ns, n,
                             alive=lambda: p.poll() is None
                             and time.monotonic() - t0 < timeout_s)
        finally:
            if clock is not None:
                clock.close()
            p.kill()
            p.wait()
    tl = decode(read_trace_area(b.ram_file, b.elf))
    lo = host.start_ns + warmup_ns
    hi = lo + duration_ns
    tx = [x for x in tl.tx if lo <= x[0] < hi]
    rx = sorted(x[0] for x in tl.rx if lo <= x[0] < hi)
    gaps = [b_ - a for a, b_ in zip(rx, rx[1:], strict=False)]
    return NetBw(sigma, duration_ns, len(tx), sum(x[3] for x in tx), len(rx),
                 max(gaps, default=0), sum(gaps) / len(gaps) if gaps else 0.0, host,
                 invariant_violations(tl))


def report(r: NetBw) -> str:
    h = r.host
    late = sorted(h.late_ns)
    return (f"sigma {r.sigma_ns / 1000:.0f} us: delivered {r.delivered_bps / 1e6:.3f} Mb/s "
            f"(bound {r.bound_bps / 1e6:.3f} Mb/s, {r.delivered_bps / r.bound_bps:.1%}); "
            f"{r.tx_packets} packets echoed and {r.rx_packets} received by the guest in "
            f"{r.window_ns / 1e6:.0f} ms of virtual time (inter-arrival mean "
            f"{r.rx_gap_mean_ns / 1000:.1f} us, max {r.rx_gap_max_ns / 1000:.1f} us); host: "
            f"sent {h.sent}, echoes received {h.received}, per flow {h.per_flow}, send "
            f"lateness vs guest clock max {late[-1] / 1000 if late else 0:.1f} us; "
            f"{h.virtual_seconds * 1e3:.0f} ms virtual")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m partita.subsys.spm.netbw",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--duration-ms", type=float, default=400)
    ap.add_argument("--warmup-ms", type=float, default=20)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    a = ap.parse_args(argv)
    r = measure(a.config, int(a.duration_ms * 1e6), int(a.warmup_ms * 1e6))
    print(report(r))
    if a.json is not None:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({
            "config": str(a.config), "sigma_ns": r.sigma_ns, "window_ns": r.window_ns,
            "delivered_bps": r.delivered_bps, "bound_bps": r.bound_bps,
            "ratio": r.delivered_bps / r.bound_bps, "tx_packets": r.tx_packets,
            "rx_packets": r.rx_packets, "rx_gap_mean_ns": r.rx_gap_mean_ns,
            "rx_gap_max_ns": r.rx_gap_max_ns, "host_sent": r.host.sent,
            "host_received": r.host.received, "violations": r.violations,
            "note": "arrivals follow host scheduling: a benchmark figure, not deterministic",
        }, indent=1) + "\n")
        print(f"wrote {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
