"""The `cache_model:` section: parameters of the cache-model QEMU plugin (tools/cachesim).

    cache_model:
      l1: {size_bytes: 32768, ways: 8}   # private L1 I and D per hart; `l1: null` = none
      l1_hit_cycles: 0                   # stall of an L1 hit (0: hidden by the pipeline)
      llc_hit_cycles: 30                 # stall of an L1 miss that hits the LLC
      mem_cycles: 200                    # stall of an LLC miss (main memory), without the bus
      bus_cycles: 20                     # bus occupancy of one line transfer (contention)
      bus_window_cycles: 100000          # window of a hart's bus utilisation
      feedback: false                    # feed the modeled stalls back into guest time

The shared last-level cache is the system's `cache:` (size, ways, line): the geometry the
colors come from. The defaults are close to the seed paper's platform (an 8 MiB 16-way LLC,
32 KiB 8-way L1s, 64-byte lines; tens of cycles to the LLC, ~200 to memory).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from partita.config.errors import Problem


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


class L1Cfg(Strict):
    size_bytes: int = Field(default=32768, ge=64, le=1 << 24)
    ways: int = Field(default=8, ge=1, le=64)

    @model_validator(mode="after")
    def _geometry(self) -> L1Cfg:
        if not _pow2(self.size_bytes):
            raise ValueError(f"size_bytes = {self.size_bytes} is not a power of two")
        if not _pow2(self.ways):
            raise ValueError(f"ways = {self.ways} is not a power of two")
        return self


class CacheModelCfg(Strict):
    l1: L1Cfg | None = Field(default_factory=L1Cfg)
    l1_hit_cycles: int = Field(default=0, ge=0, le=1000)
    llc_hit_cycles: int = Field(default=30, ge=0, le=10_000)
    mem_cycles: int = Field(default=200, ge=0, le=100_000)
    bus_cycles: int = Field(default=20, ge=0, le=100_000)
    bus_window_cycles: int = Field(default=100_000, ge=1000, le=1 << 31)
    # true: the plugin adds each hart's stalls to a debt the kernel pays back by executing
    # that many instructions at its next preemption point (subsys/cachemodel), so cache
    # interference takes guest time and can make jobs miss in QEMU
    feedback: bool = False


def parse(raw: Any) -> tuple[CacheModelCfg | None, list[Problem]]:
    if raw is None or raw == {}:
        return CacheModelCfg(), []
    try:
        return CacheModelCfg.model_validate(raw), []
    except ValidationError as e:
        return None, [Problem(("cache_model", *(str(x) for x in err["loc"])), err["msg"])
                      for err in e.errors()]


def check_llc(section: CacheModelCfg, size_bytes: int, line_bytes: int) -> list[Problem]:
    """Relations with the system's `cache:` (the LLC)."""
    if size_bytes == 0:
        return [Problem(("cache",), "cache_model needs the last-level cache's geometry: "
                        "give cache: {size_bytes, ways, line_bytes}")]
    out = []
    if section.l1 is not None and section.l1.size_bytes < section.l1.ways * line_bytes:
        out.append(Problem(("cache_model", "l1", "size_bytes"),
                           f"{section.l1.size_bytes} is smaller than ways x line_bytes "
                           f"({section.l1.ways} x {line_bytes})"))
    return out
