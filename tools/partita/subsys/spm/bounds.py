"""Adapter from an `spm:` configuration to the analysis of `partita.analysis.spm` (owned by the
analysis work; this module only maps tasks to its inputs, it computes no bound itself).

Per application core: tasks in priority order, c = wcet + DMA setup + context switch (the
paper's adjusted execution time), sigma and M from the configuration."""

from __future__ import annotations

from typing import Any

from partita.subsys.spm.config import SpmCfg


def core_inputs(spm: SpmCfg, core: int, phase: int = 0) -> tuple[list[str], list[int],
                                                                 list[int], list[int]]:
    mine = sorted((t for t in spm.tasks if t.core == core and t.phase == phase),
                  key=lambda t: t.priority)
    over = spm.dma_setup_ns + spm.ctx_switch_ns
    return ([t.name for t in mine], [t.wcet_ns + over for t in mine],
            [t.period_ns for t in mine], [t.d for t in mine])


def bounds_for(spm: SpmCfg, analysis: str = "exact") -> dict[str, dict[str, Any]]:
    """{task: {bound_ns, schedulable, deadline_ns}}; bound_ns is None if it exceeds 100 D
    (conservative) or the period (exact: docs/spm.md)."""
    from partita.analysis.spm import ANALYSES

    one = ANALYSES[analysis]

    out: dict[str, dict[str, Any]] = {}
    m = len(spm.app_cpus)
    for phase in range(spm.nphases):
        for core in range(m):
            names, c, t, d = core_inputs(spm, core, phase)
            above = False  # exact: no bound below an unschedulable task (spm._bounds)
            for i, name in enumerate(names):
                b = None if above and analysis == "exact" else \
                    one(c, t, d, i, spm.sigma, m, limit=100 * d[i])
                above |= b is None
                out[name] = {"bound_ns": b, "deadline_ns": d[i],
                             "schedulable": b is not None and b <= d[i]}
    return out
