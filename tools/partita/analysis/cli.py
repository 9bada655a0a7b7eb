"""`partita analyze <config.yaml|taskset.yaml> [--test NAME] [-o bounds.json]`.

Two inputs are accepted:
- a system configuration (has `schedulers:` and `threads:`), loaded with partita.config;
  every scheduler instance is analysed with the test matching its policy (fp -> fp-rta,
  edf -> edf-rta per cpu, gedf -> gedf-best), or with `--test` where it fits the policy;
  the WCETs are inflated with the kernel costs of the configuration's `overheads:` file or
  the committed configs/overheads/kernel.json, scaled by the number of harts (see
  analyze_config);
- a task set (has `tasks:`), the simple format documented in docs/analysis.md:
      platform: {cores: 2, tdma_slot_ns: 435160}    # optional, cores default 1
      test: fp-rta                                    # optional default test
      tasks:
        - {name: a, wcet_us: 100, period_ms: 1, deadline_ms: 1, priority: 0}
        - {name: b, wcet_ns: 50000, period_ns: 2000000, load_bytes: 4096, unload_bytes: 512}
  times take a _ns, _us or _ms suffix (integers or decimals; stored as integer ns).

bounds.json: {"test": NAME, "tasks": {NAME: {"bound_ns": int|null, "deadline_ns": int,
"schedulable": bool}}}; tests without per-task bounds report bound_ns = deadline_ns for an
accepted set and null otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from partita.analysis import edf, fp, gedf, overheads, partition, spm
from partita.analysis.errors import AnalysisInputError
from partita.model import Platform, Task, ThreePhaseTask

Bounds = list[int | None]

UNIPROC = ("fp-rta", "np-fp-rta", "ll", "hyperbolic", "edf-rta", "edf-qpa", "edf-util")
GLOBAL = ("gfb", "bak", "bcl", "bcl-iter", "gedf-rta", "gedf-best")
FAMILY = {"fp": ("fp-rta", "np-fp-rta", "ll", "hyperbolic"),
          "edf": ("edf-rta", "edf-qpa", "edf-util"), "gedf": GLOBAL}
PART = tuple(f"{s}-{h}" for s in ("pedf", "pfp") for h in partition.HEURISTICS)
TESTS = UNIPROC + GLOBAL + PART + ("spm",)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="system configuration or task-set YAML")
    p.add_argument("--test", choices=TESTS, help="analysis to run (default: by policy)")
    p.add_argument("-o", "--output", type=Path, default=Path("bounds.json"),
                   help="where to write bounds.json (default: ./bounds.json)")
    p.add_argument("--analysis", choices=sorted(spm.ANALYSES), default="exact",
                   help="SPM test (--test spm): exact = the critical-instant schedule with the "
                   "TDMA phase (default), conservative = seed 000 Lemma 1 intervals, "
                   "anti-sorted pairing (docs/spm.md)")
    p.add_argument("--cores", type=int, help="override the task set's platform cores (m)")
    p.add_argument("--overheads", type=Path, metavar="KERNEL_JSON",
                   help="inflate WCETs with kernel costs (default for configurations: their "
                   "overheads: field, else the committed configs/overheads/kernel.json)")
    p.add_argument("--no-overheads", action="store_true",
                   help="do not add kernel costs")
    p.add_argument("--app-dir", action="append", default=[], metavar="DIR",
                   help="application directory outside the configuration (as for build/run)")


# ------------------------------------------------------------------ task sets

_TIME_FIELDS = ("wcet", "period", "deadline", "offset", "jitter")


def _where(file: str, node: Any, path: tuple[str | int, ...]) -> str:
    """'FILE:LINE: tasks[2].period' for a field of a task-set file (as configurations do)."""
    from partita.config.errors import format_path
    from partita.config.loader import _line_of

    line = _line_of(node, path) if node is not None else None
    return f"{file}:{line}: {format_path(path)}" if line else f"{file}: {format_path(path)}"


def load_taskset(doc: dict[str, Any], file: str = "task set", node: Any = None
                 ) -> tuple[list[Task], Platform, str | None]:
    """Tasks, platform and default test of a task-set document. Durations take the units of
    configurations (`X_ns`, `X_us`, `X_ms`, `X_s`, one form, whole ns: partita.config.units);
    errors name the file, the line (given the composed YAML `node`), the field and the task."""
    from partita.config.errors import did_you_mean
    from partita.config.units import UnitError, pop_duration

    raw_tasks = doc.get("tasks")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise AnalysisInputError(f"{_where(file, node, ('tasks',))}: must be a non-empty list")
    tasks: list[Task] = []
    for k, rt in enumerate(raw_tasks):
        if not isinstance(rt, dict):
            raise AnalysisInputError(f"{_where(file, node, ('tasks', k))}: must be a mapping")
        name = rt.get("name", f"tasks[{k}]")
        d = dict(rt)
        for base in _TIME_FIELDS:
            try:
                ns = pop_duration(d, base)
            except UnitError as e:
                raise AnalysisInputError(f"{_where(file, node, ('tasks', k, base))}: "
                                         f"task {name}: {e}") from None
            if ns is not None:
                d[f"{base}_ns"] = ns
        cls = ThreePhaseTask if "load_bytes" in d or "unload_bytes" in d else Task
        try:
            tasks.append(cls(**d))
        except Exception as e:  # pydantic ValidationError: name the task and the field
            errs = getattr(e, "errors", None)
            if not callable(errs):
                raise AnalysisInputError(f"{_where(file, node, ('tasks', k))}: task {name}: "
                                         f"{e}") from None
            # an unknown field first: it usually explains the "required" one that follows
            er = sorted(errs(), key=lambda x: x["type"] != "extra_forbidden")[0]
            field = str(er["loc"][0]) if er["loc"] else ""
            msg = str(er["msg"]).removeprefix("Value error, ")
            if er["type"] == "extra_forbidden":
                units = [f"{b}_{u}" for b in _TIME_FIELDS for u in ("ns", "us", "ms", "s")]
                msg = "unknown field" + did_you_mean(field, [*cls.model_fields, *units])
            path: tuple[str | int, ...] = ("tasks", k, field.removesuffix("_ns")) if field \
                else ("tasks", k)
            raise AnalysisInputError(f"{_where(file, node, path)}: task {name}: "
                                     f"{field + ': ' if field else ''}{msg}") from None
    names = [t.name for t in tasks]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise AnalysisInputError(f"{_where(file, node, ('tasks',))}: duplicate task name(s): "
                                 f"{sorted(dup)}")
    try:
        plat = Platform(**doc.get("platform", {"cores": 1}))
    except Exception as e:
        raise AnalysisInputError(f"{_where(file, node, ('platform',))}: {e}") from None
    return tasks, plat, doc.get("test")


def _uniproc(test: str, tasks: Sequence[Task]) -> tuple[bool, Bounds]:
    if test == "fp-rta":
        r = fp.rta(tasks)
        return r.schedulable, r.bounds_ns
    if test == "np-fp-rta":
        r = fp.np_rta(tasks)
        return r.schedulable, r.bounds_ns
    if test == "edf-rta":
        # verdict by QPA (exact and fast); Spuri's bounds per task (bounded candidate sets)
        return edf.qpa(tasks), edf.rta(tasks)
    order = fp.priority_order(tasks)
    if test in ("ll", "hyperbolic"):
        c = [tasks[i].wcet_ns for i in order]
        t = [tasks[i].period_ns for i in order]
        if any(x.d != x.period_ns for x in tasks):
            raise AnalysisInputError(f"{test}: needs implicit deadlines (D = T)")
        f: Callable[..., Any] = fp.liu_layland if test == "ll" else fp.hyperbolic
        v = bool(f(c, t)[0])
    elif test == "edf-util":
        if any(x.d != x.period_ns for x in tasks):
            raise AnalysisInputError("edf-util: needs implicit deadlines (D = T); use edf-qpa")
        v = bool(edf.utilization_test([x.wcet_ns for x in tasks],
                                      [x.period_ns for x in tasks])[0])
    else:
        v = edf.qpa(tasks)
    return v, [x.d if v else None for x in tasks]


def _dur(ns: int) -> str:
    """A duration in the unit that fits it (ns-scale sets must not print as '0.0 µs')."""
    for unit, scale in (("s", 10**9), ("ms", 10**6), ("µs", 10**3)):
        if abs(ns) >= scale:
            return f"{ns / scale:,.3f} {unit}".replace(".000 ", " ")
    return f"{ns} ns"


def run_test(test: str, tasks: Sequence[Task], plat: Platform,
             spm_analysis: str = "exact") -> tuple[bool, Bounds]:
    """Run one named test; returns (verdict, bounds in the order of `tasks`)."""
    if test in UNIPROC:
        if plat.cores != 1:
            raise AnalysisInputError(f"{test} is a uniprocessor test; platform has "
                                     f"{plat.cores} cores (use gedf-* or pedf-*/pfp-*)")
        return _uniproc(test, tasks)
    if test == "gedf-best":
        # RTA bounds where it proves them; the set is accepted if any G-EDF test accepts it,
        # and then tasks without an RTA bound get their deadline as bound.
        v, b = gedf.analyze(tasks, plat.cores, "rta")
        if not v:
            v = any(gedf.analyze(tasks, plat.cores, t)[0] for t in ("gfb", "bcl-iter", "bak"))
        return v, [x if x is not None else (t.d if v else None)
                   for x, t in zip(b, tasks, strict=True)]
    if test in GLOBAL:
        return gedf.analyze(tasks, plat.cores, "rta" if test == "gedf-rta" else test)
    if test == "spm":
        r = spm.analyze([t for t in tasks], plat, app_cores=plat.cores,  # type: ignore[misc]
                        analysis=spm_analysis)
        return r.schedulable, r.bounds_ns
    sched, heur = test.split("-", 1)
    res = partition.partition(tasks, plat.cores, heur, "edf" if sched == "pedf" else "fp")
    if not res.ok:
        return False, [None] * len(tasks)
    assert res.mapping is not None
    bounds: dict[str, int | None] = {}
    for core in range(plat.cores):
        sub = [t for t in tasks if res.mapping[t.name] == core]
        if not sub:
            continue
        one = Platform(cores=1)
        _, b = run_test("edf-rta" if sched == "pedf" else "fp-rta", sub, one)
        bounds.update({t.name: x for t, x in zip(sub, b, strict=True)})
    return True, [bounds[t.name] for t in tasks]


# ------------------------------------------------------------------ configs

# offload: the same fixed-priority semantics, decided by the scheduler coprocessor
_POLICY_TEST = {"fp": "fp-rta", "edf": "edf-rta", "gedf": "gedf-best", "offload": "fp-rta"}


def _high_first(raw: Any) -> bool:
    """The scheduler coprocessors' priority order is high_first (one order per system)."""
    return any(isinstance(c, dict) and c.get("priority_order") == "high_first"
               for c in (raw if isinstance(raw, list) else []))


