"""The YAML schema of a Partita system, as pydantic models.

The models check each field on its own (types, ranges, names); relations between fields
(a thread's scheduler exists, a cpu belongs to one scheduler, ...) are checked in
`partita.config.checks`. Durations arrive here already converted to `*_ns` integers by
`partita.config.loader` (see `partita.config.units`). A thread's timing is a
`partita.model.Task`, so the task is defined once for the generator, the analyses and the report.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from partita import limits
from partita.model import Task, TaskKind

C_IDENT = r"^[A-Za-z_][A-Za-z0-9_]*$"
MAX_CPUS = limits.PT_MAX_CPUS
MAX_COLORS = limits.PT_MAX_COLORS
TIMING_KEYS = ("period_ns", "deadline_ns", "offset_ns", "wcet_ns", "jitter_ns")

Name = Annotated[str, Field(min_length=1, max_length=15, pattern=C_IDENT)]
ColorSpec = int | str


class Role(StrEnum):
    app = "app"        # runs threads under its scheduler instance
    io = "io"          # a service hart run by a subsystem that claims it (partita.subsys)
    idle = "idle"      # no scheduler: the hart only idles (a spacer)
    coproc = "coproc"  # runs a coprocessor's service (the coproc: section claims it)
    proxy = "proxy"    # reserved: rejected by partita.config.lint until implemented


class Policy(StrEnum):
    fp = "fp"
    edf = "edf"
    gedf = "gedf"
    tdm = "tdm"
    offload = "offload"  # fixed priority in a scheduler coprocessor (coproc: section)


class TdmMode(StrEnum):
    sts = "sts"  # static order: the next task of the table; idle if it is not eligible
    dys = "dys"  # dynamic: round robin until an eligible task is found


class Heuristic(StrEnum):
    first_fit = "first-fit"
    best_fit = "best-fit"
    worst_fit = "worst-fit"


class FaultPolicy(StrEnum):
    thread = "thread"
    partition = "partition"


class IdleMode(StrEnum):
    spin = "spin"
    wfi = "wfi"


class HeapMode(StrEnum):
    os = "os"      # OS-centric: pt_malloc picks the color, thread id mod the partition's colors
    user = "user"  # user-centric: pt_malloc_color names the color


class IrqThreshold(StrEnum):
    follow = "follow"  # the PLIC threshold follows the running thread (unified priority space)
    off = "off"        # the threshold stays open: every device interrupt traps


class IrqContext(StrEnum):
    dedicated = "dedicated"  # an interrupt that only wakes its handler saves only what it clobbers
    full = "full"            # every trap saves the interrupted thread's full frame


IRQ_DEVICES = {"uart0": 0x100, "net0": 0x101, "rtc0": 0x102}  # HAL_IRQ_SRC_* of <partita/hal_irq.h>
IRQ_MAX_SOURCE = 95                            # HAL_IRQ_MAX_SOURCE


class MissPolicy(StrEnum):
    record = "record"
    skip_next = "skip_next"
    stop = "stop"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _is_pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


class CacheCfg(Strict):
    """Last-level cache geometry; page coloring derives its colors from it."""

    size_bytes: int = Field(default=0, ge=0, le=1 << 31)  # uint32 fields in the C tables
    ways: int = Field(default=1, ge=1, le=1 << 16)
    line_bytes: int = Field(default=64, ge=1, le=1 << 16)
    page_bytes: int = Field(default=4096, ge=1, le=1 << 16)
    colors: int | None = Field(default=None, ge=1, description="super colors; default hw colors")

    @model_validator(mode="after")
    def _geometry(self) -> CacheCfg:
        for key in ("size_bytes", "ways", "line_bytes", "page_bytes"):
            value = getattr(self, key)
            if key == "size_bytes" and value == 0:
                continue
            if not _is_pow2(value):
                raise ValueError(f"{key} = {value} is not a power of two")
        if self.page_bytes != 4096:
            raise ValueError(f"page_bytes = {self.page_bytes}: Sv39 pages are 4096 bytes")
        if self.size_bytes == 0:
            if self.colors not in (None, 1):
                raise ValueError("colors given without a cache size_bytes")
            return self
        if self.line_bytes > self.page_bytes:
            raise ValueError(f"line_bytes {self.line_bytes} larger than page_bytes")
        if self.size_bytes < self.ways * self.page_bytes:
            raise ValueError(
                f"size_bytes {self.size_bytes} smaller than ways x page_bytes "
                f"({self.ways * self.page_bytes})"
            )
        hw = self.hw_colors
        if hw > MAX_COLORS:
            raise ValueError(f"{hw} hardware colors; at most {MAX_COLORS} are supported")
        if self.colors is not None and (self.colors > hw or hw % self.colors != 0):
            raise ValueError(f"colors = {self.colors} does not divide the {hw} hardware colors")
        return self

    @property
    def hw_colors(self) -> int:
        if self.size_bytes == 0:
            return 1
        return self.size_bytes // (self.ways * self.page_bytes)

    @property
    def ncolors(self) -> int:
        return self.colors if self.colors is not None else self.hw_colors


class CpuCfg(Strict):
    id: int = Field(ge=0, lt=MAX_CPUS)
    role: Role = Role.app


def _durations(data: Any, bases: tuple[str, ...]) -> Any:
    """`<base>_<unit>` -> `<base>_ns` inside a nested block (the loader converts only the
    top-level lists)."""
    from partita.config.units import convert

    if isinstance(data, dict):
        data = dict(data)
        errors = convert(data, bases)
        if errors:
            raise ValueError("; ".join(f"{e.key}: {e}" for e in errors))
    return data


class TdmSlotCfg(Strict):
    """One application slot of the wheel (each follows an RTOS slot)."""

    app: Name
    length_ns: int = Field(ge=1000, le=1 << 40)

    @model_validator(mode="before")
    @classmethod
    def _units(cls, data: Any) -> Any:
        return _durations(data, ("length",))


class TdmAppCfg(Strict):
    name: Name
    mode: TdmMode = TdmMode.sts
    order: list[Name] = Field(min_length=1, max_length=64,
                              description="StS: the static table (threads, may repeat); "
                              "DyS: the round-robin ring")


class TdmCfg(Strict):
    """The two-level TDM wheel of a `policy: tdm` instance (kernel/sched/tdm)."""

    rtos_slot_ns: int = Field(ge=1000, le=1 << 40,
                              description="constant RTOS slot before each application slot")
    slots: list[TdmSlotCfg] = Field(min_length=1, max_length=32)
    apps: list[TdmAppCfg] = Field(min_length=1, max_length=16)

    @model_validator(mode="before")
    @classmethod
    def _units(cls, data: Any) -> Any:
        return _durations(data, ("rtos_slot",))


class SchedulerCfg(Strict):
    name: Name
    policy: Policy
    cpus: list[int] = Field(min_length=1)
    rr_slice_ns: int = Field(default=0, ge=0, description="FP round-robin slice; 0 = off")
    tdm: TdmCfg | None = Field(default=None, description="the wheel of a tdm instance")
    partition: Heuristic | None = Field(
        default=None, description="P-EDF: off-line assignment of unpinned threads to cpus"
    )
    allow_overload: bool = Field(
        default=False, description="accept utilization above the cpu count (overload tests)"
    )


class RightsCfg(Strict):
    """What a user partition's threads may ask of the kernel at run time (docs/security.md).

    Enforced on every thread create and set-priority from the partition; its configured
    threads are the configuration's own decision and are not limited by them.
    """

    schedulers: list[str] | None = Field(
        default=None, description="instances it may create threads on; default: its threads'")
    priority: tuple[int, int] | None = Field(
        default=None, description="[highest, lowest] FP priority (0 is the highest); "
        "default: [its threads' highest, 255]")
    budget: float = Field(
        default=0.0, ge=0.0, le=MAX_CPUS,
        description="total density (wcet / min(deadline, period)) of the real-time threads it "
        "may create at run time; their budgets are always enforced")

    @field_validator("priority")
    @classmethod
    def _range(cls, v: tuple[int, int] | None) -> tuple[int, int] | None:
        if v is not None:
            hi, lo = v
            if not (0 <= hi <= lo <= 255):
                raise ValueError(
                    f"priority [{hi}, {lo}] is not [highest, lowest] within 0..255 "
                    "(0 is the highest priority)")
        return v


class QuotasCfg(Strict):
    """What a user partition may hold at once; defaults are a fair share of each pool."""

    threads: int | None = Field(default=None, ge=0, description="live threads, configured included")
    sems: int | None = Field(default=None, ge=0)
    mutexes: int | None = Field(default=None, ge=0)
    mqs: int | None = Field(default=None, ge=0)
    mq_bytes: int | None = Field(default=None, ge=0)
    trace_records_per_ms: int | None = Field(
        default=64, ge=0, lt=2**32 - 1,
        description="syscall trace records it may add per ms (token bucket); null = unlimited")
    trace_burst: int = Field(default=1024, ge=0, lt=2**32 - 1)


class HeapCfg(Strict):
    """Colored heaps of a partition (docs/memory.md, Heaps): one heap per color it owns."""

    mode: HeapMode = Field(default=HeapMode.os, description=(
        "os: pt_malloc(bytes) takes the color thread id mod the partition's colors; "
        "user: pt_malloc_color(bytes, color) names it. The other call is refused"))
    bytes: int = Field(gt=0, description="the most each color's heap may grow to")

    @field_validator("bytes")
    @classmethod
    def _bytes(cls, v: int) -> int:
        if v % limits.PAGE_BYTES:
            raise ValueError(f"heap.bytes {v} is not a multiple of the 4096-byte page")
        if v > limits.PT_MAX_HEAP_COLOR_BYTES:
            raise ValueError(f"heap.bytes {v} above the kernel's limit of "
                             f"{limits.PT_MAX_HEAP_COLOR_BYTES} per color "
                             "(PT_MAX_HEAP_COLOR_BYTES)")
        return v


class PartitionCfg(Strict):
    name: Name
    user: bool = False
    colors: list[ColorSpec] = Field(default_factory=list, description="empty = all colors")
    fault_policy: FaultPolicy = FaultPolicy.thread
    heap_bytes: int = Field(default=0, ge=0, description=(
        "a raw region mapped at the start of a user partition's window (no allocator)"))
    heap: HeapCfg | None = Field(default=None, description="colored heaps (pt_malloc)")
    rights: RightsCfg = Field(default_factory=RightsCfg)
    quotas: QuotasCfg = Field(default_factory=QuotasCfg)

    @field_validator("heap_bytes")
    @classmethod
    def _heap_limit(cls, v: int) -> int:
        if v > limits.PT_MAX_HEAP_BYTES:
            raise ValueError(f"heap_bytes {v} above the kernel's limit of "
                             f"{limits.PT_MAX_HEAP_BYTES} (PT_MAX_HEAP_BYTES)")
        return v


class ThreadCfg(Strict):
    """A thread. Periodic and sporadic threads carry their timing in `task`."""

    name: Name
    entry: str = Field(pattern=C_IDENT, max_length=63)
    arg: int = Field(default=0, ge=0, lt=2**64)
    partition: str = "system"
    scheduler: str | None = None
    cpu: int | None = Field(default=None, ge=0, lt=MAX_CPUS)
    priority: int | None = Field(default=None, ge=0, le=255, description="FP: 0 is highest")
    kind: TaskKind = TaskKind.periodic
    task: Task | None = None
    miss_policy: MissPolicy = MissPolicy.record
    enforce_budget: bool = False
    stack_bytes: int = Field(default=8192, ge=limits.PT_MIN_STACK_BYTES)
    irq: str | int | None = Field(default=None, description=(
        "the device interrupt this thread handles (docs/interrupts.md): uart0, net0, rtc0 or "
        "a PLIC source number 1..95; an aperiodic thread pinned to a cpu of an FP scheduler "
        "that loops on pt_irq_wait()"))

    @field_validator("irq")
    @classmethod
    def _irq(cls, v: str | int | None) -> str | int | None:
        if v is None:
            return v
        if isinstance(v, bool) or (isinstance(v, int) and not 1 <= v <= IRQ_MAX_SOURCE):
            raise ValueError(f"irq {v!r} is not a PLIC source 1..{IRQ_MAX_SOURCE}")
        if isinstance(v, str) and v not in IRQ_DEVICES:
            raise ValueError(f"irq {v!r} is not a device ({', '.join(IRQ_DEVICES)}) "
                             f"or a source number 1..{IRQ_MAX_SOURCE}")
        return v

    @property
    def irq_code(self) -> int:
        """The value of pt_thread_cfg.irq: 0 = none, a source number or a HAL_IRQ_SRC_*."""
        if self.irq is None:
            return 0
        return IRQ_DEVICES[self.irq] if isinstance(self.irq, str) else self.irq

    @model_validator(mode="before")
    @classmethod
    def _gather_task(cls, data: Any) -> Any:
        """Move the flat timing keys of the YAML into the embedded Task."""
        if not isinstance(data, dict) or "task" in data:
            return data
        data = dict(data)
        timing = {k: data.pop(k) for k in TIMING_KEYS if k in data}
        kind = data.get("kind", "periodic")
        if kind == "aperiodic":
            if timing:
                raise ValueError("aperiodic threads take no period, deadline, offset or wcet")
            return data
        task: dict[str, Any] = {"name": data.get("name"), "kind": kind, **timing}
        if data.get("priority") is not None:
            task["priority"] = data["priority"]
        data["task"] = task
        return data

    @field_validator("stack_bytes")
    @classmethod
    def _page_multiple(cls, v: int) -> int:
        if v % 4096:
            raise ValueError(f"stack_bytes {v} is not a multiple of the 4096-byte page")
        if v > limits.PT_MAX_STACK_BYTES:
            raise ValueError(f"stack_bytes {v} above the kernel's limit of "
                             f"{limits.PT_MAX_STACK_BYTES} (PT_MAX_STACK_BYTES: a 64 KiB stack "
                             "slot minus its guard page)")
        return v

    @model_validator(mode="after")
    def _needs_task(self) -> ThreadCfg:
        if self.kind != TaskKind.aperiodic and self.task is None:
            raise ValueError(f"{self.kind.value} thread needs period and wcet")
        return self


class SystemCfg(Strict):
    """A whole system: the root of a configuration file."""

    name: str = Field(min_length=1, max_length=31, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    ncpus: int = Field(default=4, ge=1, le=MAX_CPUS)
    icount_shift: int = Field(default=0, ge=0, le=10)
    idle: IdleMode = Field(default=IdleMode.spin, description=(
        "what an idle hart does: spin (default: no hart ever halts, so QEMU never warps its "
        "clock over all-idle periods and runs are bit-for-bit deterministic) or wfi (sleep; "
        "QEMU's idle clock warp races its main loop and runs may differ by tens of ns)"))
    run_for_ns: int = Field(default=0, ge=0, description="0 = run until the kernel stops")
    irq_threshold: IrqThreshold = Field(default=IrqThreshold.follow, description=(
        "follow: on every dispatch a hart's PLIC threshold follows the running thread's "
        "priority, so a device interrupt whose handler thread would not preempt it never "
        "traps (the unified priority space); off: the threshold stays open (for comparison)"))
    irq_context: IrqContext = Field(default=IrqContext.dedicated, description=(
        "dedicated: an interrupt that only wakes its handler runs on a per-hart interrupt "
        "stack saving only the registers its path clobbers, the full frame only if a switch "
        "follows; full: every interrupt saves the full frame (for comparison)"))
    ram_mb: int = Field(default=128, ge=limits.PT_MIN_RAM_MB, le=limits.PT_MAX_RAM_MB)
    cache: CacheCfg = Field(default_factory=CacheCfg)
    kernel_colors: list[ColorSpec] = Field(default_factory=list)
    shared_colors: list[ColorSpec] = Field(default_factory=list, description=(
        "colors several owners (partitions, the kernel) may list: any other overlap of "
        "colors is an error"))
    kernel_heap_bytes: int = Field(default=0, ge=0, description=(
        "the system heap: the most each kernel color's heap may grow to (0: none)"))
    kernel_data: Literal["colored", "uncolored"] = Field(default="colored", description=(
        "where kernel data (thread control blocks, per-cpu data, scheduler instances, kernel "
        "stacks of user threads, page tables, the system heap) lives: colored = in "
        "kernel_colors (every color when none are listed), uncolored = spread over every "
        "color although kernel_colors stay reserved (the paper's scenario S2)"))
    cpus: list[CpuCfg] = Field(default_factory=list, description="roles; unlisted cpus are app")
    schedulers: list[SchedulerCfg] = Field(min_length=1)
    partitions: list[PartitionCfg] = Field(default_factory=list)
    threads: list[ThreadCfg] = Field(default_factory=list)
    subsys: dict[str, Any] = Field(default_factory=dict, description=(
        "the raw sections of subsystems (top-level keys named in partita.subsys), by name; "
        "the loader moves them here, each subsystem validates its own"))
    overheads: str | None = Field(default=None, description=(
        "kernel costs charged by `partita analyze` (a kernel.json of `partita bench`, relative "
        "to this file); default configs/overheads/kernel.json"))
    apps: list[str] = Field(default_factory=list, description=(
        "application directories linked into the image besides those defining an entry: a "
        "name under apps/ or a path relative to this file (see partita.config.apps)"))

    @field_validator("irq_threshold", mode="before")
    @classmethod
    def _yaml_off(cls, v: Any) -> Any:
        return "off" if v is False else v  # YAML 1.1 reads a bare `off` as false

    @field_validator("kernel_heap_bytes")
    @classmethod
    def _kernel_heap(cls, v: int) -> int:
        if v % limits.PAGE_BYTES or v > limits.PT_MAX_HEAP_COLOR_BYTES:
            raise ValueError(f"kernel_heap_bytes {v} is not a multiple of the 4096-byte page "
                             f"up to {limits.PT_MAX_HEAP_COLOR_BYTES} (PT_MAX_HEAP_COLOR_BYTES)")
        return v

    def role_of(self, cpu: int) -> Role:
        for c in self.cpus:
            if c.id == cpu:
                return c.role
        return Role.app
