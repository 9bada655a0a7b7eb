"""The host traffic tool against a local UDP echo (no guest): payload format and counting."""

from __future__ import annotations

from partita.spm.traffic import flow_of, payload, run, run_lockstep


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
        r = run_lockstep("127.0.0.1", silent.getsockname()[1], 5, wait_s=0.3)
    finally:
        silent.close()
    assert (r.sent, r.echoed) == (1, 0)
    assert r.errors == ["payload 0: no echo within 0.3 s"]