def default_kernel_json() -> Path:
    """The committed kernel costs, `configs/overheads/kernel.json`: analyses change only when
    this file does (`make bench-docs` refreshes it from a new `make bench`), never because a
    benchmark ran. A configuration can name another file with `overheads: FILE`."""
    from partita.run.build import ROOT

    return ROOT / "configs" / "overheads" / "kernel.json"


def analyze_config(path: Path, test: str | None, costs: dict[str, int] | None = None,
                   info: dict[str, Any] | None = None, app_dirs: Sequence[str | Path] = ()
                   ) -> tuple[str, list[tuple[Task, int | None]]]:
    """Bounds of every periodic/sporadic thread of a configuration, per scheduler instance.

    With `costs` (partita.analysis.overheads.load_costs_ns) every job is charged
    overheads.per_job_ns(costs) x ncpus: the costs are measured on one busy hart, and under
    QEMU icount every busy hart slows the others (docs/kernel.md), so like a WCET the charge
    scales with the number of harts that may be busy at once. `info` (if given) receives
    per-task {"scheduler", "cpu", "test"}."""
    from partita.config import load_resolved

    r = load_resolved(path, app_dirs=app_dirs)
    rows: list[tuple[Task, int | None]] = []
    used: list[str] = []
    scale = r.ncpus
    for si, s in enumerate(r.scheds):
        groups: dict[int, list[Task]] = {}
        for th in r.threads:
            if th.sched != si or th.period_ns <= 0 or th.wcet_ns <= 0:
                continue
            key = th.cpu if s.policy in ("fp", "edf") and len(s.cpus) > 1 else -1
            if info is not None:
                info[th.name[:31]] = {"scheduler": s.name,
                                      "cpu": s.cpus[0] if len(s.cpus) == 1 else None}
            task = th.task()  # the configuration's task model, carried through as is
            assert task is not None  # periodic / sporadic (period and wcet checked above)
            if s.policy not in ("fp", "offload"):  # deadline-ordered: no priority
                task = task.model_copy(update={"priority": None})
            elif s.policy == "offload" and _high_first(r.subsys.get("coproc")):
                # 255 is the highest: the analysis' order is 0 highest
                task = task.model_copy(update={"priority": 255 - (task.priority or 0)})
            groups.setdefault(key, []).append(task)
        t = _POLICY_TEST.get(s.policy)
        if t is None:
            continue
        if test is not None and test in FAMILY.get(s.policy, ()):
            t = test
        for key, tasks in groups.items():
            cores = len(s.cpus) if key == -1 and s.policy == "gedf" else 1
            why = None
            if costs is not None:
                try:
                    tasks = overheads.inflate(tasks, costs, scale=scale)
                except AnalysisInputError as e:
                    # a job that cannot finish by its deadline even alone: the group is not
                    # schedulable and has no bounds (the run still shows what happens)
                    why = str(e)
            b = [None] * len(tasks) if why else run_test(t, tasks, Platform(cores=cores))[1]
            if info is not None:
                for x in tasks:
                    info[x.name]["test"] = t
                    if why:
                        info[x.name]["reason"] = why
            rows += list(zip(tasks, b, strict=True))
        used.append(f"{s.name}:{t}")
    from partita import subsys

    for sub, section in subsys.used(r.subsys):  # each subsystem analyses its own tasks
        bounds = sub.bounds(section)
        for task in sub.tasks(section):
            rows.append((task, bounds[task.name]["bound_ns"]))
            if info is not None:
                info[task.name] = {"scheduler": sub.name, "cpu": None, "test": sub.name}
        used.append(f"{sub.name}:{sub.name}")
    return ",".join(used), rows


