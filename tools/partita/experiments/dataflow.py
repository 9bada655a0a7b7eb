"""`dataflow`: the RTOS's time per RTOS slot of the two-level TDM policy (brief 4, the paper's
Figures 15-18) versus FIFOs per task under StS and tasks x FIFOs under DyS, for the software
task-status manager (`scan`: the RTOS reads every FIFO of the tasks it considers) and the
inline `bitmap` one (kept by counter notifications: the algorithm a coprocessor runs).

Synthetic applications, as in the paper: a ring of m tasks where consecutive tasks are joined
by k parallel FIFOs (each task has 2k FIFOs), one token per FIFO circulating, so exactly one
task is eligible at a time. StS: the table follows the tokens (every decision considers one
task with 2k FIFOs). DyS: the round robin runs against the tokens, so every decision checks all
m tasks before it finds the eligible one (the paper's worst case). Every application has its
own slot of one wheel of one hart; a boot measures several points. Besides, the paper's
Fig. 13 shape (10 tasks, 9 FIFOs, T2 with 9 of them) under StS: the actual-case cost per task
(`sts_fig13.csv`, the paper's Fig. 15: WCET 846 at T2, shortest 266).

Measured: the RTOS_SLOT trace event's cost, cycles from the RTOS slot's timer event in the
kernel to the decision's end (the eviction of the task that ran, the switch, the scheduling
policy and the eligibility checks), guest cycles under icount. Worst = the maximum over a
run's decisions, actual = their distribution.
"""

from __future__ import annotations

import csv
import functools
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from partita.experiments.runner import map_work

ROOT = Path(__file__).resolve().parents[3]
STS_TASKS = 10
STS_K = (1, 2, 3, 4, 5)          # FIFOs per task = 2k: 2..10
DYS_M = (2, 4, 6, 8, 10)
DYS_K = (1, 3, 5)
TSMS = ("scan", "bitmap", "coproc")  # coproc: the bitmap on a coprocessor hart (dftsm)
RTOS_SLOT_US, APP_SLOT_US = 20, 20
PAPER = {"sts_wcet_10task_9fifo": 846, "sts_min": 266, "dys_acet_range": (1000, 6000),
         "hwtsm_constant": 461}


def _app(name: str, gi: int, m: int, k: int, cpu: int, dys: bool
         ) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """(graph, tdm app, threads) of a ring of m tasks with k FIFOs between neighbours."""
    actors = [f"{name}_{i}" for i in range(m)]
    fifos = []
    for i in range(m):
        for j in range(k):
            fifos.append({"name": f"f{i}_{j}", "producer": actors[i],
                          "consumer": actors[(i + 1) % m], "produce": [1], "consume": [1],
                          "size": 1, "initial": 1 if i == m - 1 else 0})
    graph = {"name": name, "actors": [{"name": a, "cpu": cpu} for a in actors],
             "fifos": fifos}
    # the token is on the FIFOs into task 0: StS follows it; DyS runs against it
    order = actors if not dys else [actors[0], *reversed(actors[1:])]
    app = {"name": name, "mode": "dys" if dys else "sts", "order": order}
    threads = [{"name": a, "entry": "df_bench_actor", "kind": "aperiodic",
                "arg": gi << 8 | i, "scheduler": f"tdm{cpu}"} for i, a in enumerate(actors)]
    return graph, app, threads


FIG13_FIFOS = (1, 9, 1, 1, 1, 1, 1, 1, 1, 1)  # FIFOs of T1..T10 in the fig13 application


def _fig13() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The paper's Fig. 13 shape: 10 tasks, 9 FIFOs, T2 the task with the most: T1 -> T2, and
    T2 -> T3..T10. The StS table T1..T10 follows the data."""
    actors = [f"T{i}" for i in range(1, 11)]
    fifos = [{"name": "f1", "producer": "T1", "consumer": "T2", "produce": [1],
              "consume": [1], "size": 1}]
    fifos += [{"name": f"f{i}", "producer": "T2", "consumer": f"T{i}", "produce": [1],
               "consume": [1], "size": 1} for i in range(3, 11)]
    graph = {"name": "fig13", "actors": [{"name": a, "cpu": 0} for a in actors],
             "fifos": fifos}
    app = {"name": "fig13", "mode": "sts", "order": actors}
    threads = [{"name": a, "entry": "df_bench_actor", "kind": "aperiodic", "arg": i,
                "scheduler": "tdm0"} for i, a in enumerate(actors)]
    return graph, app, threads


def _points(policy: str, k: int = 0) -> list[tuple[int, int, int]]:
    """(m, k, cpu) of every application of a run. One hart per run: under icount QEMU runs
    harts in turns, and a timer interrupt waits for its hart's turn (docs/kernel.md)."""
    if policy == "sts":
        return [(STS_TASKS, kk, 0) for kk in STS_K]
    if policy == "fig13":
        return [(10, 0, 0)]
    return [(m, k, 0) for m in DYS_M]


