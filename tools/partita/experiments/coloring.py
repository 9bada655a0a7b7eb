"""`coloring`: the paper's cache-coloring evaluation (seed 001 §IV, Figures 10-12) on the
cache model (docs/coloring.md).

Per scheduler (G-EDF, P-EDF) `sets` task sets of the paper's recipe (coloring_sets); each runs
in QEMU with the cache model (`cache_model:`) for every working-set size and scenario S1, S2,
S3. The modeled cycles of each job (OUT/cache_model.json) give per task the WCET and average
over the steady-state jobs (the first guest hyperperiod is the warm-up) and, because guest
time does not see modeled stalls, the deadline misses and total execution time come from
re-simulating the schedule with those job costs (coloring_sets.resimulate).

Seeded: set k of a scheduler comes from SeedSequence([seed, scheduler, k]); the runs are
deterministic (icount, a deterministic model), so the results do not depend on --jobs or on
the executor. Outputs in OUT: results.csv (one row per scheduler, WSS, scenario), tasks.csv
(one row per task and run), jobs.json (every measured job), runs/ (each run's model
output, reused when its configuration and the program are unchanged), configs/*.yaml (every
configuration run), fig10.png, fig11.png, fig12.png.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from partita.experiments import coloring_sets as cs
from partita.experiments.runner import chunk_rng, map_work

#: The paper's Figure 11 as its text gives it (% of tasks missing at least one deadline);
#: None where the text gives no number. S1 at 32 and 64 KiB: "do not miss any deadline";
#: P-EDF S1 at 128 KiB: page coloring "supported up to 128 KB" (no miss).
PAPER_FIG11: dict[tuple[str, str], tuple[float | None, ...]] = {
    ("P-EDF", "S1"): (0.0, 0.0, 0.0, 54.93),
    ("G-EDF", "S1"): (0.0, 0.0, 18.0, 92.0),
    ("P-EDF", "S3"): (57.75, 70.42, 74.65, 93.02),
    ("G-EDF", "S3"): (93.0, 93.02, 93.92, 97.67),
}
PAPER_WSS = (32, 64, 128, 256)
PROGRAM = Path(__file__).resolve().parents[3] / "apps" / "coloring" / "wss_task.c"
QUICK = {"sets": 1, "wss_kib": (64, 256), "hyperperiods": 2, "jobs_per_task": 50}


@dataclass(frozen=True)
class RunKey:
    scheduler: str
    set_index: int
    wss: int
    scenario: str

    @property
    def slug(self) -> str:
        return f"{self.scheduler.lower().replace('-', '')}_{self.set_index}_{self.wss}k_" \
               f"{self.scenario.lower()}"


class ColoringError(RuntimeError):
    pass


def make_sets(p: cs.Params, seed: int, sets: int) -> dict[str, list[cs.TaskSet]]:
    return {s: [cs.generate(s, p.cpus, chunk_rng(seed, j, k)) for k in range(sets)]
            for j, s in enumerate(cs.SCHEDULERS)}


def _run_yaml(doc: dict[str, Any], cfg: Path) -> dict[str, Any]:
    """Boot one configuration with the cache model; its cache_model.json. A run whose
    configuration (name aside) and program are unchanged is read back from OUT/runs/: an
    interrupted experiment resumes where it stopped."""
    from partita.run.run import run_config

    cfg.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(doc, sort_keys=False, width=200)
    cfg.write_text(text)
    key = hashlib.sha256((yaml.safe_dump({**doc, "name": ""}) +
                          PROGRAM.read_text()).encode()).hexdigest()
    cached = cfg.parent.parent / "runs" / f"{cfg.stem}.json"
    if cached.exists():
        old = json.loads(cached.read_text())
        if old.get("hash") == key:
            return dict(old["model"])
    tmp = Path(tempfile.mkdtemp(prefix="coloring-"))
    try:
        r = run_config(cfg, tmp, png=False, bounds=False)
        if not r.ok:
            raise ColoringError(f"{cfg}: {r.describe()}")
        doc_out = json.loads((tmp / "cache_model.json").read_text())
        if "FAIL" in (tmp / "console.log").read_text():
            raise ColoringError(f"{cfg}: the guest reported a failure (console.log)")
        cached.parent.mkdir(exist_ok=True)
        cached.write_text(json.dumps({"hash": key, "model": {
            k: doc_out[k] for k in ("threads", "wall_s", "host_cpu_s")}}))
        return doc_out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _complete_jobs(model: dict[str, Any], thread: str, cfg: Path) -> list[int]:
    """Modeled cycles of the thread's completed jobs (the last record is in progress)."""
    try:
        jobs = model["threads"][thread]["jobs"]
    except KeyError as e:
        raise ColoringError(f"{cfg}: no cache-model record of thread {thread}") from e
    return [int(j["modeled_cycles"]) for j in jobs[:-1]]


