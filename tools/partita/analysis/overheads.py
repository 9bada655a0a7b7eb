"""Kernel-overhead accounting: inflate execution times with costs measured by `make bench`.

Input: `out/bench/kernel.json`, written by the kernel benchmark, with the keys read here:

    {"cycles_per_sec": 1000000000,
     "results": [{"op": "context_switch", "threads": 1, "variant": "kernel", "cycles": 412},
                 {"op": "release", "threads": 8, "variant": "kernel", "cycles": 950}, ...]}

For each op the worst (largest) `cycles` (or `cycles_max` when present) over all entries with
the wanted `variant` is used,
converted to ns with `cycles_per_sec`. The default model charges every job

    C' = C + release + 2 * context_switch  (+ schedule if present)

the usual preemption-centric accounting (Brandenburg, "Scheduling and locking in
multiprocessor real-time operating systems", PhD thesis, UNC 2011, ch. 3): one release
(timer interrupt and enqueue), the switch in and the switch out. Under preemptive FP/EDF each
preemption is charged to the preempting job by this rule. The model is a dict
{op: multiplier} and can be replaced.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from partita.analysis.errors import AnalysisInputError
from partita.model import Task

DEFAULT_MODEL: dict[str, int] = {"release": 1, "context_switch": 2}
OPTIONAL_OPS: dict[str, int] = {"schedule": 1}


def load_costs_ns(path: Path | str = "out/bench/kernel.json", variant: str = "kernel"
                  ) -> dict[str, int]:
    """Worst measured cost in ns of every op in `path` (for `variant`)."""
    p = Path(path)
    if not p.exists():
        raise AnalysisInputError(f"{p}: not found; run `make bench` to measure kernel costs")
    try:
        doc = json.loads(p.read_text())
    except json.JSONDecodeError as e:
        raise AnalysisInputError(f"{p}: not valid JSON ({e})") from e
    if "cycles_per_sec" not in doc or "results" not in doc:
        raise AnalysisInputError(f"{p}: needs keys 'cycles_per_sec' and 'results'")
    cps = float(doc["cycles_per_sec"])
    if cps <= 0:
        raise AnalysisInputError(f"{p}: cycles_per_sec must be > 0, got {cps}")
    worst: dict[str, float] = {}
    for k, r in enumerate(doc["results"]):
        if not isinstance(r, Mapping) or "op" not in r or "cycles" not in r:
            raise AnalysisInputError(f"{p}: results[{k}] needs 'op' and 'cycles'")
        if r.get("variant", variant) != variant:
            continue
        cy = max(float(r["cycles"]), float(r.get("cycles_max", 0)))
        worst[r["op"]] = max(worst.get(r["op"], 0.0), cy)
    return {op: int(math.ceil(cy * 1e9 / cps)) for op, cy in worst.items()}


def per_job_ns(costs_ns: Mapping[str, int], model: Mapping[str, int] | None = None) -> int:
    """Overhead charged to each job; a missing required op is a clear error."""
    model = DEFAULT_MODEL if model is None else model
    missing = [op for op in model if op not in costs_ns]
    if missing:
        raise AnalysisInputError(
            f"kernel costs lack op(s) {missing}; available: {sorted(costs_ns)}")
    extra = sum(k * costs_ns[op] for op, k in OPTIONAL_OPS.items()
                if op in costs_ns and op not in model)
    return sum(k * costs_ns[op] for op, k in model.items()) + extra


def inflate(tasks: Sequence[Task], costs_ns: Mapping[str, int],
            model: Mapping[str, int] | None = None, scale: int = 1) -> list[Task]:
    """Copies of `tasks` with wcet_ns increased by the per-job overhead x `scale` (the
    number of harts that may be busy at once, under QEMU icount)."""
    add = per_job_ns(costs_ns, model) * scale
    out = []
    for t in tasks:
        c = t.wcet_ns + add
        if c > t.d:
            raise AnalysisInputError(
                f"task {t.name}: wcet_ns {t.wcet_ns} + overhead {add} exceeds deadline {t.d}")
        out.append(t.model_copy(update={"wcet_ns": c}))
    return out
