"""The `spm:` section of a system configuration (brief 0): schema, checks, derived values.

    spm:
      io_cpu: 2                 # the I/O core (its role must be `io`)
      app_cpus: [0, 1]          # application cores, in TDMA slot order
      spm_bytes: 65536          # scratchpad per application core: two equal partitions
      sigma_us: 400             # TDMA slot; omit to derive it from the largest copy
      dma_setup_ns: 3000        # measured DMA programming time (docs/spm.md, Table IV)
      copy_ns_per_kib: 800      # measured copy cost of the software DMA
      net: synthetic            # none | virtio | synthetic
      tasks:
        - {name: fir0, core: 0, image: fir, arg: 1, priority: 0, period_ms: 10, wcet_us: 800,
           image_bytes: 4096, in_mirror: {slots: 1, slot_bytes: 1024},
           out_mirror: {slots: 1, slot_bytes: 1024}, subscribe: [{flow: 0}]}

Checks (each problem names the task and the numbers): a task's image plus its mirror buffers
must fit one partition; sigma must cover the largest load or unload copy plus the DMA setup.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from partita.config.errors import Problem
from partita.config.units import convert
from partita.model import ThreePhaseTask

IMAGES = ("fir", "iir", "matmul", "fft", "bitmanip", "loopback", "spin")
MBUF_HDR = 16
MAX_SPM_POOL = 512 * 1024
MAX_IO_POOL = 256 * 1024
MAX_TASKS_PER_CORE = 32


def mbuf_bytes(slots: int, slot_bytes: int) -> int:
    """Size of a mirror buffer in bytes, as subsys/io/include/partita/io_flow.h lays it out."""
    if slots == 0:
        return 0
    return MBUF_HDR + slots * (4 + ((slot_bytes + 7) & ~7))


def align8(x: int) -> int:
    return (x + 7) & ~7


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Net(StrEnum):
    none = "none"
    virtio = "virtio"
    synthetic = "synthetic"


class SubPolicy(StrEnum):
    overwrite = "overwrite"
    queue = "queue"


class Mirror(Strict):
    slots: int = Field(default=0, ge=0, le=64)
    slot_bytes: int = Field(default=0, ge=0, le=1536)

    @property
    def nbytes(self) -> int:
        return mbuf_bytes(self.slots, self.slot_bytes)


class Subscription(Strict):
    flow: int = Field(ge=0, lt=0xFFFF)
    policy: SubPolicy = SubPolicy.overwrite


class SpmTask(Strict):
    name: str = Field(min_length=1, max_length=15, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    core: int = Field(ge=0, description="application core index (position in app_cpus)")
    image: str = Field(description=f"task image in apps/spm: one of {', '.join(IMAGES)}")
    arg: int = Field(default=1, ge=0, lt=2**32)
    priority: int = Field(ge=0, le=255, description="0 is highest; unique per core")
    period_ns: int = Field(gt=0)
    deadline_ns: int | None = Field(default=None, gt=0)
    offset_ns: int = Field(default=0, ge=0)
    sporadic_extra_ns: int = Field(
        default=0, ge=0, description="sporadic: inter-arrival = period (the minimum) + a "
        "pseudo-random extra in [0, this]; 0 = periodic")
    wcet_ns: int = Field(gt=0)
    image_bytes: int = Field(gt=0, description="declared footprint; the build checks it")
    in_mirror: Mirror = Field(default_factory=Mirror)
    out_mirror: Mirror = Field(default_factory=Mirror)
    subscribe: list[Subscription] = Field(default_factory=list)
    phase: int = Field(default=0, ge=0, lt=1024, description="task-set batch (tests)")

    @property
    def d(self) -> int:
        return self.deadline_ns if self.deadline_ns is not None else self.period_ns

    @property
    def load_bytes(self) -> int:
        """Image + input mirror + output mirror header (subsys/io/io_core.c program())."""
        return self.image_bytes + self.in_mirror.nbytes + (MBUF_HDR if self.out_mirror.slots
                                                           else 0)

    @property
    def unload_bytes(self) -> int:
        """Upper bound: all of the image may be persistent data, plus the output mirror."""
        return self.image_bytes + self.out_mirror.nbytes

    @property
    def footprint(self) -> int:
        """Bytes the task needs in a partition: [image | input mirror | output mirror]."""
        return align8(self.image_bytes) + align8(self.in_mirror.nbytes) + self.out_mirror.nbytes

    def task(self) -> ThreePhaseTask:
        """This task in the analysis model (partita.model), the type `partita analyze` and
        the report carry."""
        return ThreePhaseTask(name=self.name, wcet_ns=self.wcet_ns, period_ns=self.period_ns,
                              deadline_ns=self.deadline_ns, offset_ns=self.offset_ns,
                              priority=self.priority, load_bytes=self.load_bytes,
                              unload_bytes=self.unload_bytes)

    @model_validator(mode="after")
    def _image(self) -> SpmTask:
        if self.image not in IMAGES:
            raise ValueError(f"unknown image '{self.image}' (have: {', '.join(IMAGES)})")
        if self.subscribe and self.in_mirror.slots == 0:
            raise ValueError("subscribes to a flow but has no input mirror (in_mirror.slots)")
        return self


class SpmCfg(Strict):
    io_cpu: int = Field(ge=0)
    app_cpus: list[int] = Field(min_length=1, max_length=7)
    spm_bytes: int = Field(default=65536, ge=1024)
    sigma_ns: int | None = Field(default=None, gt=0)
    dma_setup_ns: int = Field(default=3000, ge=0)
    copy_ns_per_kib: int = Field(default=1000, gt=0)
    net: Net = Net.none
    net_priority: int = Field(default=0, ge=0, le=255)
    uart_priority: int = Field(default=1, ge=0, le=255)
    ctx_switch_ns: int = Field(default=1000, ge=0, description="measured; added to c")
    phase_ns: int | None = Field(default=None, gt=0,
                                 description="batches: releases of a phase stop after this")
    tasks: list[SpmTask] = Field(default_factory=list)

    @property
    def nphases(self) -> int:
        return max((t.phase for t in self.tasks), default=0) + 1

    @property
    def partition_bytes(self) -> int:
        return self.spm_bytes // 2

    def copy_ns(self, nbytes: int) -> int:
        """Worst-case duration of one DMA transfer of `nbytes` (setup included)."""
        return self.dma_setup_ns + math.ceil(nbytes * self.copy_ns_per_kib / 1024)

    @property
    def largest_copy(self) -> tuple[int, str, str]:
        """(ns, task, 'load'|'unload') of the longest transfer; a full partition if no task."""
        best = (self.copy_ns(self.partition_bytes), "(a full partition)", "load")
        cands = [(self.copy_ns(t.load_bytes), t.name, "load") for t in self.tasks]
        cands += [(self.copy_ns(t.unload_bytes), t.name, "unload") for t in self.tasks]
        return max(cands) if cands else best

    @property
    def sigma(self) -> int:
        """Configured sigma, or the largest copy + setup rounded up to a microsecond."""
        if self.sigma_ns is not None:
            return self.sigma_ns
        return math.ceil(self.largest_copy[0] / 1000) * 1000


DURATIONS = ("period", "deadline", "offset", "wcet", "sporadic_extra")


def _normalize(raw: dict[str, Any]) -> list[Problem]:
    problems = [Problem(("spm", e.key), str(e))
                for e in convert(raw, ("sigma", "dma_setup", "ctx_switch", "phase"))]
    for i, t in enumerate(raw.get("tasks") or []):
        if isinstance(t, dict):
            problems += [Problem(("spm", "tasks", i, e.key), str(e))
                         for e in convert(t, DURATIONS)]
    return problems


def parse(raw: Any) -> tuple[SpmCfg | None, list[Problem]]:
    """Validate the raw `spm:` mapping. Returns the model or the problems."""
    if not isinstance(raw, dict):
        return None, [Problem(("spm",), "expected a mapping")]
    raw = {k: (list(map(dict, v)) if k == "tasks" and isinstance(v, list)
               and all(isinstance(x, dict) for x in v) else v) for k, v in raw.items()}
    problems = _normalize(raw)
    if problems:
        return None, problems
    try:
        return SpmCfg.model_validate(raw), []
    except ValidationError as e:
        out = []
        for err in e.errors():
            loc = tuple(p[:-3] if isinstance(p, str) and p.endswith("_ns") else p
                        for p in err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            out.append(Problem(("spm", *loc), msg))
        return None, out


def check(spm: SpmCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
    """Relations: cores and roles, partition fit, sigma versus copy time, priorities."""
    p: list[Problem] = []
    if spm.io_cpu >= ncpus:
        p.append(Problem(("spm", "io_cpu"), f"cpu {spm.io_cpu} does not exist ({ncpus} cpus)"))
    elif roles.get(spm.io_cpu) != "io":
        p.append(Problem(("spm", "io_cpu"), f"cpu {spm.io_cpu} must have role io in cpus:"))
    for i, c in enumerate(spm.app_cpus):
        if c >= ncpus:
            p.append(Problem(("spm", "app_cpus", i), f"cpu {c} does not exist ({ncpus} cpus)"))
        elif roles.get(c) != "app":
            p.append(Problem(("spm", "app_cpus", i), f"cpu {c} must have role app"))
        if c == spm.io_cpu:
            p.append(Problem(("spm", "app_cpus", i), f"cpu {c} is also the I/O core"))
    if len(set(spm.app_cpus)) != len(spm.app_cpus):
        p.append(Problem(("spm", "app_cpus"), "a cpu appears twice"))
    if spm.spm_bytes % 16:
        p.append(Problem(("spm", "spm_bytes"), f"{spm.spm_bytes} is not a multiple of 16"))
    if len(spm.app_cpus) * spm.spm_bytes > MAX_SPM_POOL:
        p.append(Problem(("spm", "spm_bytes"),
                         f"{len(spm.app_cpus)} cores x {spm.spm_bytes} bytes exceed the "
                         f"{MAX_SPM_POOL}-byte scratchpad pool"))
    part = spm.partition_bytes
    seen: dict[tuple[int, int, int], str] = {}
    names: set[str] = set()
    io_total = 0
    per_core: dict[int, int] = {}
    for i, t in enumerate(spm.tasks):
        where = ("spm", "tasks", i)
        if t.name in names:
            p.append(Problem((*where, "name"), f"duplicate task name '{t.name}'"))
        names.add(t.name)
        if t.core >= len(spm.app_cpus):
            p.append(Problem((*where, "core"), f"task {t.name}: core {t.core} does not exist "
                             f"({len(spm.app_cpus)} application cores)"))
        per_core[t.core] = per_core.get(t.core, 0) + 1
        key = (t.core, t.priority, t.phase)
        if key in seen:
            p.append(Problem((*where, "priority"), f"task {t.name}: priority {t.priority} "
                             f"already used by {seen[key]} on core {t.core}"))
        seen[key] = t.name
        if t.footprint > part:
            p.append(Problem((*where, "image_bytes"),
                             f"task {t.name} does not fit a partition: image {t.image_bytes} "
                             f"+ mirrors {t.footprint - align8(t.image_bytes)} = "
                             f"{t.footprint} bytes > partition {part} bytes "
                             f"(spm_bytes {spm.spm_bytes} / 2)"))
        if t.wcet_ns > t.d:
            p.append(Problem((*where, "wcet"), f"task {t.name}: wcet {t.wcet_ns} ns > deadline "
                             f"{t.d} ns"))
        io_total += align8(t.in_mirror.nbytes) + align8(t.out_mirror.nbytes)
    if spm.nphases > 1 and spm.phase_ns is None:
        p.append(Problem(("spm", "phase"), "tasks name phases: phase_ms (or _us, _ns) is needed"))
    for core, n in per_core.items():
        if n > MAX_TASKS_PER_CORE:
            p.append(Problem(("spm", "tasks"), f"core {core} has {n} tasks, at most "
                             f"{MAX_TASKS_PER_CORE}"))
    if io_total > MAX_IO_POOL:
        p.append(Problem(("spm", "tasks"), f"mirror buffers need {io_total} bytes, the I/O "
                         f"core's pool has {MAX_IO_POOL}"))
    if spm.sigma_ns is not None:
        for t in spm.tasks:
            for kind, nbytes in (("load", t.load_bytes), ("unload", t.unload_bytes)):
                need = spm.copy_ns(nbytes)
                if spm.sigma_ns < need:
                    p.append(Problem(("spm", "sigma"),
                                     f"sigma {spm.sigma_ns} ns is shorter than the {kind} of "
                                     f"task {t.name}: {nbytes} bytes take {need} ns "
                                     f"(DMA setup {spm.dma_setup_ns} ns + "
                                     f"{spm.copy_ns_per_kib} ns/KiB)"))
    return p
