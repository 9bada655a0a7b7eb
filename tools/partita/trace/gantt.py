"""Gantt chart of a run: one row per thread, execution colored by hart, one job mark per job
(release to completion, red when the job missed its deadline or was aborted), release arrows
and deadline-miss markers.

Every job and every execution slice is drawn at least MIN_MARK_PX pixels wide, so short jobs
never vanish between pixels. The window (`start_ms`, `window_ms`) and the size (`size_in`) are
options of `partita trace` and `partita run` (--gantt-start-ms, --gantt-ms, --gantt-size); the
format follows the file name: .png, .svg or .pdf (vector, for papers).

Uses matplotlib's object API only (no pyplot, no process-wide backend switch), so importing or
calling it in a notebook leaves the notebook's backend alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from partita.trace.format import Ev
from partita.trace.timeline import Timeline

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DEFAULT_WINDOW_MS = 200.0
DEFAULT_SIZE_IN = (14.0, 0.0)  # width; height 0 = from the number of threads
DPI = 110
MIN_MARK_PX = 1.5
FORMATS = ("png", "svg", "pdf")


def window(tl: Timeline, start_ms: float = 0.0, window_ms: float | None = None
           ) -> tuple[float, float]:
    """The [start, end) of the chart in ms: by default the first DEFAULT_WINDOW_MS of the run
    (0 = the whole run)."""
    end_ms = max(tl.end_ns / 1e6, 1e-3)
    start_ms = max(0.0, start_ms)
    if window_ms is None:
        window_ms = min(end_ms - start_ms, DEFAULT_WINDOW_MS)
    elif window_ms <= 0:
        window_ms = end_ms - start_ms
    return start_ms, start_ms + max(window_ms, 1e-3)


def write(tl: Timeline, path: str | Path, *, max_ms: float | None = None,
          start_ms: float = 0.0, size_in: tuple[float, float] = DEFAULT_SIZE_IN) -> None:
    """Draw the chart to `path` (.png, .svg or .pdf) for the window [start_ms, start_ms +
    max_ms) (default: the first DEFAULT_WINDOW_MS ms; max_ms 0 = to the end of the run)."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower() or "png"
    if fmt not in FORMATS:
        raise ValueError(f"{path}: Gantt format {fmt!r} is not one of {', '.join(FORMATS)}")
    fig = draw(tl, max_ms=max_ms, start_ms=start_ms, size_in=size_in)
    fig.savefig(path, format=fmt)


def draw(tl: Timeline, *, max_ms: float | None = None, start_ms: float = 0.0,
         size_in: tuple[float, float] = DEFAULT_SIZE_IN) -> Figure:
    """The chart as a matplotlib Figure (not attached to pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    lo, hi = window(tl, start_ms, max_ms)
    lo_ns, hi_ns = lo * 1e6, hi * 1e6
    tids = sorted({s.tid for s in tl.slices} | set(tl.jobs) | {t for t in tl.names if t})
    row = {tid: i for i, tid in enumerate(tids)}
    width_in = size_in[0] if size_in[0] > 0 else DEFAULT_SIZE_IN[0]
    height_in = size_in[1] if size_in[1] > 0 else max(2.5, 0.45 * len(tids) + 1.2)
    fig = Figure(figsize=(width_in, height_in), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    import matplotlib

    colors = matplotlib.colormaps["tab10"]
    # the plot area is about 85% of the figure: one pixel in ms
    px_ms = (hi - lo) / (0.85 * width_in * DPI)
    min_w = MIN_MARK_PX * px_ms

    def visible(a_ns: float, b_ns: float) -> bool:
        return b_ns >= lo_ns and a_ns <= hi_ns

    per: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for s in tl.slices:
        if s.tid in row and visible(s.start_ns, s.end_ns):
            per.setdefault((s.tid, s.cpu), []).append(
                (s.start_ns / 1e6, max((s.end_ns - s.start_ns) / 1e6, min_w)))
    for (tid, cpu), bars in per.items():
        ax.broken_barh(bars, (row[tid] - 0.3, 0.5), facecolors=colors(cpu % 10), linewidth=0)
    ok: dict[int, list[tuple[float, float]]] = {}
    bad: dict[int, list[tuple[float, float]]] = {}
    for tid, jobs in tl.jobs.items():
        if tid not in row:
            continue
        for j in jobs.values():
            if j.release_ns is None:
                continue
            end = j.complete_ns if j.complete_ns is not None else tl.end_ns
            if not visible(j.release_ns, end):
                continue
            mark = (j.release_ns / 1e6, max((end - j.release_ns) / 1e6, min_w))
            (bad if j.missed or j.budget_aborted else ok).setdefault(tid, []).append(mark)
    for marks, color, gid in ((ok, "0.35", "jobs"), (bad, "red", "missed_jobs")):
        for tid, bars in marks.items():
            ax.broken_barh(bars, (row[tid] + 0.22, 0.12), facecolors=color, linewidth=0,
                           gid=gid)
    rel = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
           if p.kind == Ev.RELEASE and p.tid in row and lo_ns <= p.ts_ns <= hi_ns]
    if rel:
        xs, ys = zip(*rel, strict=True)
        ax.scatter(xs, [y - 0.42 for y in ys], marker="^", s=10, color="black", zorder=3,
                   label="release")
    miss = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
            if p.kind == Ev.DEADLINE_MISS and p.tid in row and lo_ns <= p.ts_ns <= hi_ns]
    if miss:
        xs, ys = zip(*miss, strict=True)
        ax.scatter(xs, ys, marker="x", s=40, color="red", zorder=4, label="deadline miss")
    faults = [(p.ts_ns / 1e6, row[p.tid]) for p in tl.points
              if p.kind in (Ev.FAULT, Ev.THREAD_STOP) and p.tid in row
              and lo_ns <= p.ts_ns <= hi_ns]
    if faults:
        xs, ys = zip(*faults, strict=True)
        ax.scatter(xs, ys, marker="X", s=60, color="darkred", zorder=4,
                   label="fault / stop / budget abort")
    ax.set_yticks(range(len(tids)), [tl.name(t) for t in tids])
    ax.invert_yaxis()
    ax.set_xlabel("virtual time (ms)")
    ax.set_xlim(lo, hi)
    ax.grid(axis="x", alpha=0.3)
    handles = [Patch(color=colors(c % 10), label=f"hart {c}") for c in range(tl.ncpus)]
    handles += [Patch(color="0.35", label="job"), Patch(color="red", label="missed job")]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="upper right",
              fontsize=7, ncol=min(8, tl.ncpus + 5))
    end_ms = tl.end_ns / 1e6
    ax.set_title(f"Partita run: {len(tids)} threads on {tl.ncpus} harts, {lo:g}-{hi:g} of "
                 f"{end_ms:.1f} ms (window: --gantt-start-ms, --gantt-ms)")
    fig.tight_layout()
    return fig


def parse_size(text: str) -> tuple[float, float]:
    """'14x6' -> (14.0, 6.0) inches; '14' -> (14.0, 0.0) (height from the thread count)."""
    parts = text.lower().split("x")
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"--gantt-size {text!r}: expected WIDTHxHEIGHT in inches") from None
    if len(vals) not in (1, 2) or any(v <= 0 or v > 200 for v in vals):
        raise ValueError(f"--gantt-size {text!r}: expected WIDTHxHEIGHT in inches (0-200)")
    return (vals[0], vals[1] if len(vals) == 2 else 0.0)