def _calibrate(p: cs.Params, out: Path, colors: int) -> dict[int, float]:
    """Modeled cycles per access of each working set (and the polluter) alone on one hart:
    the largest over the steady-state jobs."""
    cfg = out / "configs" / f"calibration_{colors}colors.yaml"
    model = _run_yaml(cs.calibration_yaml(p, colors, f"coloring_cal{colors}"), cfg)
    cost = {}
    for kib in [*p.wss_kib, p.polluter_kib]:
        jobs = _complete_jobs(model, f"c{kib}", cfg)[1:]
        if not jobs:
            raise ColoringError(f"{cfg}: thread c{kib} completed no steady-state job")
        cost[kib] = max(jobs) / p.cal_accesses
    return cost


def _one(p: cs.Params, out: Path, sets: dict[str, list[cs.TaskSet]],
         cost: dict[int, dict[int, float]], slots: int, item: tuple[int, RunKey]
         ) -> dict[str, Any]:
    k, key = item
    ts = sets[key.scheduler][key.set_index]
    colors = cs.colors_for(ts, p)
    acc = cs.accesses_for(ts, p, key.wss, cost[colors])
    cfg = out / "configs" / f"{key.slug}.yaml"
    # a build directory per worker slot: the kernel objects are reused between runs
    try:
        model = _run_yaml(cs.system_yaml(ts, p, key.wss, key.scenario, acc,
                                         f"coloring_{k % slots}"), cfg)
        return _measured(p, ts, key, acc, colors, model, cfg)
    except ColoringError as e:  # reported and left out, the other runs stand
        return {"key": asdict(key), "error": str(e)}


def _measured(p: cs.Params, ts: cs.TaskSet, key: RunKey, acc: list[int], colors: int,
              model: dict[str, Any], cfg: Path) -> dict[str, Any]:
    _, T = cs.scaled(ts, p)
    hyper = cs.hyperperiod_ns(T)
    jobs = []
    for i in range(ts.n):
        per_hyper = hyper // T[i]
        done = _complete_jobs(model, f"t{i}", cfg)
        steady = done[per_hyper:p.hyperperiods * per_hyper]
        if not steady:
            raise ColoringError(f"{cfg}: t{i} completed {len(done)} jobs, none after the "
                                f"warm-up of {per_hyper}")
        jobs.append(steady)
    return {"key": asdict(key), "accesses": acc, "jobs": jobs, "colors": colors,
            "wall_s": model.get("wall_s"), "host_cpu_s": model.get("host_cpu_s")}


@dataclass
class Row:
    scheduler: str
    wss: int
    scenario: str
    sets: int
    tasks: int
    wcet_scaling: float
    wcet_scaling_min: float
    wcet_scaling_max: float
    avg_scaling: float
    missed_pct: float
    total_s: float                    # re-simulated, at the paper's scale (x time_div)
    nominal_s: float                  # 200 x the longest period, mean over the sets
    s1_wcet_over_c: float             # the S1 WCET / the generated C (the sizing check)


