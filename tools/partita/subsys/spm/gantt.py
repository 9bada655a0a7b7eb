"""SPM Gantt chart: per application core its execution lane and one lane per scratchpad
partition (loads, residency, unloads), plus the I/O core's TDMA slots coloured by owner."""

from __future__ import annotations

from pathlib import Path

from partita.subsys.spm.events import SpmTimeline


def draw(tl: SpmTimeline, path: Path, window_ms: float = 20.0) -> Path:
    # the object-oriented API: no pyplot state, no process-wide backend switch
    from matplotlib.figure import Figure

    t0 = tl.slots[0].begin_ns if tl.slots else 0
    t1 = t0 + window_ms * 1e6
    ncores = max((s.core for s in tl.slots), default=0) + 1
    lanes: list[str] = ["TDMA slots"]
    for c in range(ncores):
        lanes += [f"core {c} exec", f"core {c} P0", f"core {c} P1"]
    y = {name: len(lanes) - 1 - i for i, name in enumerate(lanes)}
    fig = Figure(figsize=(14, 0.45 * len(lanes) + 1.2))
    ax = fig.subplots()
    us = 1e-3
    palette = ["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#64b5cd", "#8c8c8c"]

    def bar(lane: str, a: float, b: float, color: str, label: str | None = None) -> None:
        if b < t0 or a > t1:
            return
        ax.broken_barh([((a - t0) * us, max((b - a) * us, 0.5))], (y[lane] - 0.4, 0.8),
                       facecolors=color, edgecolor="none")
        if label and (b - a) * us > window_ms * 20:
            ax.text(((a + b) / 2 - t0) * us, y[lane], label, ha="center", va="center",
                    fontsize=6)

    for i, s in enumerate(tl.slots):
        end = tl.slots[i + 1].begin_ns if i + 1 < len(tl.slots) else s.begin_ns
        shade = palette[s.core % len(palette)] if s.action != "idle" else "#dddddd"
        bar("TDMA slots", s.begin_ns, end, shade)
    for x in tl.transfers:
        if x.end_ns is None:
            continue
        color = "#1f77b4" if x.kind == "load" else "#ff7f0e"
        bar(f"core {x.core} P{x.part}", x.begin_ns, x.end_ns + 20_000, color)
    loads = {}
    for x in sorted(tl.transfers, key=lambda x: x.begin_ns):
        key = (x.core, x.part)
        if x.kind == "load":
            loads[key] = x
        elif key in loads and loads[key].end_ns is not None:
            bar(f"core {x.core} P{x.part}", loads[key].end_ns, x.begin_ns, "#e8eef6", x.task)
    for i, e in enumerate(tl.execs):
        if e.end_ns is not None:
            bar(f"core {e.core} exec", e.begin_ns, e.end_ns,
                palette[hash(e.task) % len(palette)], e.task)
        del i
    ax.set_yticks(list(y.values()), list(y.keys()))
    ax.set_xlim(0, window_ms * 1e3)
    ax.set_xlabel("µs from the first slot (virtual time); blue = load, orange = unload, "
                  "light = resident; slots coloured by owner core, grey = idle")
    ax.set_title("SPM: TDMA slots, partition loads/unloads, executions")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path
