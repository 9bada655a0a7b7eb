"""The one result type of every schedulability test of `partita.analysis` (issue 10 item 6).

Every single-set entry point (`partita.analysis.api.check`, `gedf.gfb_set` / `bak_set` /
`bcl_set` / `bcl_iterative_set` / `rta_set`, `edf.qpa_set`, `edf.rta_set`, `fp.rta_set`,
`partition.pack`) returns a `Result`; `api.check_batch` returns one `Result` per set.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Result:
    """Verdict of one test on one task set.

    - `schedulable`: the test proves every deadline met (False: not proven, or shown to miss
      for the exact tests);
    - `bounds`: per-task response-time bounds in ns, in input order, when the test computes
      them and they are sound; None for tests without per-task bounds and for a set whose
      bounds are not all bounds (a rejected G-EDF set). An entry is None when that task has
      no bound (FP RTA: exceeds its deadline);
    - `reason`: why the set was rejected (names the first failing task or condition), or
      what was proven;
    - `test`: the test's name as in `api.TESTS`;
    - `cores`: for partitioning, the core of every task in input order (None if it failed).
    """

    schedulable: bool
    bounds: tuple[int | None, ...] | None
    reason: str
    test: str
    cores: tuple[int, ...] | None = None

    def __bool__(self) -> bool:
        return self.schedulable
