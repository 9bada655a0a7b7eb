"""The host traffic tool against a local UDP echo (no guest): payload format and counting."""

from __future__ import annotations

from partita.subsys.spm.traffic import flow_of, payload, run, run_lockstep


def test_payload_format() -> None:
    p = payload(6)
    assert len(p) == 1024
    assert flow_of(p) == 2  # 6 % 4
    assert p[4:8] == (6).to_bytes(4, "little")


def test_counts_echoed_payloads(udp_echo: int) -> None:
    # wall-clock pacing: how many leave depends on the host; only the counting is checked
    r = run("127.0.0.1", udp_echo, seconds=0.3, period_us=5000)
    assert r.sent >= 1
    assert 0 < r.received <= r.sent
    assert sum(r.per_flow.values()) == r.received
    assert r.bandwidth_bps > 0


def test_lockstep_echoes_every_payload(udp_echo: int) -> None:
    r = run_lockstep("127.0.0.1", udp_echo, 20)
    assert (r.sent, r.echoed, r.errors) == (20, 20, [])
    assert r.per_flow == {0: 5, 1: 5, 2: 5, 3: 5}


def test_lockstep_reports_a_missing_echo() -> None:
    import socket

    silent = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # receives, never answers
    silent.bind(("127.0.0.1", 0))
    try:
        r = run_lockstep("127.0.0.1", silent.getsockname()[1], 5, wait_s=0.3, resend_s=0.1)
    finally:
        silent.close()
    assert (r.sent, r.echoed) == (1, 0)
    assert r.errors == ["payload 0: no echo within 0.3 s"]


def test_lockstep_sends_again_after_a_loss() -> None:
    """The first datagram is lost (as when it reaches QEMU before the guest driver is ready):
    it is sent again, and the late echo of the first copy does not confuse the next one."""
    import socket
    import threading

    srv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    srv.bind(("127.0.0.1", 0))
    srv.settimeout(0.2)
    stop = threading.Event()

    def lossy_echo() -> None:
        n = 0
        while not stop.is_set():
            try:
                data, addr = srv.recvfrom(65536)
            except TimeoutError:
                continue
            n += 1
            if n == 1:
                continue               # lost
            srv.sendto(data, addr)
            if n == 2:
                srv.sendto(data, addr)  # and a duplicate echo

    th = threading.Thread(target=lossy_echo, daemon=True)
    th.start()
    try:
        r = run_lockstep("127.0.0.1", srv.getsockname()[1], 8, resend_s=0.2)
    finally:
        stop.set()
        th.join()
        srv.close()
    assert (r.sent, r.echoed, r.errors) == (8, 8, [])
    assert r.per_flow == {0: 2, 1: 2, 2: 2, 3: 2}
