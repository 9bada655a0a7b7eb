"""Relations between fields of a configuration, checked after the schema.

Each check returns `Problem`s with the path of the field at fault; nothing here raises.
"""

from __future__ import annotations

from collections import Counter

from partita import limits
from partita.config.errors import Path, Problem, did_you_mean
from partita.config.schema import ColorSpec, Policy, Role, SchedulerCfg, SystemCfg, ThreadCfg
from partita.trace.format import RING_PAGES

SYSTEM_PARTITION = "system"


def parse_colors(
    specs: list[ColorSpec], ncolors: int, path: Path
) -> tuple[set[int], list[Problem]]:
    """[0, 3, "8-11"] -> {0, 3, 8, 9, 10, 11}; an empty list means every color."""
    if not specs:
        return set(range(ncolors)), []
    out: set[int] = set()
    problems: list[Problem] = []
    for i, spec in enumerate(specs):
        lo = hi = -1
        if isinstance(spec, int):
            lo = hi = spec
        else:
            parts = spec.split("-")
            if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
                lo, hi = int(parts[0]), int(parts[1])
            else:
                problems.append(Problem((*path, i), f"{spec!r} is not a color or a range 'a-b'"))
                continue
        if lo > hi or lo < 0 or hi >= ncolors:
            problems.append(
                Problem((*path, i), f"color {spec} out of range 0..{ncolors - 1} "
                        f"({ncolors} configured colors)")
            )
            continue
        out.update(range(lo, hi + 1))
    return out, problems


def _check_tdm(cfg: SystemCfg, i: int, s: SchedulerCfg) -> list[Problem]:
    """A tdm instance: one cpu, a wheel; its threads aperiodic, each in one application's
    order; every slot names an application."""
    base = ("schedulers", i)
    if s.policy != Policy.tdm:
        return [Problem((*base, "tdm"), "a tdm: wheel belongs to policy tdm only")] \
            if s.tdm is not None else []
    if s.tdm is None:
        return [Problem(base, f"scheduler {s.name}: policy tdm needs a tdm: wheel "
                        "(rtos_slot, slots, apps)")]
    out = []
    if len(s.cpus) != 1:
        out.append(Problem((*base, "cpus"), "a tdm instance schedules exactly one cpu"))
    mine = {t.name: t for t in cfg.threads if scheduler_of(cfg, t) is s}
    apps = [a.name for a in s.tdm.apps]
    owner: dict[str, str] = {}
    for ai, a in enumerate(s.tdm.apps):
        if apps.count(a.name) > 1 and apps.index(a.name) != ai:
            out.append(Problem((*base, "tdm", "apps", ai, "name"),
                               f"application {a.name!r} named twice"))
        for oi, name in enumerate(a.order):
            if name not in mine:
                out.append(Problem((*base, "tdm", "apps", ai, "order", oi),
                                   f"application {a.name}: {name!r} is not a thread of "
                                   f"scheduler {s.name}{did_you_mean(name, mine)}"))
            elif owner.setdefault(name, a.name) != a.name:
                out.append(Problem((*base, "tdm", "apps", ai, "order", oi),
                                   f"thread {name} is in applications {owner[name]} and "
                                   f"{a.name}: a task belongs to one application"))
    for name, t in mine.items():
        if name not in owner:
            out.append(Problem((*base, "tdm", "apps"),
                               f"thread {name} of scheduler {s.name} is in no application's "
                               "order: it would never run"))
        elif t.task is not None:
            out.append(Problem((*base, "tdm", "apps"),
                               f"thread {name}: a tdm task is aperiodic (kind: aperiodic): "
                               "the wheel, not a period, decides when it runs"))
    for si, sl in enumerate(s.tdm.slots):
        if sl.app not in apps:
            out.append(Problem((*base, "tdm", "slots", si, "app"),
                               f"no application {sl.app!r}{did_you_mean(sl.app, apps)}"))
    for a in apps:
        if not any(sl.app == a for sl in s.tdm.slots):
            out.append(Problem((*base, "tdm", "apps"),
                               f"application {a} has no slot in the wheel"))
    return out


def scheduler_of(cfg: SystemCfg, t: ThreadCfg) -> SchedulerCfg | None:
    """The thread's scheduler instance: named, or implied by its cpu, or the only one."""
    if t.scheduler is not None:
        return next((s for s in cfg.schedulers if s.name == t.scheduler), None)
    if t.cpu is not None:
        return next((s for s in cfg.schedulers if t.cpu in s.cpus), None)
    return cfg.schedulers[0] if len(cfg.schedulers) == 1 else None