def aggregate(p: cs.Params, sets: dict[str, list[cs.TaskSet]],
              res: Sequence[dict[str, Any]]) -> tuple[list[Row], list[dict[str, Any]]]:
    """Scaling factors (per set: the mean over its real-time tasks of X / S1; then the mean
    over sets), share of real-time tasks missing a deadline in the re-simulation, total time."""
    by = {RunKey(**r["key"]): r for r in res}
    failed = {(k.scheduler, k.set_index, k.wss) for k, r in by.items() if "error" in r}
    rows: list[Row] = []
    tasks: list[dict[str, Any]] = []
    for sched in cs.SCHEDULERS:
        for wss in p.wss_kib:
            for scen in cs.SCENARIOS:
                fw, fa, missed, nrt, total, nominal, over = [], [], 0, 0, [], [], []
                for si, ts in enumerate(sets[sched]):
                    if (sched, si, wss) in failed:  # a scenario of this set did not run
                        continue
                    r, r1 = by[RunKey(sched, si, wss, scen)], by[RunKey(sched, si, wss, "S1")]
                    rt = ts.rt_tasks()
                    w = [max(j) for j in r["jobs"]]
                    a = [float(np.mean(j)) for j in r["jobs"]]
                    w1 = [max(j) for j in r1["jobs"]]
                    a1 = [float(np.mean(j)) for j in r1["jobs"]]
                    fw.append(float(np.mean([w[i] / w1[i] for i in rt])))
                    fa.append(float(np.mean([a[i] / a1[i] for i in rt])))
                    so = cs.resimulate(ts, p, r["jobs"])
                    missed += sum(so.missed[i] for i in rt)
                    nrt += len(rt)
                    total.append(so.total_ns * p.time_div / 1e9)
                    nominal.append(so.nominal_ns * p.time_div / 1e9)
                    C, T = cs.scaled(ts, p)
                    if scen == "S1":
                        over += [w[i] / C[i] for i in rt]
                    for i in range(ts.n):
                        tasks.append({
                            "scheduler": sched, "set": si, "task": f"t{i}",
                            "period_ms": ts.T[i] / cs.NS_PER_MS,
                            "u": round(ts.C[i] / ts.T[i], 4),
                            "core": "" if ts.cores is None else ts.cores[i],
                            "polluter": int(i == ts.polluter), "wss_kib": wss,
                            "scenario": scen, "colors": r["colors"],
                            "accesses": r["accesses"][i], "c_cycles": C[i],
                            "wcet_cycles": w[i], "avg_cycles": round(a[i]),
                            "jobs": len(r["jobs"][i]), "missed": int(so.missed[i])})
                if not fw:
                    continue
                rows.append(Row(sched, wss, scen, len(fw), nrt,
                                float(np.mean(fw)), float(np.min(fw)), float(np.max(fw)),
                                float(np.mean(fa)), 100.0 * missed / max(1, nrt),
                                float(np.mean(total)), float(np.mean(nominal)),
                                float(np.max(over)) if over else float("nan")))
    return rows, tasks


def _write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    keys = list(rows[0])
    with path.open("w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(f"{v:.4f}" if isinstance(v, float) else str(v)
                             for v in r.values()) + "\n")


def run(out: Path, seed: int, sets: int, jobs: int, quiet: bool = False,
        executor: str | None = None, quick: bool = False, **params: Any) -> Path:
    """The whole experiment into `out`; returns results.csv. `params` override Params."""
    p = cs.Params(**params)
    if quick:
        sets = QUICK["sets"]  # type: ignore[assignment]
        p = replace(p, **{k: v for k, v in QUICK.items() if k != "sets" and k not in params})
    p.check()
    out.mkdir(parents=True, exist_ok=True)
    tsets = make_sets(p, seed, sets)
    colors = sorted({cs.colors_for(ts, p) for v in tsets.values() for ts in v})
    cal = map_work(functools.partial(_calibrate, p, out), colors, jobs,
                   "coloring: calibration", quiet, executor)
    cost = dict(zip(colors, cal, strict=True))
    keys = [RunKey(s, k, w, sc) for s in cs.SCHEDULERS for k in range(sets)
            for w in p.wss_kib for sc in cs.SCENARIOS]
    res = map_work(functools.partial(_one, p, out, tsets, cost, max(1, jobs)),
                   list(enumerate(keys)), jobs, "coloring: QEMU runs", quiet, executor)
    errors = [r["error"] for r in res if "error" in r]
    for e in errors:
        print(f"coloring: left out: {e.splitlines()[0]}")
    rows, tasks = aggregate(p, tsets, res)
    if not rows:
        raise ColoringError(f"no run succeeded ({len(errors)} failed)")
    meta = {"seed": seed, "sets": sets, "params": asdict(p),
            "calibration_cycles_per_access": {str(c): v for c, v in cost.items()},
            "qemu_wall_s": sum(r.get("wall_s") or 0 for r in res), "errors": errors,
            "sets_generated": {s: [asdict(ts) for ts in v] for s, v in tsets.items()},
            "runs": res}
    (out / "jobs.json").write_text(json.dumps(meta, indent=None))
    csv = out / "results.csv"
    _write_csv(csv, [asdict(r) for r in rows])
    _write_csv(out / "tasks.csv", tasks)
    from partita.experiments import coloring_plots

    coloring_plots.plot_all(out, rows, p, seed, sets)
    return csv
