"""The task sets, configurations and re-simulation of `partita experiment coloring`
(seed 001 §IV; docs/coloring.md). Pure functions: no QEMU here (coloring.py runs them).

- `generate`: the paper's recipe (periods from {25, 50, 100, 200} ms, utilizations uniform in
  [0.1, 0.7], tasks added until GFB fails for G-EDF or best-fit decreasing partitioning fails
  for P-EDF), through `partita.analysis.generators.coloring_sec4`.
- `system_yaml`: one configuration per (set, working-set size, scenario) for `wss_task`
  (apps/coloring/wss_task.c), time scaled down by `Params.time_div` and by the number of harts
  (under icount each of m busy harts runs at 1/m instruction per virtual ns, docs/kernel.md).
- `resimulate`: G-EDF or P-EDF with the modeled per-job cycles, the schedule the modeled
  hierarchy would produce (guest time does not see the stalls, docs/memory.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from partita.analysis import gedf, generators, partition, sim

NS_PER_MS = 1_000_000
PERIODS_MS = (25, 50, 100, 200)
SCHEDULERS = ("G-EDF", "P-EDF")
SCENARIOS = ("S1", "S2", "S3")
KERNEL_COLOR = 0          # S1, S3: the kernel's own color
SPARE_COLOR = 1           # the paper's color for an uncolored heap: owned by nobody here
FIRST_TASK_COLOR = 2      # task k has color 2 + k (S1, S2); every task has color 2 in S3
MAX_ACCESSES = (1 << 24) - 1
ARG_SWEEP = 1 << 52


@dataclass(frozen=True)
class Params:
    """What one experiment run scales and measures (defaults: docs/coloring.md)."""

    cpus: int = 4                            # harts: the paper's 4 cores
    time_div: int = 20                       # paper periods / time_div = modeled periods
    hyperperiods: int = 3                    # guest run: the first is the warm-up
    jobs_per_task: int = 200                 # re-simulated jobs per task (the paper's 200)
    wss_kib: tuple[int, ...] = (32, 64, 128, 256)
    polluter_kib: int = 512
    llc_bytes: int = 8 << 20                 # the paper's L3: 8 MiB, 16-way, 64-byte lines
    llc_ways: int = 16
    line_bytes: int = 64
    l1_bytes: int = 32 << 10                 # its private L1D: 32 KiB, 8-way (0: no L1)
    l1_ways: int = 8
    margin: float = 0.85                     # accesses sized to margin x C at the isolated cost
    ram_mb: int = 256
    cal_accesses: int = 10_000
    # guest release offset between consecutive tasks: the first jobs allocate their arrays
    # one after another (four heap growths at once in one partition hung the guest, see
    # docs/coloring.md); the re-simulation releases every task at 0
    stagger_ns: int = 1_000_000

    @property
    def hw_colors(self) -> int:
        return self.llc_bytes // (self.llc_ways * 4096)

    def check(self) -> None:
        """Refuse a geometry the configurations could not express, naming the parameter."""
        lines = self.llc_bytes // self.line_bytes
        if self.llc_bytes % (self.llc_ways * 4096) or self.hw_colors < 2 or \
                self.hw_colors & (self.hw_colors - 1) or lines % self.llc_ways:
            raise ValueError(f"llc: {self.llc_bytes} bytes / {self.llc_ways} ways must give a "
                             "power-of-two number (>= 2) of 4 KiB-page colors")
        if self.cpus < 1 or self.time_div < 1 or self.hyperperiods < 2:
            raise ValueError("need cpus >= 1, time_div >= 1 and hyperperiods >= 2")
        for k in (*self.wss_kib, self.polluter_kib):
            if k < 4 or k & (k - 1) or k > 4095:
                raise ValueError(f"working set {k} KiB: a power of two in 4 .. 2048 KiB")


@dataclass
class TaskSet:
    """One generated set at the paper's scale (ns); `cores` the best-fit placement (P-EDF)."""

    scheduler: str
    C: list[int]
    T: list[int]
    cores: list[int] | None = None
    polluter: int = 0                        # index of the lowest-priority task

    @property
    def n(self) -> int:
        return len(self.C)

    @property
    def u(self) -> float:
        return float(sum(c / t for c, t in zip(self.C, self.T, strict=True)))

    def rt_tasks(self) -> list[int]:
        """The real-time tasks (all but the best-effort polluter)."""
        return [i for i in range(self.n) if i != self.polluter]


def gfb_accepts(m: int) -> Any:
    return lambda C, T: bool(gedf.gfb(np.asarray([C]), np.asarray([T]), None, m)[0])


def best_fit_accepts(m: int) -> Any:
    return lambda C, T: partition.place(list(map(int, C)), list(map(int, T)), None, m,
                                        "best-fit", "edf").failed is None


