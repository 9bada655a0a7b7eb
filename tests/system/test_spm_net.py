"""Brief 0, network path end to end: the host traffic tool sends 1 KiB UDP payloads with flow
ids 0..3 through QEMU's user-mode network into the I/O core's virtio-net; the loopback tasks
receive them in their input mirrors at load and return them from their output mirrors after
unload. The first test paces the host against the wall clock (icount, sleep=off: unrelated
to guest time) and checks the data path; the bandwidth tests pace the host against the guest's
virtual clock read live from the shared RAM file (partita.spm.traffic.run_paced, driven by
partita.spm.netbw)."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest
from partita.build import build
from partita.qemu import _fresh_ram, command
from partita.spm.traffic import run as traffic

CFG = Path(__file__).parent / "spm_configs" / "spm_net.yaml"


def _free_udp_port() -> int:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_udp_loopback_through_virtio(tmp_path: Path) -> None:
    b = build(CFG, quiet=True)
    _fresh_ram(b.ram_file, 128)
    port = _free_udp_port()
    cmd = command(b.elf, b.ram_file, 128, 3, 0) + [
        "-netdev", f"user,id=n0,hostfwd=udp:127.0.0.1:{port}-:5555",
        "-device", "virtio-net-device,netdev=n0"]
    log = tmp_path / "console.log"
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while b"spm: calibration" not in log.read_bytes():
                assert p.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "guest did not start"
                time.sleep(0.1)
            r = traffic("127.0.0.1", port, seconds=2.0, period_us=2000)
        finally:
            p.kill()
            p.wait()
    assert r.sent >= 500
    assert r.received >= 0.9 * r.sent, f"{r.received} of {r.sent} came back"
    assert set(r.per_flow) == {0, 1, 2, 3}  # the flow id survives the task's loopback
    assert max(r.per_flow.values()) - min(r.per_flow.values()) <= 0.1 * r.received


@pytest.mark.parametrize("sigma_us", [400, 800])
def test_bandwidth_host_tool_paced_in_virtual_time(sigma_us: int) -> None:
    """Brief 0 / paper §VII-B with the host tool: 1 KiB packets every 100 us of guest virtual
    time, flows 0..3 round-robin, into virtio-net; two loopback tasks per application core echo
    them. Delivered bandwidth over 400 ms of virtual time vs the design bound 1 KiB / (2 sigma)."""
    from partita.spm.netbw import measure, report

    r = measure(CFG.parent / f"spm_netbw{sigma_us}.yaml")
    print(report(r))
    assert r.rx_packets >= 0.95 * 4000          # the offered traffic reached the guest
    assert abs(r.rx_gap_mean_ns - 100_000) <= 2_000
    assert r.delivered_bps <= r.bound_bps * 1.001
    assert r.delivered_bps >= 0.95 * r.bound_bps
    assert r.host.received >= 0.9 * r.tx_packets  # the echoes reached the host
    assert set(r.host.per_flow) == {0, 1, 2, 3}