def config(policy: str, tsm: str, run_ms: int = 20, k: int = 0) -> dict[str, Any]:
    pts = _points(policy, k)
    ncpus = 1 + max(c for _, _, c in pts)
    graphs, threads = [], []
    apps: dict[int, list[dict[str, Any]]] = {c: [] for c in range(ncpus)}
    for gi, (m, k, cpu) in enumerate(pts):
        g, a, t = (_fig13() if policy == "fig13"
                   else _app(f"a{gi}", gi, m, k, cpu, policy == "dys"))
        graphs.append(g)
        apps[cpu].append(a)
        threads += t
    scheds = [{"name": f"tdm{c}", "policy": "tdm", "cpus": [c], "tdm": {
        "rtos_slot_us": RTOS_SLOT_US,
        "slots": [{"app": a["name"], "length_us": APP_SLOT_US} for a in apps[c]],
        "apps": apps[c]}} for c in range(ncpus)]
    doc = {"name": f"df_{policy}{k or ''}_{tsm}", "apps": [str(ROOT / "apps" / "dataflow")],
           "ncpus": ncpus, "icount_shift": 0, "run_for_ms": run_ms, "schedulers": scheds,
           "threads": threads, "dataflow": {"tsm": tsm, "graphs": graphs}}
    if tsm == "coproc":  # the coprocessor on one more hart, a client slot per graph
        doc["ncpus"] = ncpus + 1
        doc["cpus"] = [{"id": ncpus, "role": "coproc"}]
        doc["coproc"] = [{"name": "tsmcp", "service": "dftsm", "backend": "hart",
                          "cpu": ncpus, "clients": [g["name"] for g in graphs]}]
        doc["dataflow"]["coproc"] = "tsmcp"
    return doc


def _boot(item: tuple[str, str, int], out: Path, run_ms: int) -> dict[str, Any]:
    """Boot one run; the decision costs per application (index into _points)."""
    from partita.run.run import run_config
    from partita.trace.events import DataflowEv

    policy, tsm, k = item
    doc = config(policy, tsm, run_ms, k)
    cfg = out / "configs" / f"{doc['name']}.yaml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(yaml.safe_dump(doc, sort_keys=False, width=200))
    tmp = Path(tempfile.mkdtemp(prefix="dataflow-"))
    try:
        r = run_config(cfg, tmp, png=False, bounds=False)
        if not r.ok or r.area is None:
            raise RuntimeError(f"{cfg}: {r.describe()}")
        costs: dict[int, list[int]] = {}
        by_task: dict[int, list[int]] = {}  # task index in its application -> costs
        fires: dict[int, int] = {}
        pts = _points(policy, k)
        index: dict[tuple[int, int], int] = {}  # (cpu, application of its wheel) -> point
        per_cpu: dict[int, int] = {}
        for i, (_, _, c) in enumerate(pts):
            index[(c, per_cpu.get(c, 0))] = i
            per_cpu[c] = per_cpu.get(c, 0) + 1
        for ring in r.area.rings:
            recs = ring.records
            dec = recs[recs["type"] == DataflowEv.RTOS_SLOT]
            seen: dict[int, int] = {}
            for x in dec:
                app = int(x["arg0"]) >> 32
                i = index[(ring.cpu, app)]
                seen[i] = seen.get(i, 0) + 1
                if seen[i] <= pts[i][0] + 2:  # boot and the round in which actors bind
                    continue
                costs.setdefault(i, []).append(int(x["arg0"]) & 0xffffffff)
                if int(x["tid"]):  # a{g}_{i} or T{i + 1}: the task's index from its name
                    name = r.timeline.name(int(x["tid"])) if r.timeline else ""
                    t = int(name[1:]) - 1 if name[:1] == "T" else int(name.rsplit("_", 1)[1])
                    by_task.setdefault(t, []).append(int(x["arg0"]) & 0xffffffff)
            fires_ev = recs[recs["type"] == DataflowEv.FIRE]
            for x in fires_ev:
                gi = int(x["arg0"]) >> 16
                fires[gi] = fires.get(gi, 0) + 1
        return {"policy": policy, "tsm": tsm, "k": k, "costs": costs, "fires": fires,
                "by_task": by_task}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(out: Path, seed: int, sets: int, jobs: int, quiet: bool = False,
        executor: str | None = None, run_ms: int = 20) -> Path:
    """`seed` and `sets` do not apply (the runs are deterministic); one boot per (StS, TSM)
    and per (DyS, FIFOs per task, TSM)."""
    del seed, sets
    out.mkdir(parents=True, exist_ok=True)
    work = [("sts", t, 0) for t in TSMS] + [("dys", t, k) for k in DYS_K for t in TSMS] + \
        [("fig13", t, 0) for t in TSMS]
    res = map_work(functools.partial(_boot, out=out, run_ms=run_ms), work, min(jobs, 2),
                   "dataflow", quiet, executor)
    rows = []
    fig13 = []
    for r in res:
        if r["policy"] == "fig13":
            for t, c in sorted(r["by_task"].items()):
                fig13.append({"tsm": r["tsm"], "task": f"T{t + 1}", "fifos": FIG13_FIFOS[t],
                              "decisions": len(c), "worst_cycles": max(c),
                              "min_cycles": min(c), "mean_cycles": round(sum(c) / len(c), 1)})
            continue
        for i, (m, k, _) in enumerate(_points(r["policy"], r["k"])):
            c = np.array(r["costs"].get(i, [0]))
            rows.append({"policy": r["policy"], "tsm": r["tsm"], "tasks": m,
                         "fifos_per_task": 2 * k, "decisions": len(r["costs"].get(i, [])),
                         "firings": r["fires"].get(i, 0), "worst_cycles": int(c.max()),
                         "min_cycles": int(c.min()), "mean_cycles": round(float(c.mean()), 1)})
    path = out / "results.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with (out / "sts_fig13.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fig13[0]))
        w.writeheader()
        w.writerows(fig13)
    _plot(out, rows)
    _speedup(out, rows, jobs, quiet, executor)
    return path


