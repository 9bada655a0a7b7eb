"""The uk part of a run's report: delegated calls, replies and failures, from the trace."""

from __future__ import annotations

from collections import Counter

from partita.trace.events import SUBSYS_RANGES
from partita.trace.format import Area

NAMES = ("SEND", "REPLY", "NOUK", "DEAD", "TIMEOUT", "FULL", "STALE")


def counts(area: Area | None) -> dict[str, int]:
    """Records of each uk event in the trace (empty if it holds none)."""
    if area is None:
        return {}
    first, count = SUBSYS_RANGES["uk"]
    c: Counter[str] = Counter()
    for ring in area.rings:
        types = ring.records["type"]
        for i, name in enumerate(NAMES):
            c[name] += int((types == first + i).sum())
    return {k: v for k, v in c.items() if v}


def render(area: Area | None) -> None:
    c = counts(area)
    if c:
        print("uk (delegation to the user-level kernel): "
              + ", ".join(f"{k.lower()} {v}" for k, v in c.items()))