def generate(scheduler: str, m: int, gen: np.random.Generator) -> TaskSet:
    """A set of the paper's recipe. The polluter is the lowest-priority task: the longest
    period (under EDF with implicit deadlines, the latest deadlines), the last such one."""
    if scheduler not in SCHEDULERS:
        raise ValueError(f"scheduler {scheduler!r}: use one of {SCHEDULERS}")
    accept = gfb_accepts(m) if scheduler == "G-EDF" else best_fit_accepts(m)
    C, T = generators.coloring_sec4(m, gen, accept)
    if len(C) < 2:
        raise ValueError(f"{scheduler}: a set of {len(C)} task(s) leaves no real-time task")
    c, t = [int(x) for x in C], [int(x) for x in T]
    cores = None
    if scheduler == "P-EDF":
        cores = partition.place(c, t, None, m, "best-fit", "edf").cores
    pol = max(range(len(t)), key=lambda i: (t[i], i))
    return TaskSet(scheduler, c, t, cores, pol)


def colors_for(ts: TaskSet, p: Params) -> int:
    """Super colors: the paper's n + 2 (one per task, the kernel, an uncolored heap), rounded up
    to a power of two because Partita's super colors must divide the hardware colors; at
    least 8 so that the calibration (4 working sets and the polluter) has the same share."""
    k = 8
    while k < ts.n + 2:
        k *= 2
    if k > p.hw_colors:
        raise ValueError(f"{ts.n} tasks need {ts.n + 2} colors; the LLC has {p.hw_colors}")
    return k


def task_color(scenario: str, i: int) -> int:
    return FIRST_TASK_COLOR if scenario == "S3" else FIRST_TASK_COLOR + i


def pack_arg(accesses: int, kib: int, color: int, tid: int, sweep: bool) -> int:
    """wss_task's argument (bit layout in apps/coloring/wss_task.c)."""
    if not 1 <= accesses <= MAX_ACCESSES:
        raise ValueError(f"accesses {accesses} outside 1 .. {MAX_ACCESSES}")
    return accesses | kib << 24 | color << 36 | tid << 44 | (ARG_SWEEP if sweep else 0)


def hyperperiod_ns(T: Sequence[int]) -> int:
    return int(np.lcm.reduce(np.asarray(T, dtype=np.int64)))


