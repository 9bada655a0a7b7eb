"""Host-only checks of the pieces behind the kernel-vs-simulator and host-paced bandwidth
tests: simulate_spm's per-job log, per-job execution/copy times and partition alternation;
the paced traffic tool against a fake guest clock and a local echo."""

from __future__ import annotations

from partita.analysis.sim import SpmJobLog, simulate_spm
from partita.subsys.spm.traffic import run_paced

SIGMA = 100_000


def test_log_records_slots_and_times() -> None:
    log: list[SpmJobLog] = []
    r = simulate_spm([50_000], [1_000_000], [[0, 1_000_000]], SIGMA, 2, 0,
                     copy_ns=[[(1000, 2000), (1500, 2500)]],
                     exec_ns=[[40_000, 60_000]], log=log)
    assert [(j.job, j.load_slot, j.unload_slot) for j in log] == [(0, 0, 2), (1, 10, 12)]
    j0, j1 = log
    assert (j0.load_end, j0.exec_start, j0.exec_end, j0.unload_end) == (1000, 1000, 41000,
                                                                        202000)
    assert j1.exec_end - j1.exec_start == 60_000 and j1.unload_end == 1_202_500
    assert r.max_response[0] == 202_500


def test_first_partition_alternates_like_the_kernel() -> None:
    rel = [[k * 1_000_000 for k in range(4)]]
    lowest: list[SpmJobLog] = []
    simulate_spm([10_000], [1_000_000], rel, SIGMA, 2, 0, log=lowest)
    assert [j.partition for j in lowest] == [0, 0, 0, 0]
    alt: list[SpmJobLog] = []
    simulate_spm([10_000], [1_000_000], rel, SIGMA, 2, 0, log=alt, first_partition=1)
    assert [j.partition for j in alt] == [1, 0, 1, 0]


def test_paced_sends_follow_the_guest_clock(udp_echo: int) -> None:
    t = [0]

    def clock() -> int:          # a guest clock advancing 7 us per look
        t[0] += 7_000
        return t[0]

    r = run_paced("127.0.0.1", udp_echo, clock, 100_000, 20, drain_s=0.3)
    assert r.sent == 20 and r.received == 20
    assert all(0 <= x <= 7_000 for x in r.late_ns), r.late_ns  # never early, <= one clock step
    assert r.per_flow == {0: 5, 1: 5, 2: 5, 3: 5}