def _duplicates(names: list[str], key: str) -> list[Problem]:
    counts = Counter(names)
    seen: set[str] = set()
    out = []
    for i, n in enumerate(names):
        if counts[n] > 1 and n in seen:
            out.append(Problem((key, i, "name"), f"duplicate name {n!r}"))
        seen.add(n)
    return out


def _check_cpus(cfg: SystemCfg) -> list[Problem]:
    out = []
    seen: set[int] = set()
    for i, c in enumerate(cfg.cpus):
        if c.id >= cfg.ncpus:
            out.append(Problem(("cpus", i, "id"),
                               f"cpu {c.id} does not exist (ncpus = {cfg.ncpus})"))
        if c.id in seen:
            out.append(Problem(("cpus", i, "id"), f"cpu {c.id} listed twice"))
        seen.add(c.id)
    return out


def _check_schedulers(cfg: SystemCfg) -> list[Problem]:
    out = _duplicates([s.name for s in cfg.schedulers], "schedulers")
    owner: dict[int, str] = {}
    for i, s in enumerate(cfg.schedulers):
        for j, cpu in enumerate(s.cpus):
            path = ("schedulers", i, "cpus", j)
            if not 0 <= cpu < cfg.ncpus:
                out.append(Problem(path, f"cpu {cpu} does not exist (ncpus = {cfg.ncpus})"))
            elif cpu in owner:
                out.append(Problem(path, f"cpu {cpu} is already in scheduler {owner[cpu]!r}"))
            elif cfg.role_of(cpu) != Role.app:
                out.append(Problem(path, f"cpu {cpu} has role {cfg.role_of(cpu).value}, not app"))
            else:
                owner[cpu] = s.name
        if s.policy in (Policy.fp, Policy.offload) and len(s.cpus) != 1:
            out.append(Problem(("schedulers", i, "cpus"),
                               f"an {s.policy.value} instance schedules exactly one cpu"))
        out += _check_tdm(cfg, i, s)
        if s.rr_slice_ns and s.policy not in (Policy.fp, Policy.offload):
            out.append(Problem(("schedulers", i, "rr_slice"), "round-robin slice is fp only"))
        if s.partition is not None and s.policy != Policy.edf:
            out.append(Problem(("schedulers", i, "partition"),
                               "partitioning heuristics apply to edf instances only"))
    for cpu in range(cfg.ncpus):
        if cfg.role_of(cpu) == Role.app and cpu not in owner:
            out.append(Problem(("schedulers",), f"app cpu {cpu} has no scheduler"))
    return out + _check_offload(cfg)


def _check_offload(cfg: SystemCfg) -> list[Problem]:
    """Every offload instance is the client of one scheduler coprocessor, every client of a
    coprocessor an offload instance; one priority order for all of them (the policy's
    preempts / key_cmp are per image)."""
    from partita.subsys.coproc.config import client_of

    raw = cfg.subsys.get("coproc")
    out = []
    for i, s in enumerate(cfg.schedulers):
        if s.policy == Policy.offload and client_of(raw, s.name) is None:
            out.append(Problem(("schedulers", i, "policy"),
                               f"scheduler {s.name}: policy offload needs a scheduler "
                               f"coprocessor listing it (coproc: [{{name: ..., service: sched, "
                               f"clients: [{s.name}], ...}}])"))
    policy = {s.name: s.policy for s in cfg.schedulers}
    orders = set()
    for j, c in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(c, dict) or c.get("service", "sched") != "sched":
            continue  # another service's clients are not schedulers (dftsm: graphs)
        if c.get("clients"):
            orders.add(c.get("priority_order") or "low_first")
        for k, name in enumerate(c.get("clients") or []):
            if policy.get(name) != Policy.offload:
                why = ("no such scheduler" + did_you_mean(str(name), policy)
                       if name not in policy else f"its policy is {policy[name].value}")
                out.append(Problem(("coproc", j, "clients", k),
                                   f"client {name} is not a scheduler of policy offload "
                                   f"({why})"))
        for other in raw[:j]:
            if isinstance(other, dict) and set(other.get("clients") or []) & set(
                    c.get("clients") or []):
                out.append(Problem(("coproc", j, "clients"), "a scheduler is the client of "
                                   "two coprocessors"))
    if len(orders) > 1:
        out.append(Problem(("coproc",), "all scheduler coprocessors of a system have one "
                           "priority_order"))
    return out


