"""Random schedulable SPM task sets for the soundness test (brief 0), batched as phases so one
boot runs many sets: `partita.subsys.spm.soundness.write_configs(n_sets, per_boot, outdir, seed)`.

A task executes the `spin` image for a set number of loop iterations, so its real execution
time is known; its configured wcet carries a margin above that. A set is kept only if the
analysis (partita.analysis.spm) declares every task schedulable."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from partita.subsys.spm.config import parse

SPIN_NS_PER_ITER = 3      # icount shift 0: the spin loop is 3 instructions per iteration (measured)
WCET_MARGIN_NS = 20_000   # entry, return and the loop's set-up are inside the margin
# Under QEMU icount the harts take turns on one instruction-driven clock (docs/spm.md, "The QEMU
# icount limitation"). The declared wcet is the platform's:
# - PLATFORM_SHARE: the I/O core and both application harts may compute at once, each then
#   advances at about 1/3 of the virtual clock;
# - TURN_LOSS_NS: QEMU hands out whole intervals between timer deadlines, at most one
#   application heartbeat (subsys/spm/spm_rt.c PT_SPM_BEAT_NS = 10 us) long; at the start
#   and at the end of a job each of the two other harts may hold such an interval:
#   2 ends x 2 harts x 10 us.
PLATFORM_SHARE = 3
BEAT_NS = 10_000
TURN_LOSS_NS = 2 * 2 * BEAT_NS
SIGMA_NS = 100_000


def _uunifast(rng: random.Random, n: int, u: float) -> list[float]:
    out, rest = [], u
    for i in range(1, n):
        nxt = rest * rng.random() ** (1 / (n - i))
        out.append(rest - nxt)
        rest = nxt
    return out + [rest]


def spin_tasks(rng: random.Random, prefix: str, u_range: tuple[float, float],
               period_ms: tuple[int, int], min_exec_ns: int,
               wcet_ns: Callable[[int], int], cores: int = 2) -> list[dict[str, Any]]:
    """2-3 `spin` tasks per application core: UUniFast utilizations summing to a draw from
    u_range, periods a whole number of ms in period_ms, rate-monotonic priorities."""
    tasks = []
    for core in range(cores):
        n = rng.choice((2, 3))
        us = _uunifast(rng, n, rng.uniform(*u_range))
        periods = sorted(rng.randint(*period_ms) * 1_000_000 for _ in range(n))
        for k, (u, period) in enumerate(zip(us, periods, strict=True)):
            exec_ns = max(min_exec_ns, int(u * period))
            tasks.append({"name": f"{prefix}c{core}t{k}", "core": core, "image": "spin",
                          "arg": exec_ns // SPIN_NS_PER_ITER, "priority": k,
                          "period_ns": period, "wcet_ns": wcet_ns(exec_ns),
                          "image_bytes": 1024, "phase": 0})
    return tasks


def platform_wcet(exec_ns: int, m: int = 2) -> int:
    """Declared wcet of `exec_ns` of instruction time with M application cores: the I/O core
    and the M application harts may compute at once (share M + 1), and at the start and end
    of a job each other busy hart may hold one heartbeat turn (2 x M x 10 us). With M = 4
    the 8 harts leave one application hart without a spacer before it (HARTS: it follows the
    I/O hart): one more share (measured with the last two application harts adjacent:
    2 of 972 jobs overran (M + 1) x, by up to 9x their instruction time)."""
    share = m + 1 + (1 if m == 4 else 0)
    return share * exec_ns + WCET_MARGIN_NS + 2 * m * BEAT_NS


#: utilization of instruction time per core drawn for a candidate set; the analysis filter
#: (`schedulable`) then keeps the sets up to its own acceptance limit
U_RANGE = {2: (0.02, 0.3), 3: (0.02, 0.22), 4: (0.02, 0.18)}


def random_set(rng: random.Random, set_no: int, m: int = 2) -> list[dict[str, Any]]:
    """Odd-numbered sets get the adversarial release pattern of seed 000 Lemma 2 on every
    core (`lemma2_offsets`), even-numbered ones synchronous releases."""
    ts = spin_tasks(rng, f"s{set_no}", U_RANGE[m], (2, 20), 1000,
                    lambda e: platform_wcet(e, m), cores=m)
    return lemma2_offsets(ts, m) if set_no % 2 else ts


def lemma2_offsets(tasks: list[dict[str, Any]], m: int) -> list[dict[str, Any]]:
    """Per core c (own slots at origin + c sigma + k M sigma): the lowest-priority task is
    released at its core's first slot and loaded there, the next lowest 1 ns later (loaded in
    the next own slot), every other task 1 ns after that slot began: the higher-priority
    tasks just miss it (the critical instant of the analysis)."""
    out = []
    for core in range(m):
        mine = sorted((t for t in tasks if t["core"] == core), key=lambda t: -t["priority"])
        first = core * SIGMA_NS
        for k, t in enumerate(mine):
            off = first if k == 0 else first + 1 if k == 1 else first + m * SIGMA_NS + 1
            out.append({**t, "offset_ns": off})
    return sorted(out, key=lambda t: (t["core"], t["priority"]))


def schedulable(tasks: list[dict[str, Any]], m: int = 2) -> bool:
    from partita.subsys.spm.bounds import bounds_for

    spm, problems = parse({"io_cpu": 0, "app_cpus": list(range(1, m + 1)),
                           "sigma_ns": SIGMA_NS, "tasks": tasks})
    assert spm is not None, problems
    return all(b["schedulable"] for b in bounds_for(spm).values())


#: harts per number of application cores: I/O core first, idle spacers between application
#: harts while the 8 harts allow (M = 4: the first application hart follows the I/O hart,
#: which sleeps in wfi when it has nothing to do; two adjacent application harts starved)
HARTS = {2: ["io", "idle", "app", "idle", "app"],
         3: ["io", "idle", "app", "idle", "app", "idle", "app"],
         4: ["io", "app", "idle", "app", "idle", "app", "idle", "app"]}


def system(name: str, sets: list[list[dict[str, Any]]], m: int = 2) -> dict[str, Any]:
    tasks = []
    for phase, ts in enumerate(sets):
        for t in ts:
            tasks.append({**t, "phase": phase})
    longest = max(t["period_ns"] for ts in sets for t in ts)
    apps = [h for h, r in enumerate(HARTS[m]) if r == "app"]
    phase_ns = 2 * longest
    return {
        "name": name, "ncpus": len(HARTS[m]), "icount_shift": 0,
        # the spacers must sleep (a spinning idle hart would take a full share of the clock)
        "idle": "wfi",
        "run_for_ns": len(sets) * (phase_ns + 30_000_000),
        # Harts 0 (I/O), 2 and 4 (application cores); 1 and 3 are idle spacers. QEMU 7.2's
        # icount round-robin gives a hart its turn up to the earliest timer deadline, and the
        # hart after a turn that ended at a deadline gets a zero budget: an idle spacer takes
        # that zero turn, so the busy harts take the intervals between deadlines in turn
        # (docs/spm.md, "The QEMU icount limitation").
        "cpus": [{"id": h, "role": r} for h, r in enumerate(HARTS[m])],
        "schedulers": [{"name": f"fp{h}", "policy": "fp", "cpus": [h]} for h in apps],
        "spm": {"io_cpu": 0, "app_cpus": apps, "sigma_ns": SIGMA_NS, "phase_ns": phase_ns,
                "tasks": tasks},
    }


def write_configs(n_sets: int, per_boot: int, outdir: Path, seed: int = 1, m: int = 2
                  ) -> list[Path]:
    rng = random.Random(seed)
    sets: list[list[dict[str, Any]]] = []
    no = 0
    while len(sets) < n_sets:
        ts = random_set(rng, no, m)
        no += 1
        if schedulable(ts, m):
            sets.append(ts)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for b in range(0, n_sets, per_boot):
        nm = f"spm-sound{'' if m == 2 else f'm{m}-'}{b // per_boot}"
        p = outdir / f"{nm}.yaml"
        p.write_text(yaml.safe_dump(system(nm, sets[b:b + per_boot], m), sort_keys=False))
        paths.append(p)
    return paths


def check_boot(cfg: Path, out_root: Path) -> dict[str, Any]:
    """Boot one batch of sets and compare every task's observed response times with the
    bound of partita.analysis.spm (a worker of `campaign`; everything it returns is plain
    data, so it travels back from a Dask worker)."""
    import json

    from partita.run.run import run_config
    from partita.subsys.spm.events import decode
    from partita.subsys.spm.report import add_bounds, invariant_violations

    r = run_config(cfg, out_root / cfg.stem, png=False, bounds=False)
    if r.area is None:
        return {"config": cfg.stem, "error": r.describe(), "tasks": {}}
    add_bounds(cfg, r.out)
    bounds = json.loads((r.out / "bounds.json").read_text())["tasks"]
    wcet = {t["name"]: t["wcet_ns"] for t in yaml.safe_load(cfg.read_text())["spm"]["tasks"]}
    tl = decode(r.area)
    tasks = {}
    for name, jobs in sorted(tl.jobs.items()):
        rs = [j.response_ns for j in jobs.values() if j.response_ns is not None]
        tasks[name] = {"jobs": len(rs), "max_response_ns": max(rs, default=None),
                       "bound_ns": bounds[name]["bound_ns"]}
    return {"config": cfg.stem, "error": None, "phases": len(tl.phases),
            "violations": invariant_violations(tl), "tasks": tasks,
            "exec_over": sum(1 for e in tl.execs
                             if e.end_ns is not None and e.end_ns - e.begin_ns > wcet[e.task])}


def campaign(n_sets: int, per_boot: int, outdir: Path, seed: int = 1, jobs: int = 1,
             executor: str | None = None, quiet: bool = True) -> list[dict[str, Any]]:
    """A QEMU soundness campaign: `n_sets` random schedulable sets (seeded), `per_boot` per
    boot, each boot checked by `check_boot` on the chosen executor (process pool, a Dask
    LocalCluster or dask://HOST:PORT, see partita.experiments.runner); results in config
    order whatever the executor."""
    import functools

    from partita.experiments.runner import map_work

    cfgs = write_configs(n_sets, per_boot, outdir / "configs", seed=seed)
    return map_work(functools.partial(check_boot, out_root=outdir / "runs"), cfgs, jobs,
                    "spm-soundness", quiet=quiet, executor=executor)
