"""Kernel vs exact protocol simulator, job by job (brief 0: "on small sets the exact protocol
simulator and the kernel agree job by job").

`small_sets(n, outdir, seed)` writes one batched configuration of `n` small random task sets
(spin tasks, 2-3 per application core, higher load than the soundness sets so that jobs queue
and both rules fire). `compare(cfg, area)` replays every phase and core of a run through
`partita.analysis.sim.simulate_spm` and returns one `JobDiff` per job.

What the simulator is fed (all measured on the kernel's trace, relative to the phase origin):
- the nominal release times of every job (RELEASE events carry release + deadline);
- per job, the execution time *including the dispatch latency*: exec end - max(load end,
  end of the previous execution on the core). The simulator starts a job the instant its load
  completes; on the kernel the I/O core's IPI and the application hart's pick come first, so
  this latency belongs to the job's CPU time in the model;
- per job, its copy durations: transfer end - nominal start of the slot the *kernel* used
  (this includes the I/O core's lateness at the slot boundary, measured up to ~12 us).
The decisions are the simulator's own: which job is loaded or unloaded in which slot (Rule 1,
Rule 2, priorities), into which partition, and when each job runs. Compared per job: the slot
of its load and of its unload and its partition (exact), and the load end, execution start,
execution end and unload end times (within `TOL_NS` = 20 us). With the inputs above the
times agree exactly when the decisions agree, except the execution start: the simulator starts
a job at its load end (or the previous job's end), the kernel after the dispatch latency
(measured up to ~10 us: IPI, the application hart's turn under icount, the pick).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from partita.analysis.sim import SpmJobLog, simulate_spm
from partita.subsys.spm.config import parse
from partita.subsys.spm.events import TID_BASE, decode
from partita.subsys.spm.soundness import SIGMA_NS, spin_tasks, system
from partita.trace.format import Area, Ev

TOL_NS = 20_000


def _set(rng: random.Random, no: int, outlive: bool = False) -> list[dict[str, Any]]:
    if outlive:  # the declared wcet only selects the sets here (compare uses measured times)
        ts = spin_tasks(rng, f"q{no}", (0.4, 0.7), (1, 6), 2000, lambda e: e + 60_000)
        for t in ts:
            t["wcet_ns"] = min(t["wcet_ns"], t["period_ns"])
        return ts
    return spin_tasks(rng, f"q{no}", (0.15, 0.35), (1, 6), 2000, lambda e: 3 * e + 60_000)


def _outlives(tasks: list[dict[str, Any]]) -> bool:
    """Some job, in the simulator with the declared wcet, ends after the next release of its
    task: the kernel then holds that release pending (so does the simulator, `serial`)."""
    return not _no_overlap(tasks)


def _no_overlap(tasks: list[dict[str, Any]]) -> bool:
    """Every job, in the simulator with the declared wcet, ends before the next release of
    its task (no release is ever held pending)."""
    for core in range(2):
        mine = sorted((t for t in tasks if t["core"] == core), key=lambda t: t["priority"])
        horizon = 2 * max(t["period_ns"] for t in tasks)
        rel = [list(range(0, horizon + 1, t["period_ns"])) for t in mine]
        r = simulate_spm([t["wcet_ns"] for t in mine], [t["period_ns"] for t in mine], rel,
                         SIGMA_NS, 2, core)
        if any(m >= t["period_ns"] for m, t in zip(r.max_response, mine, strict=True)):
            return False
    return True


def small_sets(n: int, outdir: Path, seed: int = 7, outlive: bool = False) -> Path:
    """`n` sets in one configuration; with `outlive`, heavier sets (40-70 % per core) in which
    some job outlives its period (pending releases), else sets where none does."""
    rng = random.Random(seed)
    sets: list[list[dict[str, Any]]] = []
    no = 0
    while len(sets) < n:
        ts = _set(rng, no, outlive)
        no += 1
        if (_outlives if outlive else _no_overlap)(ts):
            sets.append(ts)
    outdir.mkdir(parents=True, exist_ok=True)
    doc = system(f"spm-simcheck{seed}{'o' if outlive else ''}", sets)
    doc["run_for_ns"] = len(sets) * (doc["spm"]["phase_ns"] + 10_000_000)
    p = outdir / f"spm-simcheck{seed}{'o' if outlive else ''}.yaml"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    return p


@dataclass
class JobDiff:
    task: str
    job: int                      # kernel job number (1-based)
    kernel: dict[str, int]
    sim: dict[str, int]

    def mismatches(self, tol: int = TOL_NS) -> list[str]:
        out = []
        for k in ("load_slot", "unload_slot", "partition"):
            if self.kernel[k] != self.sim[k]:
                out.append(f"{k} {self.kernel[k]} != {self.sim[k]}")
        for k in ("load_end", "exec_start", "exec_end", "unload_end"):
            if abs(self.kernel[k] - self.sim[k]) > tol:
                out.append(f"{k} {self.kernel[k]} vs {self.sim[k]}")
        return out


def _nominal_releases(area: Area, deadline_ns: dict[str, int],
                      names: dict[int, str]) -> dict[str, dict[int, int]]:
    recs = area.merged()
    scale = 1e9 / (area.cycles_per_sec or 1_000_000_000)
    out: dict[str, dict[int, int]] = defaultdict(dict)
    for x in recs:
        if int(x["type"]) == Ev.RELEASE and int(x["tid"]) >= TID_BASE:
            name = names.get(int(x["tid"]))
            if name in deadline_ns:
                out[name][int(x["arg0"])] = round(int(x["arg1"]) * scale) - deadline_ns[name]
    return out


def _copy(r: dict[str, int], sigma: int) -> tuple[int, int]:
    """(load, unload) duration of a kernel job: transfer end - nominal start of its slot."""
    return (min(sigma, r["load_end"] - r["load_slot"] * sigma),
            min(sigma, r["unload_end"] - r["unload_slot"] * sigma))


def compare(cfg: Path, area: Area) -> list[JobDiff]:
    spm, problems = parse(yaml.safe_load(cfg.read_text())["spm"])
    assert spm is not None, problems
    tl = decode(area)
    sigma, m = spm.sigma, len(spm.app_cpus)
    dl = {t.name: t.d for t in spm.tasks}
    rel = _nominal_releases(area, dl, tl.names)
    origin = dict(tl.phases)
    n0, o0 = tl.slots[0].number, tl.phases[0][1]
    xfers = {(x.kind, x.task, x.job): x for x in tl.transfers if x.job is not None}
    execs = {(e.task, e.job): e for e in tl.execs}
    out: list[JobDiff] = []
    for phase in range(spm.nphases):
        org = origin[phase]
        slot0 = n0 + (org - o0) // sigma
        for core in range(m):
            mine = sorted((t for t in spm.tasks if t.core == core and t.phase == phase),
                          key=lambda t: t.priority)
            names = [t.name for t in mine]
            jobs = {nm: sorted(rel[nm]) for nm in names}
            # kernel record per job, relative to the origin
            krec: dict[tuple[str, int], dict[str, int]] = {}
            ends: list[tuple[int, str, int]] = []
            for nm in names:
                for j in jobs[nm]:
                    ld, ul, ex = xfers[("load", nm, j)], xfers[("unload", nm, j)], \
                        execs[(nm, j)]
                    assert ld.end_ns and ul.end_ns and ex.end_ns
                    krec[(nm, j)] = {
                        "load_slot": ld.slot - slot0, "unload_slot": ul.slot - slot0,
                        "partition": ld.part, "load_end": ld.end_ns - org,
                        "exec_start": ex.begin_ns - org,
                        "exec_end": (ex.done_ns or ex.end_ns) - org,
                        "unload_end": ul.end_ns - org, "release": rel[nm][j] - org}
                    ends.append((ex.done_ns or ex.end_ns, nm, j))
            # execution time including dispatch latency, in execution order on the core
            cj: dict[tuple[str, int], int] = {}
            prev = 0
            for end, nm, j in sorted(ends):
                start = max(krec[(nm, j)]["load_end"] + org, prev)
                cj[(nm, j)] = end - start
                prev = end


            # the kernel's partition choice alternates across phases too: start where it did
            first_part = min((krec[k] for k in krec), key=lambda r: r["load_end"])["partition"]
            log: list[SpmJobLog] = []
            simulate_spm([1] * len(names), [t.d for t in mine],
                         [[rel[nm][j] - org for j in jobs[nm]] for nm in names], sigma, m,
                         core, exec_ns=[[cj[(nm, j)] for j in jobs[nm]] for nm in names],
                         copy_ns=[[_copy(krec[(nm, j)], sigma) for j in jobs[nm]]
                                  for nm in names], log=log,
                         first_partition=first_part)
            for s in log:
                nm = names[s.task]
                j = jobs[nm][s.job]
                out.append(JobDiff(nm, j, krec[(nm, j)], {
                    "load_slot": s.load_slot, "unload_slot": s.unload_slot,
                    "partition": s.partition, "load_end": s.load_end,
                    "exec_start": s.exec_start, "exec_end": s.exec_end,
                    "unload_end": s.unload_end}))
            missing = {(nm, j) for nm in names for j in jobs[nm]} - \
                {(d.task, d.job) for d in out}
            assert not missing, f"jobs the simulator did not complete: {sorted(missing)[:5]}"
    return out