# ------------------------------------------------------------------ verb


def analyze_file(path: Path, test: str | None = None, cores: int | None = None,
                 overheads_json: Path | None = None, auto_overheads: bool = True,
                 app_dirs: Sequence[str | Path] = (), spm_analysis: str = "exact"
                 ) -> dict[str, Any]:
    """Analyse a file and return the bounds.json document (WCETs inflated with the kernel
    costs of `overheads_json` if given, see partita.analysis.overheads). For a system
    configuration without `overheads_json` and with `auto_overheads`, its `overheads:` file or
    else `default_kernel_json()` is charged (an error if missing); the document's "overheads"
    entry says what was charged."""
    try:
        text = path.read_text()
        doc = yaml.safe_load(text)
    except OSError as e:
        raise AnalysisInputError(f"{path}: {e.strerror}") from None
    if not isinstance(doc, dict):
        raise AnalysisInputError(f"{path}: expected a YAML mapping")
    is_config = "threads" in doc or "schedulers" in doc
    if overheads_json is None and is_config and auto_overheads:
        named = doc.get("overheads")  # the configuration's own choice, relative to it
        overheads_json = (path.parent / named) if isinstance(named, str) else \
            default_kernel_json()
        if not overheads_json.exists():
            raise AnalysisInputError(f"{path}: overheads: {overheads_json} does not exist")
    costs = None if overheads_json is None else overheads.load_costs_ns(overheads_json)
    extra: dict[str, Any] = {}
    if is_config:
        info: dict[str, Any] = {}
        name, rows = analyze_config(path, test, costs, info, app_dirs)
        per_job = 0 if costs is None else overheads.per_job_ns(costs)
        from partita.config import load_resolved
        ncpus = load_resolved(path, app_dirs=app_dirs).ncpus
        extra["overheads"] = {
            "source": None if overheads_json is None else str(overheads_json),
            "per_job_ns": per_job, "harts": ncpus, "charged_ns": per_job * ncpus}
    else:
        tasks, plat, default = load_taskset(doc, str(path), yaml.compose(text))
        if costs is not None:
            tasks = overheads.inflate(tasks, costs)
        if cores is not None:
            plat = plat.model_copy(update={"cores": cores})
        name = test or default or ("spm" if all(isinstance(t, ThreePhaseTask) for t in tasks)
                                   else "fp-rta" if plat.cores == 1 else "gedf-rta")
        if name not in TESTS:
            raise AnalysisInputError(f"unknown test {name!r}; choose from {', '.join(TESTS)}")
        _, b = run_test(name, tasks, plat, spm_analysis)
        rows = list(zip(tasks, b, strict=True))
    out: dict[str, Any] = {"test": name, "tasks": {
        t.name: {"bound_ns": bd, "deadline_ns": t.d,
                 "schedulable": bd is not None and bd <= t.d} for t, bd in rows}}
    if is_config:
        for t, _ in rows:
            out["tasks"][t.name].update(wcet_ns=t.wcet_ns, **info.get(t.name, {}))
    out.update(extra)
    return out


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    try:
        out = analyze_file(args.file, args.test, args.cores, args.overheads,
                           auto_overheads=not args.no_overheads, app_dirs=args.app_dir,
                           spm_analysis=args.analysis)
    except AnalysisInputError as e:
        con.print(f"[red]error:[/red] {e}")
        return 2
    except Exception as e:  # config errors carry their own formatting
        if type(e).__name__ == "ConfigError":
            con.print(f"[red]error:[/red] {e}")
            return 2
        raise
    tab = Table(title=f"{args.file} — {out['test']}")
    for col in ("task", "bound", "deadline", "verdict"):
        tab.add_column(col, justify="left" if col == "task" else "right")
    for name, r in out["tasks"].items():
        b = "—" if r["bound_ns"] is None else _dur(r["bound_ns"])
        ok = "[green]ok[/green]" if r["schedulable"] else "[red]MISS[/red]"
        tab.add_row(name, b, _dur(r["deadline_ns"]), ok)
    con.print(tab)
    ov = out.get("overheads")
    if ov is not None:
        con.print(f"kernel overheads: {ov['charged_ns']:,} ns per job "
                  f"({ov['per_job_ns']:,} ns x {ov['harts']} harts, from {ov['source']})"
                  if ov["source"] else "kernel overheads: not included "
                  "(--no-overheads, or a task-set file without --overheads)")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(out, indent=1) + "\n")
    con.print(f"wrote {args.output}")
    return 0 if all(r["schedulable"] for r in out["tasks"].values()) else 1