def _speedup(out: Path, rows: list[dict[str, Any]], jobs: int, quiet: bool,
             executor: str | None) -> None:
    """Part 2 (dataflow_speedup): the decoders' RTOS decisions (decoders.csv), the paper's
    Table 1 from every application's WCETs (speedup.csv, speedup.png)."""
    from partita.experiments import dataflow_speedup as sp

    res = map_work(functools.partial(sp.boot_decoder, out=out), sp.wcet_items(),
                   min(jobs, 2), "dataflow decoders", quiet, executor)
    tab = sp.table(rows, sp.decoder_wcets(res))
    for name, t in (("decoders.csv", sp.decoder_rows(res)), ("speedup.csv", tab)):
        with (out / name).open("w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(t[0]))
            wr.writeheader()
            wr.writerows(t)
    sp.plot(out, tab)


def _plot(out: Path, rows: list[dict[str, Any]]) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 3.8))
    ax1, ax2 = fig.subplots(1, 2)
    for tsm, style in (("scan", "o-"), ("bitmap", "s--"), ("coproc", "^:")):
        sts = [r for r in rows if r["policy"] == "sts" and r["tsm"] == tsm]
        ax1.plot([r["fifos_per_task"] for r in sts], [r["worst_cycles"] for r in sts], style,
                 label=f"{tsm}: worst")
        ax1.plot([r["fifos_per_task"] for r in sts], [r["min_cycles"] for r in sts], style,
                 alpha=0.4, label=f"{tsm}: best")
        for k in DYS_K:
            dys = [r for r in rows if r["policy"] == "dys" and r["tsm"] == tsm
                   and r["fifos_per_task"] == 2 * k]
            ax2.plot([r["tasks"] for r in dys], [r["worst_cycles"] for r in dys], style,
                     label=f"{tsm}, {2 * k} FIFOs/task")
    ax1.axhline(PAPER["sts_wcet_10task_9fifo"], color="grey", lw=0.8, ls=":")
    ax1.axhline(PAPER["hwtsm_constant"], color="grey", lw=0.8, ls="-.")
    ax1.set_title(f"StS, {STS_TASKS} tasks (paper: 846 sw, 461 HWTSM, dotted)")
    ax1.set_xlabel("FIFOs per task")
    ax1.set_ylabel("RTOS cycles per RTOS slot")
    ax2.set_title("DyS, worst case (all tasks checked)")
    ax2.set_xlabel("tasks")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "rtos_slot.png", dpi=80)
