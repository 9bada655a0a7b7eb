"""The host traffic tool against a local UDP echo (no guest): payload format and counting."""

from __future__ import annotations

from partita.spm.traffic import flow_of, payload, run


def test_payload_format() -> None:
    p = payload(6)
    assert len(p) == 1024
    assert flow_of(p) == 2  # 6 % 4
    assert p[4:8] == (6).to_bytes(4, "little")


def test_counts_echoed_payloads(udp_echo: int) -> None:
    r = run("127.0.0.1", udp_echo, seconds=0.3, period_us=5000)
    assert r.sent >= 40
    assert r.received >= r.sent - 2
    assert set(r.per_flow) == {0, 1, 2, 3}
    assert r.bandwidth_bps > 0
