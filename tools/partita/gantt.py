"""Gantt chart of a run: one row per thread, execution colored by hart, release arrows and
deadline-miss markers."""

from __future__ import annotations

from pathlib import Path

from partita.timeline import Timeline
from partita.tracefmt import Ev

DEFAULT_WINDOW_MS = 200.0


def write(tl: Timeline, path: str | Path, *, max_ms: float | None = None) -> None:
    """Draw the Gantt chart to `path` (PNG). The time axis shows the first `max_ms`
    milliseconds (default: the whole run, at most DEFAULT_WINDOW_MS; 0 = whole run)."""
    end_ms = max(tl.end_ns / 1e6, 1e-3)
    if max_ms is None:
        max_ms = min(end_ms, DEFAULT_WINDOW_MS)
    elif max_ms <= 0:
        max_ms = end_ms
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    tids = sorted({s.tid for s in tl.slices} | set(tl.jobs) | {t for t in tl.names if t})
    row = {tid: i for i, tid in enumerate(tids)}
    colors = plt.get_cmap("tab10")
    fig_h = max(2.5, 0.45 * len(tids) + 1.2)
    fig, ax = plt.subplots(figsize=(14, fig_h), dpi=110)
    per: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for s in tl.slices:
        if s.tid in row:
            per.setdefault((s.tid, s.cpu), []).append(
                (s.start_ns / 1e6, max((s.end_ns - s.start_ns) / 1e6, 1e-4)))
    for (tid, cpu), bars in per.items():
        ax.broken_barh(bars, (row[tid] - 0.35, 0.7), facecolors=colors(cpu % 10), linewidth=0)
    rel = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
           if p.kind == Ev.RELEASE and p.tid in row]
    if rel:
        xs, ys = zip(*rel, strict=True)
        ax.scatter(xs, [y - 0.42 for y in ys], marker="^", s=10, color="black", zorder=3,
                   label="release")
    miss = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
            if p.kind == Ev.DEADLINE_MISS and p.tid in row]
    if miss:
        xs, ys = zip(*miss, strict=True)
        ax.scatter(xs, ys, marker="x", s=40, color="red", zorder=4, label="deadline miss")
    faults = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
              if p.kind in (Ev.FAULT, Ev.THREAD_STOP) and p.tid in row]
    if faults:
        xs, ys = zip(*faults, strict=True)
        ax.scatter(xs, ys, marker="X", s=60, color="darkred", zorder=4, label="fault / stop")
    ax.set_yticks(range(len(tids)), [tl.name(t) for t in tids])
    ax.invert_yaxis()
    ax.set_xlabel("virtual time (ms)")
    ax.set_xlim(0, max_ms)
    ax.grid(axis="x", alpha=0.3)
    handles = [Patch(color=colors(c % 10), label=f"hart {c}") for c in range(tl.ncpus)]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="upper right",
              fontsize=7, ncol=min(8, tl.ncpus + 3))
    ax.set_title(f"Partita run: {len(tids)} threads on {tl.ncpus} harts, "
                 f"first {max_ms:g} of {end_ms:.1f} ms")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
