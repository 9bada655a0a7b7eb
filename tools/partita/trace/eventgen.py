"""Generate the trace-event enums from the one table, kernel/trace/trace_events.yaml.

    python -m partita.trace.eventgen          # (make trace-events) rewrite every output

Outputs (committed, like kernel/include/partita/limits.h; tests/python/test_trace_events.py
fails when one is stale): the kernel's `enum pt_trace_event`, one header per subsystem
(`enum pt_<s>_trace_event` and its range PT_EV_<S>_FIRST / PT_EV_<S>_COUNT, which its
registry entry declares), and tools/partita/trace/events.py for the decoder.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "kernel" / "trace" / "trace_events.yaml"
KERNEL_HEADER = ROOT / "kernel" / "include" / "partita" / "trace_events.h"
PY_MODULE = ROOT / "tools" / "partita" / "trace" / "events.py"
_REL_TABLE = "kernel/trace/trace_events.yaml"
_BANNER = f"Generated from {_REL_TABLE} by partita.trace.eventgen; do not edit."


class EventTableError(ValueError):
    """The table is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class Event:
    name: str
    value: int  # absolute event number (record `type`)
    doc: str


@dataclass(frozen=True)
class Subsys:
    name: str
    header: str  # path of its generated C header, relative to the repository
    first: int
    count: int
    doc: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Table:
    kernel: tuple[Event, ...]
    subsys_first: int
    subsys_last: int
    subsystems: tuple[Subsys, ...]


def _events(raw: Any, where: str, base: int, limit: int | None) -> tuple[Event, ...]:
    if not isinstance(raw, list) or not raw:
        raise EventTableError(f"{where}: must be a non-empty list")
    out: list[Event] = []
    for i, e in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(e, dict) or set(e) - {"name", "id", "doc"} or "name" not in e \
                or "id" not in e:
            raise EventTableError(f"{at}: must be a mapping of name, id and doc")
        name, ident = e["name"], e["id"]
        if not isinstance(name, str) or not name.isidentifier() or name.upper() != name:
            raise EventTableError(f"{at}.name: {name!r} is not an UPPER_CASE identifier")
        if isinstance(ident, bool) or not isinstance(ident, int) or ident < 0 or (
                limit is not None and ident >= limit):
            raise EventTableError(f"{at}.id: {ident!r} must be an integer in [0, "
                                  f"{limit if limit is not None else 'inf'})")
        if any(x.name == name for x in out):
            raise EventTableError(f"{at}.name: {name} appears twice")
        if any(x.value == base + ident for x in out):
            raise EventTableError(f"{at}.id: {ident} appears twice")
        out.append(Event(name, base + ident, str(e.get("doc") or "")))
    return tuple(out)


def load(path: Path = TABLE) -> Table:
    """The validated table (EventTableError naming the file and field otherwise)."""
    try:
        doc = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        raise EventTableError(f"{path}: {e}") from None
    if not isinstance(doc, dict):
        raise EventTableError(f"{path}: must be a mapping")
    first, last = doc.get("subsys_first"), doc.get("subsys_last")
    if not isinstance(first, int) or not isinstance(last, int) or not 0 < first <= last < 65536:
        raise EventTableError(f"{path}: subsys_first / subsys_last: need 0 < first <= last")
    kernel = _events(doc.get("kernel"), f"{path}: kernel", 0, first)
    if any(e.value == 0 for e in kernel):
        raise EventTableError(f"{path}: kernel: id 0 is not an event (an empty record)")
    subs: list[Subsys] = []
    raw_subs = doc.get("subsystems") or {}
    if not isinstance(raw_subs, dict):
        raise EventTableError(f"{path}: subsystems: must be a mapping")
    for name, s in raw_subs.items():
        at = f"{path}: subsystems.{name}"
        if not isinstance(s, dict) or not isinstance(s.get("first"), int) or \
                not isinstance(s.get("count"), int) or not isinstance(s.get("header"), str):
            raise EventTableError(f"{at}: needs header, first and count")
        f, c = s["first"], s["count"]
        if c < 1 or f < first or f + c - 1 > last:
            raise EventTableError(f"{at}: range {f}..{f + c - 1} is not inside the "
                                  f"subsystem range {first}..{last}")
        for o in subs:
            if f < o.first + o.count and o.first < f + c:
                raise EventTableError(f"{at}: range {f}..{f + c - 1} overlaps {o.name}'s "
                                      f"{o.first}..{o.first + o.count - 1}")
        subs.append(Subsys(str(name), s["header"], f, c, str(s.get("doc") or ""),
                           _events(s.get("events"), f"{at}.events", f, c)))
    return Table(kernel, first, last, tuple(subs))


