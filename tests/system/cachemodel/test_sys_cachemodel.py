"""The cache-model QEMU plugin on microbenchmarks with known behaviour (cm_bench.c; the two
configurations here differ only in the color of thread b's buffer): a working set that fits
its color's share of the LLC hits, one that is twice that share misses on every line; two
threads on disjoint colors keep their lines, on a shared color they evict each other's.
Also: two runs give identical figures; the counts are per thread and per job (job numbers of the trace), modeled cycles are
instructions + stalls, and `--model none` boots the same image without the plugin (the
slowdown is printed, not asserted: it depends on the host)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from partita.run.run import RunResult, gate, run_config

HERE = Path(__file__).parent
LINES = {"fit": 8 * 1024 // 64, "thrash": 32 * 1024 // 64, "a": 12 * 1024 // 64}
SWEEPS = {"fit": 10, "thrash": 4, "a": 10}


def _run(name: str, out: Path, model: str | None = None) -> RunResult:
    r = run_config(HERE / f"{name}.yaml", out, png=False, bounds=False, model=model)
    assert r.ok and not gate(r), r.describe()
    return r


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("cachemodel")
    disjoint = _run("cm_disjoint", base / "disjoint")
    shared = _run("cm_shared", base / "shared")
    plain = _run("cm_disjoint", base / "plain", model="none")
    _run("cm_disjoint", base / "again")
    raw = [json.loads((base / d / "cachesim.raw.json").read_text()) for d in ("disjoint", "again")]
    for r in raw:
        r.pop("host_cpu_s")
    return {"deterministic": raw[0] == raw[1],"disjoint": json.loads((base / "disjoint" / "cache_model.json").read_text()),
            "shared": json.loads((base / "shared" / "cache_model.json").read_text()),
            "runs": (disjoint, shared, plain), "plain_out": base / "plain"}


def _steady_jobs(doc: dict[str, Any], thread: str) -> list[dict[str, Any]]:
    """Jobs 2 .. last completed: past the cold start, before the partial last record."""
    jobs = doc["threads"][thread]["jobs"]
    assert [j["job"] for j in jobs] == list(range(1, len(jobs) + 1))
    return jobs[1:-1]


def test_deterministic(runs: dict[str, Any]) -> None:
    assert runs["deterministic"], "two runs of cm_disjoint gave different model figures"


def test_per_thread_and_job(runs: dict[str, Any]) -> None:
    doc = runs["disjoint"]
    assert doc["per_thread"] and not doc["stalls_fed_back"]
    tl = runs["runs"][0].timeline
    for name in ("a", "b", "fit", "thrash"):
        t = doc["threads"][name]
        assert t["tid"] == tl.tid_of(name)
        completed = sum(1 for j in tl.jobs[t["tid"]].values() if j.complete_ns is not None)
        assert len(t["jobs"]) == completed + 1  # plus the one in progress at power-off
        for rec in [t["total"], *t["jobs"]]:
            assert rec["modeled_cycles"] == rec["instructions"] + rec["stall_cycles"]
            assert rec["accesses"] == rec["ifetches"] + rec["loads"] + rec["stores"]
            assert rec["l1d_hits"] + rec["l1d_misses"] == rec["loads"] + rec["stores"]
        total = {k: sum(j[k] for j in t["jobs"]) for k in ("instructions", "llc_misses")}
        assert total == {k: t["total"][k] for k in total}


def test_fit_vs_thrash(runs: dict[str, Any]) -> None:
    doc = runs["disjoint"]
    for job in _steady_jobs(doc, "fit"):  # 2 lines per set of a 4-way color: all stay
        assert job["llc_misses"] <= 8, job
        assert job["llc_hits"] >= SWEEPS["fit"] * LINES["fit"]
    for job in _steady_jobs(doc, "thrash"):  # 8 lines per set: LRU misses every line
        assert job["llc_misses"] >= SWEEPS["thrash"] * LINES["thrash"], job
    fit, thrash = (doc["threads"][n]["total"] for n in ("fit", "thrash"))
    # every fit line is an LLC hit (30 cycles), every thrash line a memory access (200)
    assert thrash["stall_cycles"] / thrash["instructions"] > 4 * (
        fit["stall_cycles"] / fit["instructions"])


def test_shared_colors_miss_more(runs: dict[str, Any]) -> None:
    dis, sh = runs["disjoint"], runs["shared"]
    for name in ("a", "b"):
        d = sum(j["llc_misses"] for j in _steady_jobs(dis, name))
        s = sum(j["llc_misses"] for j in _steady_jobs(sh, name))
        # disjoint: only the kernel's and the code's few lines; shared: the other thread's
        # sweep (3 of a set's 4 ways) evicts lines between jobs
        assert s >= 3 * d and s - d >= 5 * len(_steady_jobs(sh, name)), (name, d, s)
        assert sh["threads"][name]["total"]["stall_cycles"] > \
            dis["threads"][name]["total"]["stall_cycles"]
    # fit and thrash have colors of their own: the same misses in both configurations, up to
    # the kernel's own lines (where kernel data lands differs between the two images: a few
    # misses per job, against the 2,048 lines thrash sweeps)
    for name in ("fit", "thrash"):
        for jd, js in zip(_steady_jobs(dis, name), _steady_jobs(sh, name), strict=True):
            assert abs(jd["llc_misses"] - js["llc_misses"]) <= 8, (name, jd, js)


def test_model_none_and_slowdown(runs: dict[str, Any]) -> None:
    disjoint, _, plain = runs["runs"]
    assert not (runs["plain_out"] / "cache_model.json").exists()
    assert not any("-plugin" in a for a in plain.boot.command)
    print(f"\ncache model slowdown (wall): {disjoint.boot.wall_s:.2f} s with the model, "
          f"{plain.boot.wall_s:.2f} s without: x{disjoint.boot.wall_s / plain.boot.wall_s:.1f}")
