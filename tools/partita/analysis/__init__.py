"""Schedulability analysis for Partita (issue 3).

Every test has one calling convention, `api.check(test, C, T, D, m) -> Result` (one set) and
`api.check_batch(test, sets, m) -> list[Result]` (sets of any sizes); `Result` (in
`result`) holds the verdict, per-task bounds or None, and the reason.

Modules, one per concept (see docs/analysis.md for formulas and citations):

- `generators` - seeded task-set generators (UUniFast, UUniFast-Discard, RandFixedSum, periods,
  the papers' recipes);
- `fp` - uniprocessor fixed priority: RTA with blocking and jitter, non-preemptive RTA,
  Liu & Layland and hyperbolic bounds;
- `edf` - uniprocessor EDF: utilization/density, processor demand, QPA;
- `gedf` - global EDF: GFB, BAK, BCL, iterative BCL, Bertogna-Cirinei RTA;
- `partition` - bin-packing heuristics for P-EDF and P-FP;
- `spm` - scratchpad-centric three-phase tasks with TDMA DMA (brief 0);
- `sim` - small exact discrete-event simulators used to cross-check the analyses;
- `overheads` - kernel-overhead accounting from a `kernel.json` of `partita bench` (default
  configs/overheads/kernel.json).

Submodules are imported lazily so that `from partita.analysis import gedf` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from partita.analysis.errors import AnalysisInputError

__all__ = [
    "AnalysisInputError",
    "api",
    "edf",
    "fp",
    "gedf",
    "generators",
    "overheads",
    "partition",
    "result",
    "sim",
    "spm",
]

_SUBMODULES = {"api", "edf", "fp", "gedf", "generators", "overheads", "partition", "result",
               "sim", "spm"}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"partita.analysis.{name}")
    raise AttributeError(name)
