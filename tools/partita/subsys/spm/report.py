"""SPM additions to `partita run` / `partita report`: TDMA slot utilization and wasted slots per
core, transfers per partition, I/O bandwidth, protocol invariants checked on the trace, and
the SPM tasks' analysis bounds (`partita.subsys.spm.bounds`)
merged into the run's bounds.json so the main report prints them beside observed maxima."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from partita.subsys.spm.events import IdleReason, SpmTimeline, decode
from partita.trace.format import Area


@dataclass
class CoreSlots:
    core: int
    slots: int = 0
    loads: int = 0
    unloads: int = 0
    idle: int = 0
    wasted: int = 0
    part_loads: Counter[int] = field(default_factory=Counter)

    @property
    def utilization(self) -> float:
        return (self.loads + self.unloads) / self.slots if self.slots else 0.0


def slot_stats(tl: SpmTimeline) -> dict[int, CoreSlots]:
    out: dict[int, CoreSlots] = {}
    for s in tl.slots:
        c = out.setdefault(s.core, CoreSlots(s.core))
        c.slots += 1
        if s.action == "load":
            c.loads += 1
        elif s.action == "unload":
            c.unloads += 1
        else:
            c.idle += 1
            if s.idle_reason == IdleReason.no_partition:
                c.wasted += 1
    for x in tl.transfers:
        if x.kind == "load":
            out.setdefault(x.core, CoreSlots(x.core)).part_loads[x.part] += 1
    return out


def bandwidth_bps(tl: SpmTimeline, start_ns: int = 0) -> float:
    """Delivered (looped-back) payload bit rate over [start_ns, end of trace]."""
    span = tl.end_ns - start_ns
    nbytes = sum(b for t, _, _, b in tl.tx if t >= start_ns)
    return nbytes * 8 * 1e9 / span if span > 0 else 0.0


def invariant_violations(tl: SpmTimeline, task_core: dict[str, int] | None = None,
                         ncores: int | None = None) -> list[str]:
    """Brief 0 protocol properties, checked on the trace. Empty list = all hold."""
    bad: list[str] = []
    ncores = ncores or (max((s.core for s in tl.slots), default=0) + 1)
    slot_owner = {s.number: s.core for s in tl.slots}
    # loads/unloads only in the owning core's slots, and for that core's tasks
    for x in tl.transfers:
        if slot_owner.get(x.slot) != x.core:
            bad.append(f"{x.kind} of {x.task} for core {x.core} in slot {x.slot} owned by core "
                       f"{slot_owner.get(x.slot)}")
        if x.slot % ncores != x.core:
            bad.append(f"{x.kind} of {x.task} in slot {x.slot}: not core {x.core}'s slot")
        if task_core and task_core.get(x.task) not in (None, x.core):
            bad.append(f"{x.kind} of {x.task} on core {x.core}, configured core "
                       f"{task_core[x.task]}")
    # at most one transfer in flight; each finishes before the next slot starts
    xs = sorted(tl.transfers, key=lambda x: x.begin_ns)
    for a, b in pairwise(xs):
        if a.end_ns is None or a.end_ns > b.begin_ns:
            bad.append(f"transfers overlap: {a.kind} {a.task} and {b.kind} {b.task}")
    slot_begin = {s.number: s.begin_ns for s in tl.slots}
    for x in xs:
        nxt = slot_begin.get(x.slot + 1)
        if x.end_ns is not None and nxt is not None and x.end_ns > nxt:
            bad.append(f"{x.kind} of {x.task} overran slot {x.slot}")
    # a job starts only after its load completed (same job number)
    for name, jobs in tl.jobs.items():
        for j in jobs.values():
            if j.exec_begin_ns is None:
                continue
            if j.load_end_ns is None or j.load_end_ns > j.exec_begin_ns:
                bad.append(f"{name} job {j.job} started before its load completed")
            if j.done_ns is not None and j.exec_end_ns is not None and \
                    j.done_ns < j.exec_end_ns:
                bad.append(f"{name} job {j.job} unloaded before it finished")
    # Rule 1 before Rule 2: no unload while the owner had a released, unloaded task and a
    # free partition (state reconstructed from the trace)
    bad += _rule_order(tl, ncores)
    # I/O reaches a task only with its load and leaves only after its unload
    load_ends = {(x.task, x.end_ns) for x in tl.transfers if x.kind == "load"}
    for t, name, _n in tl.mirror_in:
        if (name, t) not in {(n, e) for n, e in load_ends} and not any(
                n == name and e is not None and abs(e - t) <= 1000 for n, e in load_ends):
            bad.append(f"input mirror of {name} delivered at {t} ns outside a load")
    unload_ends = [(x.task, x.end_ns) for x in tl.transfers if x.kind == "unload"]
    for t, name, _flow, _b in tl.tx:
        if not any(n == name and e is not None and e <= t for n, e in unload_ends):
            bad.append(f"output of {name} sent at {t} ns before any unload")
    return bad


def _rule_order(tl: SpmTimeline, ncores: int) -> list[str]:
    bad: list[str] = []
    events: list[tuple[int, int, str, Any]] = []
    task_core: dict[str, int] = {x.task: x.core for x in tl.transfers}
    for name, jobs in tl.jobs.items():
        for j in jobs.values():
            if j.release_ns is not None:
                events.append((j.release_ns, 0, "release", name))
    for x in tl.transfers:
        events.append((x.begin_ns, 1, x.kind + "_begin", x))
        if x.end_ns is not None:
            events.append((x.end_ns, 0, x.kind + "_end", x))
    events.sort(key=lambda e: (e[0], e[1]))
    released: dict[str, int] = Counter()
    occupied: dict[int, set[int]] = {c: set() for c in range(ncores)}
    for _t, _o, kind, obj in events:
        if kind == "release":
            released[obj] += 1
        elif kind == "load_begin":
            released[obj.task] -= 1
            occupied.setdefault(obj.core, set()).add(obj.part)
        elif kind == "unload_end":
            occupied.setdefault(obj.core, set()).discard(obj.part)
        elif kind == "unload_begin":
            waiting = [n for n, k in released.items() if k > 0 and task_core.get(n) == obj.core]
            if waiting and len(occupied.get(obj.core, ())) < 2:
                bad.append(f"Rule 2 before Rule 1: unload of {obj.task} at {obj.begin_ns} ns "
                           f"while {waiting[0]} waited with a free partition")
    return bad


def spm_bounds(cfg: Path, app_dirs: Sequence[str | Path] = ()) -> dict[str, dict[str, Any]]:
    """Per SPM task: deadline and analysis bound (partita.subsys.spm.bounds)."""
    from partita.config import load_resolved
    from partita.subsys.spm import load

    r = load_resolved(cfg, app_dirs=app_dirs)
    spm = load(r.subsys.get("spm"))
    if spm is None:
        return {}
    out: dict[str, dict[str, Any]] = {t.name: {"deadline_ns": t.d} for t in spm.tasks}
    from partita.subsys.spm.bounds import bounds_for

    for name, b in bounds_for(spm).items():
        out.setdefault(name, {}).update(b)
    return out


def add_bounds(cfg: Path, out: Path, app_dirs: Sequence[str | Path] = ()) -> None:
    """Merge the SPM tasks' deadlines and bounds into OUT/bounds.json."""
    extra = spm_bounds(cfg, app_dirs)
    if not extra:
        return
    path = out / "bounds.json"
    doc: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    tasks = doc.setdefault("tasks", {})
    for name, b in extra.items():
        tasks.setdefault(name, {}).update(b)
    path.write_text(json.dumps(doc, indent=1) + "\n")


