"""Brief 0, network path end to end: the host traffic tool sends 1 KiB UDP payloads with flow
ids 0..3 through QEMU's user-mode network into the I/O core's virtio-net; the loopback tasks
receive them in their input mirrors at load and return them from their output mirrors after
unload. Host pacing is wall-clock (icount, sleep=off): this checks the data path, the
bandwidth figures come from the virtual-time synthetic source (test_spm.py)."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

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
