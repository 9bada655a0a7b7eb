"""The task sets, configurations and re-simulation of `partita experiment coloring`
(partita.experiments.coloring_sets) on the host, fixed seeds: the paper's stopping rules (GFB
for G-EDF, best-fit partitioning for P-EDF), the period and utilization distributions, the
polluter, and configurations that `partita config` accepts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from partita.analysis import gedf, generators, partition
from partita.experiments import coloring_sets as cs
from partita.experiments.coloring import make_sets
from partita.experiments.runner import chunk_rng

P = cs.Params()
MS = cs.NS_PER_MS


def _draws(seed_parts: tuple[int, int, int], k: int) -> tuple[list[int], list[int]]:
    """The first k (C, T) the recipe draws from that generator, accepted or not."""
    g = chunk_rng(*seed_parts)
    C, T = [], []
    for _ in range(k):
        t = int(generators.periods_from_set(1, [p * MS for p in cs.PERIODS_MS], g)[0])
        C.append(round(g.uniform(0.1, 0.7) * t))
        T.append(t)
    return C, T


@pytest.mark.parametrize("sched", cs.SCHEDULERS)
@pytest.mark.parametrize("k", range(6))
def test_stopping_rule(sched: str, k: int) -> None:
    j = cs.SCHEDULERS.index(sched)
    ts = cs.generate(sched, 4, chunk_rng(7, j, k))
    C, T = _draws((7, j, k), ts.n + 1)
    assert (ts.C, ts.T) == (C[:-1], T[:-1])  # the set is the draws up to the first refusal
    if sched == "G-EDF":
        assert gedf.gfb(np.array([C[:-1]]), np.array([T[:-1]]), None, 4)[0]
        assert not gedf.gfb(np.array([C]), np.array([T]), None, 4)[0]
    else:
        assert partition.place(C[:-1], T[:-1], None, 4, "best-fit", "edf").failed is None
        assert partition.place(C, T, None, 4, "best-fit", "edf").failed is not None
        assert ts.cores is not None
        for core in range(4):  # the placement used for the configuration: EDF, U <= 1
            assert sum(c / t for c, t, x in zip(ts.C, ts.T, ts.cores, strict=True)
                       if x == core) <= 1 + 1e-12


def test_distributions() -> None:
    sets = make_sets(P, 3, 40)
    T = np.array([t for v in sets.values() for ts in v for t in ts.T]) // MS
    u = np.array([c / t for v in sets.values() for ts in v for c, t in zip(ts.C, ts.T,
                                                                          strict=True)])
    assert set(T.tolist()) == set(cs.PERIODS_MS)
    for p in cs.PERIODS_MS:  # uniform over the four periods (>= 500 tasks)
        assert abs((T == p).mean() - 0.25) < 0.05, p
    assert u.min() >= 0.1 - 1e-6 and u.max() <= 0.7 + 1e-6
    # uniform in [0.1, 0.7]: mean 0.4; the refused last draws are the larger ones, so the
    # accepted mean is a little lower, never much
    assert 0.33 < u.mean() < 0.42
    assert abs(np.mean((u > 0.1) & (u < 0.25)) - 0.25) < 0.07
    n_g = np.mean([ts.n for ts in sets["G-EDF"]])
    n_p = np.mean([ts.n for ts in sets["P-EDF"]])
    # the paper: P-EDF accepts more utilization than G-EDF with GFB, so a few more tasks
    assert n_p > n_g + 2
    assert all(ts.u <= 4 for ts in sets["P-EDF"])


def test_deterministic_and_polluter() -> None:
    a, b = make_sets(P, 11, 3), make_sets(P, 11, 3)
    assert [x.T for x in a["G-EDF"]] == [x.T for x in b["G-EDF"]]
    assert [x.C for x in a["P-EDF"]] == [x.C for x in b["P-EDF"]]
    assert make_sets(P, 12, 1)["G-EDF"][0].C != a["G-EDF"][0].C
    for ts in [*a["G-EDF"], *a["P-EDF"]]:
        longest = max(ts.T)
        assert ts.T[ts.polluter] == longest
        assert all(t < longest for t in ts.T[ts.polluter + 1:])
        assert ts.polluter not in ts.rt_tasks() and len(ts.rt_tasks()) == ts.n - 1


def test_configurations_accepted(tmp_path: Path) -> None:
    from partita.config import load_resolved

    ts = make_sets(P, 5, 1)["P-EDF"][0]
    acc = cs.accesses_for(ts, P, 128, {k: 40.0 for k in (*P.wss_kib, P.polluter_kib)})
    C, _ = cs.scaled(ts, P)
    assert all(a == int(0.85 * c / 40.0) for a, c in zip(acc, C, strict=True))
    docs = {}
    for scen in cs.SCENARIOS:
        doc = cs.system_yaml(ts, P, 128, scen, acc, "t_coloring_gen")
        f = tmp_path / f"{scen}.yaml"
        f.write_text(yaml.safe_dump(doc))
        load_resolved(f)  # partita config's checks: colors, heaps, schedulers, threads
        docs[scen] = doc
    colors = {s: [(t["arg"] >> 36) & 0xFF for t in d["threads"]] for s, d in docs.items()}
    assert len(set(colors["S1"])) == ts.n and colors["S1"] == colors["S2"]
    assert set(colors["S3"]) == {cs.FIRST_TASK_COLOR}
    assert all(d["kernel_colors"] == [cs.KERNEL_COLOR] for d in docs.values())
    assert docs["S2"]["kernel_data"] == "uncolored"  # S2: the kernel's data over every color
    assert "kernel_data" not in docs["S1"] and "kernel_data" not in docs["S3"]  # colored
    for t, a, i in zip(docs["S1"]["threads"], acc, range(ts.n), strict=True):
        assert t["arg"] & 0xFFFFFF == a and (t["arg"] >> 44) & 0xFF == i
        assert (t["arg"] >> 24) & 0xFFF == (512 if i == ts.polluter else 128)
        assert bool(t["arg"] >> 52) == (i == ts.polluter)
        assert t["scheduler"] == f"e{ts.cores[i]}"  # type: ignore[index]


def test_resimulation() -> None:
    p = cs.Params(jobs_per_task=40)
    for ts in make_sets(p, 2, 4)["P-EDF"]:
        C, _ = cs.scaled(ts, p)
        ok = cs.resimulate(ts, p, [[c] for c in C])
        assert not any(ok.missed) and ok.total_ns == ok.nominal_ns  # best-fit: U <= 1 per core
        bad = cs.resimulate(ts, p, [[2 * c, c] for c in C])  # every other job twice as long
        assert any(bad.missed)
    ts = make_sets(p, 2, 1)["G-EDF"][0]
    C, T = cs.scaled(ts, p)
    # the total is the end of every task's 40 jobs (the paper's): a longest-period task
    # whose jobs take two periods ends at twice the nominal time (plus what the others
    # preempt of it); the others stay on time
    costs = [[2 * T[i]] if i == ts.polluter else [C[i]] for i in range(ts.n)]
    over = cs.resimulate(ts, p, costs)
    assert 2 * over.nominal_ns <= over.total_ns < 2 * over.nominal_ns + max(T)
    assert over.missed[ts.polluter] and not any(over.missed[i] for i in ts.rt_tasks())


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="llc"):
        cs.Params(llc_bytes=3 << 20).check()
    with pytest.raises(ValueError, match="working set 48 KiB"):
        cs.Params(wss_kib=(48,)).check()
    with pytest.raises(ValueError, match="accesses"):
        cs.pack_arg(1 << 24, 32, 2, 0, False)


def test_cli_options_belong_to_coloring(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from partita.experiments import cli

    ap = argparse.ArgumentParser()
    cli.add_arguments(ap)
    args = ap.parse_args(["gedf-vs-pedf", "--quick", "--llc-kib", "2048"])
    assert cli.run(args) == 2
    assert "--quick, --llc-kib: options of the coloring experiment only" in \
        capsys.readouterr().err
    args = ap.parse_args(["coloring", "--llc-kib", "2048", "--l1-kib", "0", "--cpus", "2"])
    assert cli.coloring_extra(args) == {"llc_bytes": 2 << 20, "l1_bytes": 0, "cpus": 2}
    args = ap.parse_args(["coloring", "--llc-kib", "3072", "--quiet"])
    assert cli.run(args) == 2  # refused before any QEMU run, naming the parameter
    assert "llc: 3145728 bytes / 16 ways" in capsys.readouterr().err