def summary(area: Area) -> dict[str, Any] | None:
    tl = decode(area)
    if not tl.present:
        return None
    cores = slot_stats(tl)
    return {
        "slots": len(tl.slots),
        "cores": {c: {"slots": s.slots, "loads": s.loads, "unloads": s.unloads,
                      "idle": s.idle, "wasted": s.wasted,
                      "utilization": round(s.utilization, 4),
                      "loads_per_partition": dict(s.part_loads)}
                  for c, s in sorted(cores.items())},
        "io": {"rx_packets": len(tl.rx), "tx_packets": len(tl.tx), "mirror_drops": tl.drops,
               "tx_bandwidth_bps": bandwidth_bps(tl)},
        "flows": flow_stats(tl),
        "invariant_violations": invariant_violations(tl),
    }


def flow_stats(tl: SpmTimeline) -> dict[int, dict[str, int]]:
    """Per flow id: packets received, mirror drops (arrivals a subscribed task lost), packets
    transmitted back."""
    out: dict[int, dict[str, int]] = {}
    for _t, flow, _b, _reached in tl.rx:
        out.setdefault(flow, {"rx": 0, "drops": 0, "tx": 0})["rx"] += 1
    for flow, n in tl.drops_by_flow.items():
        out.setdefault(flow, {"rx": 0, "drops": 0, "tx": 0})["drops"] = n
    for _t, _name, flow, _b in tl.tx:
        out.setdefault(flow, {"rx": 0, "drops": 0, "tx": 0})["tx"] += 1
    return dict(sorted(out.items()))


def render_extra(area: Area | None, out: Path | None = None) -> None:
    """Print the SPM section of the report (nothing if the trace has no SPM events)."""
    if area is None:
        return
    s = summary(area)
    if s is None:
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"SPM TDMA slots ({s['slots']} slots)", header_style="bold")
    for col in ("core", "slots", "loads", "unloads", "idle", "wasted", "utilization",
                "loads P0/P1"):
        t.add_column(col, justify="right")
    for c, cs in s["cores"].items():
        lp = cs["loads_per_partition"]
        t.add_row(str(c), str(cs["slots"]), str(cs["loads"]), str(cs["unloads"]),
                  str(cs["idle"]), str(cs["wasted"]), f"{cs['utilization'] * 100:.1f}%",
                  f"{lp.get(0, 0)}/{lp.get(1, 0)}")
    con = Console() if Console().is_terminal else Console(width=170)
    con.print(t)
    io = s["io"]
    con.print(f"I/O: rx {io['rx_packets']} packets, tx {io['tx_packets']} packets, mirror drops "
              f"{io['mirror_drops']}, delivered {io['tx_bandwidth_bps'] / 1e6:.2f} Mb/s")
    if s["flows"]:
        ft = Table(title="I/O flows", header_style="bold")
        for col in ("flow", "rx", "mirror drops", "tx"):
            ft.add_column(col, justify="right")
        for flow, f in s["flows"].items():
            ft.add_row(str(flow), str(f["rx"]),
                       (f"[red]{f['drops']}[/]" if f["drops"] else "0"), str(f["tx"]))
        con.print(ft)
    v = s["invariant_violations"]
    con.print("SPM protocol invariants: " + ("all hold" if not v else
                                              f"[red]{len(v)} violations[/], first: {v[0]}"))
    if out is not None:
        (out / "spm.json").write_text(json.dumps(s, indent=1, default=str) + "\n")
        from partita.subsys.spm.gantt import draw

        draw(decode(area), out / "spm_gantt.png")
        con.print(f"wrote {out / 'spm_gantt.png'}")
