"""The resolved system: what the C tables say, after every default and decision is made.

Resolution expands a P-EDF scheduler (policy edf over several cpus) into one EDF instance per
cpu and places its unpinned threads with `partita.config.partition`; gives FP threads without
a priority a deadline-monotonic one; turns names into table indices. The result is also
written as `pt_config.json` for the other tools (report, analysis).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from partita.config.checks import SYSTEM_PARTITION, parse_colors, scheduler_of
from partita.config.colormap import color_map
from partita.config.errors import Problem
from partita.config.partition import NoFit, assign
from partita.config.quotas import QUOTA_KEYS, UNLIMITED, default_quotas
from partita.config.schema import Policy, Role, SystemCfg, TdmCfg
from partita.model import Task

DM_BASE_PRIORITY = 16  # first priority handed out by deadline-monotonic assignment
EDF_PRIORITY = 128     # tie-break value for threads under EDF policies


class ResolveError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RCache(Frozen):
    size_bytes: int
    ways: int
    line_bytes: int
    page_bytes: int
    hw_colors: int
    colors: int


class RCpu(Frozen):
    id: int
    role: str
    sched: int  # index into scheds, -1 for non-app roles


class RSched(Frozen):
    name: str
    policy: str
    cpus: list[int]
    rr_slice_ns: int
    origin: str  # scheduler name in the YAML (differs for expanded P-EDF instances)
    tdm: TdmCfg | None = None  # policy tdm: its wheel


class RPartition(Frozen):
    name: str
    user: bool
    fault_policy: str
    colors: list[int]
    heap_bytes: int
    heap_mode: str = "none"  # none | os | user (colored heaps)
    heap_color_bytes: int = 0  # the most each color's heap may grow to
    # rights and quotas (kernel/include/partita/config.h; enforced for user partitions)
    sched_mask: int = 0
    prio_highest: int = 0
    prio_lowest: int = 255
    prio_aperiodic_highest: int = 0
    budget_ppm: int = 0
    quota: dict[str, int] = {}
    trace_records_per_ms: int = UNLIMITED
    trace_burst: int = UNLIMITED


class RThread(Frozen):
    name: str
    entry: str
    arg: int
    partition: int
    sched: int
    cpu: int  # -1 = any cpu of the instance
    priority: int
    kind: str
    miss_policy: str
    enforce_budget: bool
    period_ns: int
    deadline_ns: int
    offset_ns: int
    wcet_ns: int
    jitter_ns: int
    stack_bytes: int
    irq: int = 0  # pt_thread_cfg.irq: 0, a PLIC source, or a HAL_IRQ_SRC_* device

    def task(self) -> Task | None:
        """The analysis view of this thread (None for aperiodic threads)."""
        if self.kind == "aperiodic":
            return None
        return Task(name=self.name, wcet_ns=self.wcet_ns, period_ns=self.period_ns,
                    deadline_ns=self.deadline_ns, offset_ns=self.offset_ns,
                    jitter_ns=self.jitter_ns, priority=self.priority, kind=self.kind)


class Resolved(Frozen):
    name: str
    source: str
    ncpus: int
    icount_shift: int
    idle: str
    run_for_ns: int
    ram_mb: int
    irq_threshold: str = "follow"  # follow | off (docs/interrupts.md)
    irq_context: str = "dedicated"  # dedicated | full
    cache: RCache
    kernel_colors: list[int]
    cpus: list[RCpu]
    kernel_heap_bytes: int = 0  # the system heap: each kernel color's heap grows to this
    kernel_data: str = "colored"  # colored | uncolored (kernel data over every color: S2)
    scheds: list[RSched]
    partitions: list[RPartition]
    threads: list[RThread]
    # the sections of subsystems, by name (checked, generated and analysed by partita.subsys)
    subsys: dict[str, Any] = {}
    apps: list[str] = []  # application directories named by the configuration (config.apps)

    def thread(self, name: str) -> RThread | None:
        return next((t for t in self.threads if t.name == name), None)

    def tasks(self) -> list[Task]:
        """The configuration's task set in the one task model (partita.model): every
        periodic / sporadic thread, then every subsystem's tasks (partita.subsys). The
        analysis and the report take it from here instead of rebuilding it."""
        from partita import subsys

        out = [t for th in self.threads if (t := th.task()) is not None]
        for sub, section in subsys.used(self.subsys):
            out += sub.tasks(section)
        return out


def _expand_schedulers(cfg: SystemCfg) -> tuple[list[RSched], dict[tuple[str, int], int]]:
    """Instances in YAML order; P-EDF becomes one EDF instance per cpu.
    Returns the instances and a map (yaml scheduler name, cpu) -> instance index."""
    scheds: list[RSched] = []
    index: dict[tuple[str, int], int] = {}
    for s in cfg.schedulers:
        if s.policy == Policy.edf and len(s.cpus) > 1:
            for cpu in s.cpus:
                index[(s.name, cpu)] = len(scheds)
                scheds.append(RSched(name=f"{s.name}@{cpu}", policy="edf", cpus=[cpu],
                                     rr_slice_ns=0, origin=s.name))
        else:
            for cpu in s.cpus:
                index[(s.name, cpu)] = len(scheds)
            scheds.append(RSched(name=s.name, policy=s.policy.value, cpus=sorted(s.cpus),
                                 rr_slice_ns=s.rr_slice_ns, origin=s.name, tdm=s.tdm))
    return scheds, index


def _place_pedf(cfg: SystemCfg) -> dict[str, int]:
    """cpu of every thread under a P-EDF scheduler (pinned ones keep their pin)."""
    placed: dict[str, int] = {}
    problems: list[Problem] = []
    for s in cfg.schedulers:
        if not (s.policy == Policy.edf and len(s.cpus) > 1):
            continue
        mine = [(i, t) for i, t in enumerate(cfg.threads) if scheduler_of(cfg, t) is s]
        pinned: dict[int, list[Task]] = {}
        free: list[Task] = []
        for _, t in mine:
            if t.cpu is not None:
                placed[t.name] = t.cpu
                if t.task is not None:
                    pinned.setdefault(t.cpu, []).append(t.task)
            elif t.task is not None:
                free.append(t.task)
            else:
                placed[t.name] = min(s.cpus)  # aperiodic: first cpu of the set
        try:
            placed.update(assign(free, s.cpus, (s.partition or "first-fit").replace("_", "-"),
                                 pinned))
        except NoFit as e:
            if s.allow_overload:  # accepted overload: put what does not fit on the emptiest cpu
                placed.update(_overload_place(free, s.cpus, pinned))
                continue
            idx = next(i for i, t in mine if t.name == e.task.name)
            problems.append(Problem(("threads", idx), f"P-EDF ({s.partition or 'first-fit'}) "
                                    f"over cpus {s.cpus} of scheduler {s.name!r}: {e}"))
    if problems:
        raise ResolveError(problems)
    return placed


def _overload_place(free: list[Task], cpus: list[int], pinned: dict[int, list[Task]]
                    ) -> dict[str, int]:
    load = {c: sum(t.density for t in pinned.get(c, [])) for c in cpus}
    out: dict[str, int] = {}
    for t in sorted(free, key=lambda t: (-t.density, t.name)):
        cpu = min(cpus, key=lambda c: (load[c], c))
        load[cpu] += t.density
        out[t.name] = cpu
    return out


def _priorities(cfg: SystemCfg) -> dict[str, int]:
    """Explicit priorities, else deadline-monotonic within each FP instance."""
    prio: dict[str, int] = {}
    for s in cfg.schedulers:
        mine = [t for t in cfg.threads if scheduler_of(cfg, t) is s]
        if s.policy not in (Policy.fp, Policy.offload):
            prio.update({t.name: t.priority if t.priority is not None else EDF_PRIORITY
                         for t in mine})
            continue
        auto = sorted((t for t in mine if t.priority is None),
                      key=lambda t: (t.task.d if t.task else 1 << 62,
                                     t.task.period_ns if t.task else 0, t.name))
        prio.update({t.name: t.priority for t in mine if t.priority is not None})
        prio.update({t.name: min(255, DM_BASE_PRIORITY + i) for i, t in enumerate(auto)})
    return prio


def resolve(cfg: SystemCfg, source: str) -> Resolved:
    """Turn a checked configuration into its tables. Raises ResolveError (P-EDF failure)."""
    scheds, sched_index = _expand_schedulers(cfg)
    placed = _place_pedf(cfg)
    prio = _priorities(cfg)
    ncolors = cfg.cache.ncolors
    cmap = color_map(cfg)[0]  # partitions without colors get the colors nobody owns
    partitions = [RPartition(name=SYSTEM_PARTITION, user=False, fault_policy="thread",
                             colors=sorted(cmap.colors_of(SYSTEM_PARTITION)), heap_bytes=0)]
    for p in cfg.partitions:
        colors = sorted(cmap.colors_of(p.name))
        rp = RPartition(name=p.name, user=p.user, fault_policy=p.fault_policy.value,
                        colors=colors, heap_bytes=p.heap_bytes,
                        heap_mode=p.heap.mode.value if p.heap else "none",
                        heap_color_bytes=p.heap.bytes if p.heap else 0)
        if p.name == SYSTEM_PARTITION:
            partitions[0] = rp
        else:
            partitions.append(rp)
    part_index = {p.name: i for i, p in enumerate(partitions)}
    threads = []
    thread_rows: list[tuple[str, int, int]] = []  # (partition, sched index, priority)
    for t in cfg.threads:
        s = scheduler_of(cfg, t)
        assert s is not None
        cpu = placed.get(t.name, t.cpu)
        if t.irq is not None and cpu is None:
            cpu = s.cpus[0]  # a handler's source is routed to one cpu (checks: the only one)
        key = (s.name, cpu if cpu is not None else s.cpus[0])
        task = t.task
        threads.append(RThread(
            name=t.name, entry=t.entry, arg=t.arg, partition=part_index[t.partition],
            sched=sched_index[key], cpu=-1 if cpu is None else cpu, priority=prio[t.name],
            kind=t.kind.value, miss_policy=t.miss_policy.value, enforce_budget=t.enforce_budget,
            period_ns=task.period_ns if task else 0, deadline_ns=task.d if task else 0,
            offset_ns=task.offset_ns if task else 0, wcet_ns=task.wcet_ns if task else 0,
            jitter_ns=task.jitter_ns if task else 0, stack_bytes=t.stack_bytes,
            irq=t.irq_code))
        thread_rows.append((t.partition, sched_index[key], prio[t.name]))
    partitions = [_with_rights(cfg, p, scheds, thread_rows) for p in partitions]
    cpus = []
    for c in range(cfg.ncpus):
        role = cfg.role_of(c)
        owner = next((i for i, s in enumerate(scheds) if c in s.cpus), -1)
        cpus.append(RCpu(id=c, role=role.value, sched=owner if role == Role.app else -1))
    cache = cfg.cache
    return Resolved(
        name=cfg.name, source=source, ncpus=cfg.ncpus, icount_shift=cfg.icount_shift,
        idle=cfg.idle.value,
        run_for_ns=cfg.run_for_ns, ram_mb=cfg.ram_mb,
        irq_threshold=cfg.irq_threshold.value, irq_context=cfg.irq_context.value,
        cache=RCache(size_bytes=cache.size_bytes, ways=cache.ways, line_bytes=cache.line_bytes,
                     page_bytes=cache.page_bytes, hw_colors=cache.hw_colors, colors=ncolors),
        kernel_colors=sorted(parse_colors(cfg.kernel_colors, ncolors, ())[0]),
        kernel_heap_bytes=cfg.kernel_heap_bytes, kernel_data=cfg.kernel_data,
        cpus=cpus, scheds=scheds, partitions=partitions, threads=threads, subsys=cfg.subsys,
        apps=list(cfg.apps))


def _with_rights(cfg: SystemCfg, rp: RPartition, scheds: list[RSched],
                 thread_rows: list[tuple[str, int, int]]) -> RPartition:
    """Fill in the partition's rights and quotas (kernel partitions: unlimited)."""
    if not rp.user:
        return rp.model_copy(update={
            "sched_mask": (1 << len(scheds)) - 1, "prio_highest": 0, "prio_lowest": 255,
            "budget_ppm": UNLIMITED, "quota": {k: UNLIMITED for k in QUOTA_KEYS}})
    pc = next(p for p in cfg.partitions if p.name == rp.name)
    own = [(si, pr) for part, si, pr in thread_rows if part == rp.name]
    if pc.rights.schedulers is None:
        mask = sum({1 << si for si, _ in own})
    else:
        mask = sum({1 << i for i, s in enumerate(scheds) if s.origin in pc.rights.schedulers})
    hi, lo = pc.rights.priority or (min((pr for _, pr in own), default=255), 255)
    # aperiodic threads (no budget) below every other partition's thread on its instances
    others = [pr for part, si, pr in thread_rows if part != rp.name and mask >> si & 1]
    ap_hi = max(hi, max(others, default=-1) + 1)
    defaults = default_quotas(cfg)
    n_own = len(own)
    quota = {}
    for k in QUOTA_KEYS:
        given = getattr(pc.quotas, k)
        quota[k] = given if given is not None else defaults[k] + (n_own if k == "threads" else 0)
    rate = pc.quotas.trace_records_per_ms
    return rp.model_copy(update={
        "sched_mask": mask, "prio_highest": hi, "prio_lowest": lo,
        "prio_aperiodic_highest": min(ap_hi, 255) if ap_hi <= lo else 256,
        "budget_ppm": round(pc.rights.budget * 1_000_000), "quota": quota,
        "trace_records_per_ms": UNLIMITED if rate is None else rate,
        "trace_burst": UNLIMITED if rate is None else pc.quotas.trace_burst})