def _check_partitions(cfg: SystemCfg) -> list[Problem]:
    names = [p.name for p in cfg.partitions]
    out = _duplicates(names, "partitions")
    n = cfg.cache.ncolors
    for i, p in enumerate(cfg.partitions):
        out += parse_colors(p.colors, n, ("partitions", i, "colors"))[1]
    out += parse_colors(cfg.kernel_colors, n, ("kernel_colors",))[1]
    from partita.config.colormap import color_map  # colormap imports parse_colors from here
    from partita.config.quotas import check_quotas  # quotas imports the schema only

    if not out:
        out += color_map(cfg)[1]
    return out + check_quotas(cfg)


def _check_threads(cfg: SystemCfg) -> list[Problem]:
    out = _duplicates([t.name for t in cfg.threads], "threads")
    parts = {p.name for p in cfg.partitions} | {SYSTEM_PARTITION}
    load: Counter[str] = Counter()
    for i, t in enumerate(cfg.threads):
        if t.partition not in parts:
            out.append(Problem(("threads", i, "partition"), f"unknown partition {t.partition!r}"
                               + did_you_mean(t.partition, parts)))
        s = scheduler_of(cfg, t)
        if s is None:
            if t.scheduler is not None:
                msg = f"unknown scheduler {t.scheduler!r}" + did_you_mean(
                    t.scheduler, [s.name for s in cfg.schedulers])
            elif t.cpu is not None:
                msg = f"no scheduler owns cpu {t.cpu}"
            else:
                msg = "several schedulers: name one with scheduler:"
            out.append(Problem(("threads", i, "scheduler"), msg))
            continue
        if t.cpu is not None and t.cpu not in s.cpus:
            out.append(Problem(("threads", i, "cpu"),
                               f"cpu {t.cpu} is not in scheduler {s.name!r} (cpus {s.cpus})"))
        if t.task is not None:
            load[s.name] += t.task.utilization
        if t.irq is not None:
            out += _check_handler(i, t, s)
    for i, s in enumerate(cfg.schedulers):
        if load[s.name] > len(s.cpus) + 1e-12 and not s.allow_overload:
            out.append(Problem(
                ("schedulers", i),
                f"utilization {load[s.name]:.3f} of its threads exceeds its {len(s.cpus)} cpu(s) "
                "(set allow_overload: true to run it anyway)"))
    return out


def _check_handler(i: int, t: ThreadCfg, s: SchedulerCfg) -> list[Problem]:
    """An interrupt handler thread (docs/interrupts.md): aperiodic, an explicit priority, on
    one cpu of an FP instance (its source is routed to that cpu only)."""
    out = []
    where = ("threads", i, "irq")
    if s.policy != Policy.fp:
        out.append(Problem(where, f"handler thread {t.name!r} is on scheduler {s.name!r} "
                           f"(policy {s.policy.value}); handlers run on fp schedulers"))
    if t.kind.value != "aperiodic":
        out.append(Problem(where, f"handler thread {t.name!r} must be kind: aperiodic "
                           "(it loops on pt_irq_wait)"))
    if t.priority is None:
        out.append(Problem(where, f"handler thread {t.name!r} needs a priority"))
    if t.cpu is None and len(s.cpus) != 1:
        out.append(Problem(where, f"handler thread {t.name!r} needs cpu: (scheduler "
                           f"{s.name!r} has cpus {s.cpus})"))
    return out


def _check_irqs(cfg: SystemCfg) -> list[Problem]:
    """One handler per source; at most 7 distinct handler priorities per cpu (PLIC levels)."""
    out = []
    seen: dict[int, str] = {}
    prios: dict[int, set[int]] = {}
    for i, t in enumerate(cfg.threads):
        if t.irq is None:
            continue
        code = t.irq_code
        if code in seen:
            out.append(Problem(("threads", i, "irq"), f"irq {t.irq!r} already handled by "
                               f"thread {seen[code]!r}"))
        seen[code] = t.name
        s = scheduler_of(cfg, t)
        if s is None or t.priority is None:
            continue
        cpu = t.cpu if t.cpu is not None else s.cpus[0]
        prios.setdefault(cpu, set()).add(t.priority)
        if len(prios[cpu]) > LEVELS:
            out.append(Problem(("threads", i, "priority"), f"cpu {cpu} has handler threads at "
                               f"more than {LEVELS} priorities (the PLIC has {LEVELS} levels)"))
    return out


LEVELS = 7  # HAL_IRQ_LEVELS


