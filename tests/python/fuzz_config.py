"""Mutated configurations for the property tests of `partita config` (issue 7): a seed YAML,
then random edits at the data level (values at and beyond every limit, wrong types, deleted
keys, multiplied list entries) and at the text level (bytes flipped, cut short)."""

from __future__ import annotations

import copy
from typing import Any

import yaml
from hypothesis import strategies as st
from partita import limits

SEED = """
name: fuzz
ncpus: 2
run_for_ms: 20
schedulers:
  - {name: f0, policy: fp, cpus: [0]}
  - {name: e1, policy: edf, cpus: [1]}
partitions:
  - {name: user1, user: true, heap_bytes: 8192}
threads:
  - {name: a, entry: app_fir, arg: 20, scheduler: f0, period_ms: 2, wcet_us: 300}
  - {name: b, entry: app_iir, arg: 20, scheduler: e1, period_ms: 4, wcet_us: 500,
     deadline_ms: 3, stack_bytes: 16384}
  - {name: c, entry: app_bitmanip, arg: 5, partition: user1, scheduler: e1, period_ms: 5,
     wcet_us: 400, offset_us: 100}
"""

SPECIAL_INTS = [
    -1, 0, 1, 4095, 4096, limits.PT_MIN_PERIOD_NS - 1, limits.PT_MIN_PERIOD_NS,
    limits.PT_MAX_STACK_BYTES, limits.PT_MAX_STACK_BYTES + 4096, limits.PT_MAX_HEAP_BYTES,
    2**31, 2**32, 2**32 - 1, 2**62 - 1, 2**62, 2**63, 2**64 - 1, 2**64, 2**70, 10**30,
]

values = st.one_of(
    st.sampled_from(SPECIAL_INTS),
    st.integers(-10, 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from([None, True, False, [], {}, [0, 1], ["0-3"], "fp", "edf", "gedf"]),
)
keys = st.sampled_from([
    "name", "ncpus", "run_for_ms", "ram_mb", "period_ns", "period_us", "wcet_ns", "wcet_us",
    "deadline_ns", "offset_s", "stack_bytes", "heap_bytes", "priority", "cpu", "cpus",
    "scheduler", "partition", "kind", "user", "policy", "rr_slice_us", "cache", "colors",
    "enforce_budget", "miss_policy", "entry", "arg", "icount_shift", "bogus",
])


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


@st.composite
def mutated_doc(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(SEED)
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _parent(doc, path)
        op = draw(st.sampled_from(["set", "set", "set", "delete", "add", "multiply"]))
        if op == "set":
            parent[path[-1]] = copy.deepcopy(draw(values))
        elif op == "delete":
            del parent[path[-1]]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(keys)] = copy.deepcopy(draw(values))
        elif op == "multiply" and isinstance(parent, list):
            n = draw(st.sampled_from([2, 15, 16, 126, 127, 130]))
            item = parent[path[-1]]
            for i in range(n):
                clone = copy.deepcopy(item)
                if isinstance(clone, dict) and isinstance(clone.get("name"), str):
                    clone["name"] = f"{clone['name'][:10]}{i}"
                parent.append(clone)
    return doc


@st.composite
def mutated_text(draw: st.DrawFn) -> bytes:
    """A mutated document, dumped, then maybe damaged as bytes."""
    text = yaml.safe_dump(draw(mutated_doc()), sort_keys=False).encode()
    if draw(st.booleans()):
        raw = bytearray(text)
        for _ in range(draw(st.integers(1, 3))):
            if raw:
                raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        if draw(st.booleans()):
            raw = raw[: draw(st.integers(0, len(raw)))]
        text = bytes(raw)
    return text
