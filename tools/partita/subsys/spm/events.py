"""Decoding of the SPM / I/O trace events (SpmEv, IoEv: generated from
kernel/trace/trace_events.yaml) into a protocol timeline: slots, transfers, executions, jobs,
I/O."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from partita.trace.events import IoEv, SpmEv
from partita.trace.format import Area, Ev, name_from_args

TID_BASE = 1000
NO_PART = 0xFF


class IdleReason(IntEnum):
    nothing = 0
    no_partition = 1
    busy = 2


@dataclass
class Transfer:
    kind: str          # "load" | "unload"
    task: str
    core: int
    part: int
    slot: int
    begin_ns: int
    end_ns: int | None = None
    nbytes: int = 0
    job: int | None = None


@dataclass
class Exec:
    task: str
    core: int
    part: int
    job: int
    begin_ns: int
    end_ns: int | None = None
    hart: int = -1
    done_ns: int | None = None  # completion time the I/O core's Rule 2 uses (EXEC_END arg0)


@dataclass
class Slot:
    number: int
    core: int
    begin_ns: int
    action: str = "idle"  # load | unload | idle
    idle_reason: IdleReason | None = None


@dataclass
class SpmJob:
    task: str
    job: int
    release_ns: int | None = None
    load_end_ns: int | None = None
    exec_begin_ns: int | None = None
    exec_end_ns: int | None = None
    done_ns: int | None = None
    kernel_response_ns: int | None = None  # from PT_EV_COMPLETE: nominal release -> unload end

    @property
    def response_ns(self) -> int | None:
        if self.kernel_response_ns is not None:
            return self.kernel_response_ns
        if self.release_ns is None or self.done_ns is None:
            return None
        return self.done_ns - self.release_ns


@dataclass
class SpmTimeline:
    cps: int
    end_ns: int
    names: dict[int, str] = field(default_factory=dict)
    slots: list[Slot] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    execs: list[Exec] = field(default_factory=list)
    jobs: dict[str, dict[int, SpmJob]] = field(default_factory=lambda: defaultdict(dict))
    rx: list[tuple[int, int, int, int]] = field(default_factory=list)   # ns, flow, bytes, reached
    tx: list[tuple[int, str, int, int]] = field(default_factory=list)   # ns, task, flow, bytes
    drops: int = 0                                                      # lost arrivals
    drops_by_flow: dict[int, int] = field(default_factory=dict)
    drops_by_sub: dict[tuple[str, int], int] = field(default_factory=dict)  # (task, flow)
    mirror_in: list[tuple[int, str, int]] = field(default_factory=list)  # ns, task, entries
    mirror_out: list[tuple[int, str, int]] = field(default_factory=list)
    io_hart: int | None = None
    calib: dict[int, int] = field(default_factory=dict)  # 0 load, 1 unload, 2 setup: cycles
    phases: list[tuple[int, int]] = field(default_factory=list)  # (phase, origin ns)
    console: list[tuple[int, int, int, int]] = field(default_factory=list)  # ns, core, bytes, hart

    @property
    def present(self) -> bool:
        return bool(self.slots)

    def task_of(self, tid: int) -> str:
        return self.names.get(tid, f"spm{tid - TID_BASE}")


def decode(area: Area, recs: np.ndarray | None = None) -> SpmTimeline:
    recs = area.merged() if recs is None else recs
    cps = area.cycles_per_sec or 1_000_000_000
    scale = 1e9 / cps
    ts = [round(int(t) * scale) for t in recs["ts"].tolist()]
    tl = SpmTimeline(cps, max(ts) if ts else 0)
    open_xfer: Transfer | None = None
    open_exec: dict[int, Exec] = {}
    slot_no = -1
    for i, t in enumerate(ts):
        kind = int(recs["type"][i])
        hart = int(recs["cpu"][i])
        tid = int(recs["tid"][i])
        a0 = int(recs["arg0"][i])
        a1 = int(recs["arg1"][i])
        core, part = a0 >> 8, a0 & 0xFF
        if kind == Ev.THREAD_INFO and tid >= TID_BASE:
            tl.names[tid] = name_from_args(a0, a1)
            continue
        if tid >= TID_BASE and kind in (Ev.RELEASE, Ev.COMPLETE):
            name = tl.task_of(tid)
            j = tl.jobs[name].setdefault(a0, SpmJob(name, a0))
            if kind == Ev.RELEASE:
                j.release_ns = t
            else:
                j.kernel_response_ns = round(a1 * scale)
            continue
        ev: SpmEv | IoEv
        if kind in SpmEv._value2member_map_:
            ev = SpmEv(kind)
        elif kind in IoEv._value2member_map_:
            ev = IoEv(kind)
        else:
            continue
        name = tl.task_of(tid) if tid >= TID_BASE else ""
        if ev == SpmEv.SLOT:
            slot_no = a1
            tl.io_hart = hart
            tl.slots.append(Slot(a1, core, t))
        elif ev == SpmEv.IDLE_SLOT:
            if tl.slots:
                tl.slots[-1].idle_reason = IdleReason(a1)
        elif ev in (SpmEv.LOAD_BEGIN, SpmEv.UNLOAD_BEGIN):
            k = "load" if ev == SpmEv.LOAD_BEGIN else "unload"
            open_xfer = Transfer(k, name, core, part, slot_no, t, nbytes=a1)
            tl.transfers.append(open_xfer)
            if tl.slots:
                tl.slots[-1].action = k
        elif ev in (SpmEv.LOAD_END, SpmEv.UNLOAD_END):
            if open_xfer is not None:
                open_xfer.end_ns = t
                open_xfer.job = a1
                open_xfer = None
            j = tl.jobs[name].setdefault(a1, SpmJob(name, a1))
            if ev == SpmEv.LOAD_END:
                j.load_end_ns = t
            else:
                j.done_ns = t
        elif ev == SpmEv.EXEC_BEGIN:
            e = Exec(name, core, part, a1, t, hart=hart)
            open_exec[hart] = e
            tl.execs.append(e)
            tl.jobs[name].setdefault(a1, SpmJob(name, a1)).exec_begin_ns = t
        elif ev == SpmEv.EXEC_END:
            core, part = (a0 >> 8) & 0xFF, a0 & 0xFF
            e = open_exec.pop(hart, None)
            if e is not None:
                e.end_ns = t
                if a0 >> 16:
                    e.done_ns = round((a0 >> 16) * scale)
            tl.jobs[name].setdefault(a1, SpmJob(name, a1)).exec_end_ns = t
        elif ev == SpmEv.PHASE:
            tl.phases.append((a0, round(a1 * scale)))
        elif ev == SpmEv.CALIB:
            tl.calib[a0] = a1
        elif ev == IoEv.RX:
            tl.rx.append((t, a0, a1, tid))
        elif ev == IoEv.TX:
            tl.tx.append((t, name, a0, a1))
        elif ev == IoEv.DROP:
            # one event per subscription that lost an arrival; arg1 = its running count
            tl.drops += 1
            tl.drops_by_flow[a0] = tl.drops_by_flow.get(a0, 0) + 1
            tl.drops_by_sub[(name, a0)] = a1
        elif ev == IoEv.MIRROR_IN:
            tl.mirror_in.append((t, name, a1))
        elif ev == IoEv.MIRROR_OUT:
            tl.mirror_out.append((t, name, a1))
        elif ev == IoEv.CONSOLE:
            tl.console.append((t, core, a1, hart))
    return tl
