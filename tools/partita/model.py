"""The task model shared by `partita config`, `partita.analysis` and `partita report`.

A task is defined once: the YAML schema (partita.config.schema) embeds these models, the C
table generator reads them, and the analyses take them as input. Times are integers in
nanoseconds of virtual time (under icount, shift 0: one instruction = one ns = one cycle).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class TaskKind(StrEnum):
    periodic = "periodic"
    sporadic = "sporadic"
    aperiodic = "aperiodic"


class Task(BaseModel):
    """A periodic or sporadic real-time task (Liu & Layland model with offsets and jitter)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=31, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    wcet_ns: int = Field(gt=0, description="worst-case execution time C")
    period_ns: int = Field(gt=0, description="period or minimum inter-arrival time T")
    deadline_ns: int | None = Field(default=None, gt=0, description="relative deadline D (= T)")
    offset_ns: int = Field(default=0, ge=0, description="release offset of the first job")
    jitter_ns: int = Field(default=0, ge=0, description="release jitter J")
    priority: int | None = Field(default=None, ge=0, le=255, description="FP: 0 is highest")
    kind: TaskKind = TaskKind.periodic

    @model_validator(mode="after")
    def _check(self) -> Task:
        if self.wcet_ns > self.d:
            raise ValueError(
                f"task {self.name}: wcet_ns {self.wcet_ns} exceeds deadline {self.d}"
            )
        return self

    @property
    def d(self) -> int:
        """Relative deadline, defaulting to the period (implicit deadline)."""
        return self.deadline_ns if self.deadline_ns is not None else self.period_ns

    @property
    def utilization(self) -> float:
        return self.wcet_ns / self.period_ns

    @property
    def density(self) -> float:
        return self.wcet_ns / min(self.d, self.period_ns)


class ThreePhaseTask(Task):
    """A scratchpad-centric task (brief 0): load, execute from scratchpad, unload.

    `wcet_ns` is the execution phase only; the copies are in bytes and turned into time by
    the platform's DMA cost.
    """

    load_bytes: int = Field(ge=0)
    unload_bytes: int = Field(ge=0)


class Platform(BaseModel):
    """What the analyses need to know of the machine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cores: int = Field(ge=1, le=64)
    tdma_slot_ns: int | None = Field(default=None, gt=0, description="TDMA slot sigma (brief 0)")
    dma_ns_per_byte: float = Field(default=0.0, ge=0)
    dma_setup_ns: int = Field(default=0, ge=0)
    overheads_ns: dict[str, int] = Field(
        default_factory=dict,
        description="measured kernel overheads (from make bench JSON), e.g. context_switch",
    )