def _pages(nbytes: int) -> int:
    return -(-nbytes // limits.PAGE_BYTES)


def _check_limits(cfg: SystemCfg) -> list[Problem]:
    """What the kernel (tools/partita/limits.py = kernel/include/partita/limits.h) can run."""
    out: list[Problem] = []
    nparts = len(cfg.partitions) + (0 if any(p.name == SYSTEM_PARTITION
                                             for p in cfg.partitions) else 1)
    if nparts > limits.PT_MAX_PARTITIONS:
        out.append(Problem(("partitions",), (
            f"{nparts} partitions (the implicit {SYSTEM_PARTITION!r} one included); the kernel "
            f"supports at most {limits.PT_MAX_PARTITIONS} (PT_MAX_PARTITIONS)")))
    nthreads = len(cfg.threads) + cfg.ncpus  # the kernel adds one idle thread per hart
    if nthreads > limits.PT_MAX_THREADS:
        out.append(Problem(("threads",), (
            f"{len(cfg.threads)} threads + {cfg.ncpus} idle threads = {nthreads}; the kernel "
            f"supports at most {limits.PT_MAX_THREADS} (PT_MAX_THREADS)")))
    for i, s in enumerate(cfg.schedulers):
        if s.rr_slice_ns and s.rr_slice_ns < limits.PT_MIN_PERIOD_NS:
            out.append(Problem(("schedulers", i, "rr_slice"), (
                f"round-robin slice {s.rr_slice_ns} ns below the platform minimum of "
                f"{limits.PT_MIN_PERIOD_NS} ns (PT_MIN_PERIOD_NS)")))
    for i, t in enumerate(cfg.threads):
        if t.task is not None and t.task.period_ns < limits.PT_MIN_PERIOD_NS:
            out.append(Problem(("threads", i, "period"), (
                f"period {t.task.period_ns} ns of thread {t.name!r} below the platform minimum "
                f"of {limits.PT_MIN_PERIOD_NS} ns (PT_MIN_PERIOD_NS)")))
    out += _check_memory(cfg)
    return out


def _check_heaps(cfg: SystemCfg, colors_of: dict[str, set[int]]) -> list[Problem]:
    """Colored heaps: each partition's within its virtual window, all within the kernel's
    page-owner table (one entry per page any heap may grow to)."""
    out: list[Problem] = []
    total = 0
    for i, p in enumerate(cfg.partitions):
        if p.heap is None:
            continue
        span = len(colors_of[p.name]) * p.heap.bytes
        total += span // limits.PAGE_BYTES
        if p.user and span > limits.PT_HEAP_USER_SPAN_BYTES:
            out.append(Problem(("partitions", i, "heap", "bytes"), (
                f"{len(colors_of[p.name])} colors x heap.bytes {p.heap.bytes} = {span} bytes "
                f"exceed a partition's heap window of {limits.PT_HEAP_USER_SPAN_BYTES} "
                "(PT_HEAP_USER_SPAN_BYTES)")))
    if cfg.kernel_heap_bytes:
        # one heap per color kernel data may use: every color when uncolored or unlisted
        nk = len(parse_colors(cfg.kernel_colors, cfg.cache.ncolors, ())[0])
        if cfg.kernel_data == "uncolored" or not nk:
            nk = cfg.cache.ncolors
        total += nk * cfg.kernel_heap_bytes // limits.PAGE_BYTES
    if total > limits.PT_HEAP_META_PAGES:
        out.append(Problem(("partitions",), (
            f"the colored heaps may grow to {total} pages (colors x heap.bytes, summed, "
            f"kernel_heap_bytes included); the kernel tracks {limits.PT_HEAP_META_PAGES} "
            "(PT_HEAP_META_PAGES): shrink heap.bytes")))
    return out


# Pages of the kernel data window (kernel/core/kdata.c, the .kdata section): fixed by the
# kernel's limits, not by the configuration; the kernel prints `kdata: N pages` at boot (141
# today) and tests/system/kdata checks N against this bound.
KDATA_WINDOW_PAGES = 160


def _check_memory(cfg: SystemCfg) -> list[Problem]:
    """Heaps and stacks must fit the page pool the kernel builds from ram_mb, overall and in
    each partition's share of the cache colors (pages are drawn from those colors only).
    Colored heaps count at the size they may grow to."""
    from partita.config.colormap import color_map

    out: list[Problem] = []
    pool = limits.pool_bytes(cfg.ram_mb) // limits.PAGE_BYTES
    ncolors = cfg.cache.ncolors
    cm = color_map(cfg)[0]
    names = {SYSTEM_PARTITION} | {p.name for p in cfg.partitions}
    colors_of = {n: cm.colors_of(n) for n in names}
    out += _check_heaps(cfg, colors_of)
    need: Counter[str] = Counter()
    for p in cfg.partitions:
        need[p.name] += _pages(p.heap_bytes)
        if p.heap is not None:
            need[p.name] += len(colors_of[p.name]) * _pages(p.heap.bytes)
    user = {p.name for p in cfg.partitions if p.user}
    kernel_need = 0  # pages of kernel data beyond the window and the page tables
    for t in cfg.threads:
        if t.partition in user:  # its stack, and a 2-page trap stack of kernel data
            need[t.partition] += _pages(t.stack_bytes)
            kernel_need += 2
        else:
            need[t.partition] += _pages(t.stack_bytes)
    nthreads = Counter(t.partition for t in cfg.threads)
    tables = limits.pgtable_pages([(p.heap_bytes, nthreads[p.name])
                                   for p in cfg.partitions if p.user])
    # one level-0 table per 2 MiB of each colored heap (heaps start 2 MiB aligned)
    tables += sum(len(colors_of[p.name]) * -(-p.heap.bytes // (2 << 20))
                  for p in cfg.partitions if p.heap is not None)
    if tables > limits.PT_PGTABLE_PAGES:
        out.append(Problem(("partitions",), (
            f"user partitions need about {tables} page-table pages (heaps and stacks); the "
            f"kernel has {limits.PT_PGTABLE_PAGES} (PT_PGTABLE_PAGES): shrink heap_bytes")))
    idle = cfg.ncpus * 2  # idle threads' stacks
    total = sum(need.values()) + idle + kernel_need
    if total > pool:
        out.append(Problem(("ram_mb",), (
            f"heaps and stacks need {total} pages ({total * 4} KiB) but ram_mb {cfg.ram_mb} "
            f"leaves a page pool of {pool} pages after the kernel image "
            f"(PT_KERNEL_RESERVE_BYTES); raise ram_mb or shrink heap_bytes")))
        return out
    # kernel data (docs/memory.md, Kernel data) draws from the kernel's colors when colored
    if cm.kernel and cfg.kernel_data == "colored":
        kernel_need += (KDATA_WINDOW_PAGES + limits.PT_PGTABLE_PAGES + idle
                        + len(cm.kernel) * _pages(cfg.kernel_heap_bytes)
                        + (cfg.ncpus * RING_PAGES if len(cm.kernel) < ncolors else 0))
        share = pool * len(cm.kernel) // ncolors
        if kernel_need > share:
            out.append(Problem(("kernel_colors",), (
                f"kernel data needs about {kernel_need} pages (thread control blocks and "
                f"per-cpu data, the {limits.PT_PGTABLE_PAGES} page-table pages carved at boot, "
                f"kernel stacks, the system heap, {RING_PAGES} pages of trace ring per hart) "
                "but the "
                f"{len(cm.kernel)} of {ncolors} kernel colors hold about {share} pages of the "
                f"{pool}-page pool (ram_mb {cfg.ram_mb}): give the kernel more colors, raise "
                "ram_mb, or set kernel_data: uncolored")))
    # partitions drawing from the same colors (the default pool, shared colors) share them
    by_colors: Counter[frozenset[int]] = Counter()
    for n in names:
        by_colors[frozenset(colors_of[n])] += need[n]
    index = {p.name: i for i, p in enumerate(cfg.partitions)}
    for n in sorted(names, key=lambda x: index.get(x, -1)):
        colors = colors_of[n]
        if not colors:
            continue
        share = pool * len(colors) // ncolors
        used = by_colors[frozenset(colors)]
        if used > share:
            i = index.get(n)
            p = cfg.partitions[i] if i is not None else None
            where: Path = ("partitions",) if i is None else \
                ("partitions", i, "heap_bytes") if p and p.heap_bytes else ("partitions", i)
            out.append(Problem(where, (
                f"partition {n!r} needs {need[n]} pages (heap and stacks; {used} with the "
                f"partitions on the same colors) but its {len(colors)} of {ncolors} colors "
                f"hold about {share} pages of the {pool}-page pool (ram_mb {cfg.ram_mb})")))
            by_colors[frozenset(colors)] = 0  # reported once per color set
    return out


def check(cfg: SystemCfg) -> list[Problem]:
    """Every relation between fields; an empty list when the configuration is consistent."""
    problems = _check_cpus(cfg) + _check_schedulers(cfg) + _check_partitions(cfg)
    if not problems:
        problems += _check_threads(cfg)
    if not problems:
        problems += _check_irqs(cfg)
    if not problems:
        problems += _check_limits(cfg)
    return problems
