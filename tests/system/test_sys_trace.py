"""Traces of real runs: the Perfetto export is well formed (issue 11 item 5)."""

from __future__ import annotations

from collections.abc import Callable

from partita import perfetto
from partita.run import RunResult
from partita.tracecheck import check_trace_events


def test_perfetto_export_of_a_real_run_is_well_formed(
        boot: Callable[..., RunResult]) -> None:
    r = boot("sys_edf")
    assert r.timeline is not None
    doc = perfetto.to_events(r.timeline)
    assert check_trace_events(doc) == []
    phases = {e["ph"] for e in doc["traceEvents"]}
    assert {"X", "b", "e", "i", "C", "M"} <= phases