def _c_enum(tag: str, prefix: str, events: tuple[Event, ...], base: str | None,
            first: int) -> list[str]:
    out = [f"enum {tag} {{"]
    for e in events:
        value = f"{base} + {e.value - first}" if base else str(e.value)
        line = f"\t{prefix}{e.name} = {value},"
        short = f"{line:<48}/* {e.doc} */"
        if not e.doc:
            out.append(line)
        elif len(short.expandtabs(8)) <= 100:
            out.append(short)
        else:  # a long description goes above its entry
            text = textwrap.wrap(e.doc, 88)
            out += [f"\t/* {text[0]}"] + [f"\t * {x}" for x in text[1:]]
            out[-1] += " */"
            out.append(line)
    return out


def kernel_header(t: Table) -> str:
    out = [f"/* {_BANNER} */",
           "/* The kernel's trace events (record `type`, <partita/trace.h>); subsystems own",
           " * ranges inside PT_EV_SUBSYS_FIRST..PT_EV_SUBSYS_LAST, each declared in its",
           " * registry entry (<partita/subsys.h>). */",
           "#ifndef PARTITA_TRACE_EVENTS_H", "#define PARTITA_TRACE_EVENTS_H", ""]
    out += _c_enum("pt_trace_event", "PT_EV_", t.kernel, None, 0)
    out += [f"\tPT_EV_SUBSYS_FIRST = {t.subsys_first},",
            f"\tPT_EV_SUBSYS_LAST = {t.subsys_last},", "};", "", "#endif", ""]
    return "\n".join(out)


def subsys_header(s: Subsys) -> str:
    up = s.name.upper()
    guard = f"PARTITA_SUBSYS_{up}_TRACE_EVENTS_H"
    out = [f"/* {_BANNER} */", *[f"/* {x} */" for x in textwrap.wrap(s.doc, 92)],
           f"#ifndef {guard}", f"#define {guard}", "", "#include <partita/trace.h>", "",
           f"#define PT_EV_{up}_FIRST {s.first} /* its range: [FIRST, FIRST + COUNT) */",
           f"#define PT_EV_{up}_COUNT {s.count}", ""]
    out += _c_enum(f"pt_{s.name}_trace_event", f"PT_EV_{up}_", s.events, f"PT_EV_{up}_FIRST",
                   s.first)
    out += ["};", "", f"_Static_assert(PT_EV_{up}_FIRST >= PT_EV_SUBSYS_FIRST &&",
            f"\t       PT_EV_{up}_FIRST + PT_EV_{up}_COUNT - 1 <= PT_EV_SUBSYS_LAST,",
            f'\t       "{s.name} trace range outside the subsystem range");', "", "#endif", ""]
    return "\n".join(out)


def python_module(t: Table) -> str:
    out = [f'"""{_BANNER}', "",
           "The trace events as IntEnums: `Ev` (the kernel's), one `<Subsys>Ev` per subsystem,",
           "and SUBSYS_RANGES (subsystem -> (first, count)).", '"""', "",
           "from enum import IntEnum", "", ""]

    def enum(cls: str, doc: str, events: tuple[Event, ...], extra: list[str]) -> None:
        out.append(f"class {cls}(IntEnum):")
        out.append(f'    """{doc}"""' if len(doc) < 80 else f'    """{doc}\n    """')
        out.append("")
        for e in events:
            out.append(f"    {e.name} = {e.value}")
        out.extend(extra)
        out.extend(["", ""])

    enum("Ev", "The kernel's events (enum pt_trace_event).", t.kernel,
         [f"    SUBSYS_FIRST = {t.subsys_first}", f"    SUBSYS_LAST = {t.subsys_last}"])
    for s in t.subsystems:
        enum(f"{s.name.capitalize()}Ev", f"Events of subsystem {s.name} "
             f"(enum pt_{s.name}_trace_event).", s.events, [])
    out.append("SUBSYS_RANGES: dict[str, tuple[int, int]] = {")
    out += [f'    "{s.name}": ({s.first}, {s.count}),' for s in t.subsystems]
    out += ["}", ""]
    return "\n".join(out)


def outputs(t: Table | None = None) -> dict[Path, str]:
    """Every generated file and its text."""
    t = load() if t is None else t
    files = {KERNEL_HEADER: kernel_header(t), PY_MODULE: python_module(t)}
    for s in t.subsystems:
        files[ROOT / s.header] = subsys_header(s)
    return files


def main(argv: list[str] | None = None) -> int:
    del argv
    try:
        files = outputs()
    except EventTableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for path, text in files.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
