"""Structural check of Chrome trace-event JSON (the rules of the Trace Event Format that
Perfetto's importer relies on). Used by the tests on every trace `partita trace` writes."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

PHASES = {"X", "B", "E", "i", "I", "C", "M", "b", "e", "n", "s", "t", "f"}
META_NAMES = {"process_name", "thread_name", "process_sort_index", "thread_sort_index",
              "process_labels"}


def check_trace_events(doc: Any) -> list[str]:
    """Every rule broken by `doc` (an empty list when it is well formed)."""
    bad: list[str] = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["top level must be an object with a traceEvents array"]
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        bad.append("displayTimeUnit must be 'ms' or 'ns'")
    opened: dict[tuple[Any, Any], list[float]] = defaultdict(list)
    flows: dict[tuple[Any, Any], list[tuple[str, float]]] = defaultdict(list)
    spans: dict[tuple[Any, Any], list[tuple[float, float, str]]] = defaultdict(list)
    for n, e in enumerate(doc["traceEvents"]):
        where = f"event {n} ({e.get('ph')} {e.get('name')!r})" if isinstance(e, dict) else n
        if not isinstance(e, dict):
            bad.append(f"event {n} is not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            bad.append(f"{where}: unknown phase")
            continue
        if not isinstance(e.get("name"), str):
            bad.append(f"{where}: name must be a string")
        if not isinstance(e.get("pid"), int) or ("tid" in e and not isinstance(e["tid"], int)):
            bad.append(f"{where}: pid/tid must be integers")
        if "args" in e and not isinstance(e["args"], dict):
            bad.append(f"{where}: args must be an object")
        if ph == "M":
            if e.get("name") not in META_NAMES:
                bad.append(f"{where}: unknown metadata name")
            continue
        ts = e.get("ts")
        if not isinstance(ts, int | float) or isinstance(ts, bool) or ts < 0:
            bad.append(f"{where}: ts must be a number >= 0")
            continue
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, int | float) or dur < 0:
                bad.append(f"{where}: complete event needs dur >= 0")
            else:
                spans[(e["pid"], e.get("tid"))].append((ts, ts + dur, str(e.get("name"))))
        elif ph in ("i", "I"):
            if e.get("s", "t") not in ("g", "p", "t"):
                bad.append(f"{where}: instant scope must be g, p or t")
        elif ph == "C":
            args = e.get("args")
            if not args or not all(isinstance(v, int | float) for v in args.values()):
                bad.append(f"{where}: counter args must be numbers")
        elif ph in ("b", "e"):
            if "id" not in e or "cat" not in e:
                bad.append(f"{where}: async event needs id and cat")
                continue
            key = (e["cat"], e["id"])
            if ph == "b":
                opened[key].append(ts)
            elif not opened[key]:
                bad.append(f"{where}: async end without a begin")
            elif opened[key].pop() > ts:
                bad.append(f"{where}: async end before its begin")
        elif ph in ("s", "t", "f"):
            if "id" not in e:
                bad.append(f"{where}: flow event needs an id")
                continue
            flows[(e.get("cat"), e["id"])].append((ph, ts))
    bad += [f"async span {k} never ends" for k, v in opened.items() if v]
    for k, steps in flows.items():
        phs = [p for p, _ in steps]
        if phs.count("s") != 1 or phs.count("f") != 1 or phs[0] != "s" or phs[-1] != "f":
            bad.append(f"flow {k}: needs one start first and one finish last, got {phs}")
        elif steps[-1][1] < steps[0][1]:
            bad.append(f"flow {k}: finishes before it starts")
    for track, xs in spans.items():  # complete events on one track must nest
        stack: list[float] = []
        for start, end, name in sorted(xs, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1] <= start + 1e-9:
                stack.pop()
            if stack and end > stack[-1] + 1e-9:
                bad.append(f"track {track}: slice {name!r} at {start} overlaps its neighbour")
                break
            stack.append(end)
    return bad