def scaled(ts: TaskSet, p: Params) -> tuple[list[int], list[int]]:
    """(C, T) of the modeled platform: the paper's divided by time_div (1 cycle = 1 ns)."""
    return [c // p.time_div for c in ts.C], [t // p.time_div for t in ts.T]


def accesses_for(ts: TaskSet, p: Params, wss: int, cost: dict[int, float]) -> list[int]:
    """Accesses per job so that a job's isolated modeled cost is margin x its scaled C.
    `cost[kib]` = modeled cycles per access of that working set (polluter: its own KiB)."""
    C, _ = scaled(ts, p)
    out = []
    for i in range(ts.n):
        kib = p.polluter_kib if i == ts.polluter else wss
        out.append(max(1, min(MAX_ACCESSES, int(p.margin * C[i] / cost[kib]))))
    return out


def guest_run_ms(ts: TaskSet, p: Params) -> float:
    """Virtual run length: `hyperperiods` guest hyperperiods, the release offsets, and a
    quarter hyperperiod for the boot and the last jobs to complete."""
    _, T = scaled(ts, p)
    hyper_g = hyperperiod_ns(T) * p.cpus
    return ((p.hyperperiods + 0.25) * hyper_g + ts.n * p.stagger_ns) / NS_PER_MS


def _cache(p: Params, colors: int) -> tuple[dict[str, Any], dict[str, Any]]:
    cache = {"size_bytes": p.llc_bytes, "ways": p.llc_ways, "line_bytes": p.line_bytes,
             "page_bytes": 4096, "colors": colors}
    model: dict[str, Any] = {"l1": ({"size_bytes": p.l1_bytes, "ways": p.l1_ways}
                                    if p.l1_bytes else None)}
    return cache, model


def system_yaml(ts: TaskSet, p: Params, wss: int, scenario: str, accesses: Sequence[int],
                name: str) -> dict[str, Any]:
    """The configuration of one run. Guest periods are the scaled periods x cpus (each busy
    hart runs at 1/cpus instruction per virtual ns), declared WCETs the generated
    utilization of them; budgets are not enforced and guest misses are not the result."""
    if scenario not in SCENARIOS:
        raise ValueError(f"scenario {scenario!r}: use one of {SCENARIOS}")
    colors = colors_for(ts, p)
    C, T = scaled(ts, p)
    cache, model = _cache(p, colors)
    tcolors = sorted({task_color(scenario, i) for i in range(ts.n)})
    per_color = max(wss, p.polluter_kib) * 1024
    if scenario == "S3":  # one heap, every array in it
        per_color = (wss * (ts.n - 1) + p.polluter_kib) * 1024
    doc: dict[str, Any] = {
        "name": name, "ncpus": p.cpus, "icount_shift": 0, "ram_mb": p.ram_mb,
        "run_for_ms": round(guest_run_ms(ts, p), 3), "cache": cache, "cache_model": model}
    doc["kernel_colors"] = [KERNEL_COLOR]  # owned by the kernel in every scenario
    if scenario == "S2":  # the kernel's data spread over every color (docs/memory.md)
        doc["kernel_data"] = "uncolored"
    if ts.scheduler == "G-EDF":
        doc["schedulers"] = [{"name": "g", "policy": "gedf", "cpus": list(range(p.cpus))}]
    else:
        doc["schedulers"] = [{"name": f"e{k}", "policy": "edf", "cpus": [k]}
                             for k in range(p.cpus)]
    doc["partitions"] = [{"name": "tasks", "user": False, "colors": tcolors,
                          "heap": {"mode": "user", "bytes": per_color}}]
    threads = []
    for i in range(ts.n):
        kib = p.polluter_kib if i == ts.polluter else wss
        sched = "g" if ts.cores is None else f"e{ts.cores[i]}"
        threads.append({
            "name": f"t{i}", "entry": "wss_task",
            "arg": pack_arg(accesses[i], kib, task_color(scenario, i), i, i == ts.polluter),
            "partition": "tasks", "scheduler": sched,
            "period_ns": T[i] * p.cpus, "wcet_ns": max(1, C[i] * p.cpus),
            "offset_ns": i * p.stagger_ns})
    doc["threads"] = threads
    return doc


def calibration_yaml(p: Params, colors: int, name: str) -> dict[str, Any]:
    """One hart, one thread per working-set size (and the polluter), each on its own color,
    run one after another: the isolated modeled cost per access (the paper's unloaded run)."""
    kibs = [*p.wss_kib, p.polluter_kib]
    if len(kibs) + FIRST_TASK_COLOR > colors:
        raise ValueError(f"calibration needs {len(kibs) + FIRST_TASK_COLOR} colors, "
                         f"got {colors}")
    cache, model = _cache(p, colors)
    threads = []
    for k, kib in enumerate(kibs):
        threads.append({
            "name": f"c{kib}", "entry": "wss_task",
            "arg": pack_arg(p.cal_accesses, kib, FIRST_TASK_COLOR + k, k,
                            k == len(kibs) - 1),
            "partition": "tasks", "scheduler": "fp", "priority": 10 + k,
            "period_ns": 10 * NS_PER_MS, "wcet_ns": NS_PER_MS})
    return {"name": name, "ncpus": 1, "icount_shift": 0, "ram_mb": p.ram_mb,
            "run_for_ms": 55, "cache": cache, "cache_model": model,
            "kernel_colors": [KERNEL_COLOR],
            "schedulers": [{"name": "fp", "policy": "fp", "cpus": [0]}],
            "partitions": [{"name": "tasks", "user": False,
                            "colors": list(range(FIRST_TASK_COLOR,
                                                 FIRST_TASK_COLOR + len(kibs))),
                            "heap": {"mode": "user", "bytes": p.polluter_kib * 1024}}],
            "threads": threads}


@dataclass
class SimOutcome:
    missed: list[bool]
    total_ns: int                     # when the last job completed, at least the nominal end
    nominal_ns: int                   # jobs_per_task x the longest period
    max_response: list[int] = field(default_factory=list)


def resimulate(ts: TaskSet, p: Params, job_costs: Sequence[Sequence[int]]) -> SimOutcome:
    """Run `jobs_per_task` jobs of every task, released periodically from 0 at the scaled
    periods, under the set's scheduler; job k of task i costs job_costs[i][k mod len]
    (the measured steady-state jobs, repeated)."""
    _, T = scaled(ts, p)
    rel = [[k * t for k in range(p.jobs_per_task)] for t in T]
    costs = [[int(js[k % len(js)]) for k in range(p.jobs_per_task)] for js in job_costs]
    C1 = [max(1, c[0]) for c in costs]
    if ts.cores is None:
        r = sim.simulate_gedf(C1, T, rel, p.cpus, job_costs=costs)
        missed, resp, last = r.missed, r.max_response, r.last_completion
    else:
        missed, resp, last = [False] * ts.n, [0] * ts.n, 0
        for core in range(p.cpus):
            idx = [i for i in range(ts.n) if ts.cores[i] == core]
            if not idx:
                continue
            r = sim.simulate_uni([C1[i] for i in idx], [T[i] for i in idx],
                                 [rel[i] for i in idx], "edf",
                                 job_costs=[costs[i] for i in idx])
            for j, i in enumerate(idx):
                missed[i], resp[i] = r.missed[j], r.max_response[j]
            last = max(last, r.last_completion)
    nominal = p.jobs_per_task * max(T)
    return SimOutcome(list(missed), max(last, nominal), nominal, list(resp))
