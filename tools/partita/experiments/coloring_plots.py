"""Figures 10-12 of seed 001 from `partita experiment coloring`'s rows (matplotlib PNG):
fig10.png WCET (a) and average (b) scaling factors, fig11.png share of tasks missing a
deadline (the paper's numbers from its text as hollow markers), fig12.png total execution
time at the paper's scale."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from partita.experiments import coloring_sets as cs

STYLE = {"G-EDF": ("tab:blue", "o"), "P-EDF": ("tab:orange", "s")}


def _get(rows: Sequence[Any], sched: str, scen: str, attr: str) -> list[float]:
    return [getattr(r, attr) for r in rows if r.scheduler == sched and r.scenario == scen]


def plot_all(out: Path, rows: Sequence[Any], p: cs.Params, seed: int, sets: int) -> None:
    # the object-oriented API: no pyplot state, no process-wide backend switch
    from matplotlib.figure import Figure

    from partita.experiments.coloring import PAPER_FIG11, PAPER_WSS

    wss = list(p.wss_kib)
    x = list(range(len(wss)))
    note = (f"{sets} set(s)/scheduler, seed {seed}, {p.cpus} harts, LLC "
            f"{p.llc_bytes >> 10} KiB {p.llc_ways}-way, periods / {p.time_div}")

    fig = Figure(figsize=(10, 3.8))
    for ax, attr, title in zip(fig.subplots(1, 2), ("wcet_scaling", "avg_scaling"),
                               ("(a) WCET scaling factor", "(b) AVG scaling factor"),
                               strict=True):
        for sched in cs.SCHEDULERS:
            color, mk = STYLE[sched]
            for scen, ls in (("S2", ":"), ("S3", "-")):
                ax.plot(x, _get(rows, sched, scen, attr), ls=ls, marker=mk, color=color,
                        label=f"{sched} {scen}/S1")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xticks(x, [f"{w} KiB" for w in wss])
        ax.set_xlabel("working-set size")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    fig.axes[0].set_ylabel("scaling factor")
    fig.axes[0].legend(fontsize=8)
    fig.suptitle(f"Fig. 10 (cache model): {note}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "fig10.png", dpi=80)

    fig = Figure(figsize=(6.5, 4))
    ax = fig.subplots()
    width = 0.2
    for k, (sched, scen) in enumerate([(s, sc) for sc in ("S1", "S3") for s in cs.SCHEDULERS]):
        color, _ = STYLE[sched]
        xs = [i + (k - 1.5) * width for i in x]
        ax.bar(xs, _get(rows, sched, scen, "missed_pct"), width, color=color,
               alpha=1.0 if scen == "S3" else 0.45, label=f"{sched} {scen}")
        paper = PAPER_FIG11[(sched, scen)]
        pts = [(xx, paper[PAPER_WSS.index(w)]) for xx, w in zip(xs, wss, strict=True)
               if w in PAPER_WSS and paper[PAPER_WSS.index(w)] is not None]
        if pts:
            ax.plot([a for a, _ in pts], [b for _, b in pts], ls="none", marker="D", mfc="none",
                    color="black", ms=5, label="paper (text)" if k == 0 else None)
    ax.set_xticks(x, [f"{w} KiB" for w in wss])
    ax.set_ylabel("% of tasks missing a deadline")
    ax.set_ylim(0, 125)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7, ncol=3, loc="upper left")
    ax.set_title(f"Fig. 11 (re-simulated with modeled job costs)\n{note}", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "fig11.png", dpi=80)

    fig = Figure(figsize=(6.5, 4))
    ax = fig.subplots()
    for sched in cs.SCHEDULERS:
        color, mk = STYLE[sched]
        for scen, ls in (("S1", "--"), ("S3", "-")):
            ax.plot(x, _get(rows, sched, scen, "total_s"), ls=ls, marker=mk, color=color,
                    label=f"{sched} {scen}")
        ax.plot(x, _get(rows, sched, "S1", "nominal_s"), ls=":", color=color, lw=0.8,
                label=f"{sched} nominal")
    ax.set_xticks(x, [f"{w} KiB" for w in wss])
    ax.set_ylabel("total execution time (s, paper scale)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"Fig. 12 (re-simulated)\n{note}", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "fig12.png", dpi=80)
