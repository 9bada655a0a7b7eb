"""`dataflow` (part 2): the system speed-up when the RTOS slot shrinks (the paper's Table 1).

The RTOS slot of the two-level TDM wheel must be as long as the RTOS's worst case (WCET) so
that applications stay composable. Sized to the bitmap task-status manager's WCET instead of
the software scan's, it shrinks by W_scan - W_bitmap and that time goes to the application.
For an RTOS:application ratio r:(1-r) with the slot sized to the scan's WCET, the period
stays, and the paper's gain (Table 1, its Sect. 6.3) is the share of the period given back,

    gain = r (1 - W_bitmap / W_scan),

e.g. 10 % and a 3.0x reduction: 6.6 %. The application's own throughput grows by
gain / (1 - r) (its time was 1 - r of the period): both are reported.

W comes from measured runs: the synthetic applications of part 1 (StS: 10 tasks, 2..10
FIFOs per task; DyS: 2..10 tasks x 2..10 FIFOs per task) and the two decoders (apps/dataflow/
configs/df_jpeg.yaml, df_h264.yaml: 3 tasks on 2 cpus, 6 tasks on 2 cpus) under StS and DyS,
the worst RTOS_SLOT cost over both cpus. (Booting the decoders on such short wheels
themselves - a period of ~9,000 cycles at 10:90 - does not measure this gain: a firing of
~30,000 cycles spans many slots, and the slot in which it ends idles after it, so the decoded
units per cycle move by more than the gain; docs/dataflow.md.)
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = ROOT / "apps" / "dataflow" / "configs"
DECODERS = {"jpeg": ("df_jpeg", "cc"), "h264": ("df_h264", "output")}
RATIOS = (0.10, 0.20)
PAPER_TABLE1 = {  # the paper's Table 1: (10:90, 20:80), ranges as (low, high) %
    "sts": ((0.9, 4.5), (1.8, 8.9)), "dys": ((0.9, 6.6), (1.8, 13.3)),
    "jpeg": ((2.3, 2.3), (4.6, 4.6)), "h264": ((3.8, 3.8), (7.5, 7.5))}
PAPER_REDUCTION = {"jpeg": 1.3, "h264": 1.6}
SKIP_DECISIONS = 4     # boot and the round in which actors bind


def decoder_config(dec: str, mode: str, tsm: str) -> dict[str, Any]:
    """The decoder's configuration with every application's mode and the TSM set. tsm
    `coproc`: the bitmap TSM on a coprocessor (service dftsm) on one more hart."""
    base, _ = DECODERS[dec]
    doc: dict[str, Any] = yaml.safe_load((CONFIGS / f"{base}.yaml").read_text())
    for s in doc["schedulers"]:
        for a in s["tdm"]["apps"]:
            a["mode"] = mode
    doc["dataflow"]["tsm"] = tsm
    if tsm == "coproc":
        cpu = int(doc["ncpus"])
        doc["ncpus"] = cpu + 1
        doc["cpus"] = [*doc.get("cpus", []), {"id": cpu, "role": "coproc"}]
        doc["coproc"] = [{"name": "tsmcp", "service": "dftsm", "backend": "hart", "cpu": cpu,
                          "clients": [g["name"] for g in doc["dataflow"]["graphs"]]}]
        doc["dataflow"]["coproc"] = "tsmcp"
    doc["name"] = f"{base}_{mode}_{tsm}"
    return doc


def boot_decoder(item: tuple[str, str, str], out: Path) -> dict[str, Any]:
    """item = (decoder, mode, tsm): one boot; its RTOS decisions' costs per cpu (cycles) and
    its last actor's firings."""
    from partita.run.run import run_config
    from partita.trace.events import DataflowEv

    dec, mode, tsm = item
    doc = decoder_config(dec, mode, tsm)
    cfg = out / "configs" / f"{doc['name']}.yaml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(yaml.safe_dump(doc, sort_keys=False, width=200))
    tmp = Path(tempfile.mkdtemp(prefix="dataflow-dec-"))
    try:
        try:
            r = run_config(cfg, tmp, png=False, bounds=False)
        except Exception as e:  # a picklable error for the worker pool
            raise RuntimeError(f"{cfg}: {type(e).__name__}: {e}") from None
        if not r.ok or r.area is None or r.timeline is None:
            raise RuntimeError(f"{cfg}: {r.describe()}")
        errors = [ln for ln in (tmp / "print.log").read_text().splitlines()
                  if "df: error" in ln]
        if errors:
            raise RuntimeError(f"{cfg}: {errors[0]}")
        last = r.timeline.tid_of(DECODERS[dec][1])
        costs: dict[int, list[int]] = {}
        fires = 0
        for ring in r.area.rings:
            recs = ring.records
            dec_recs = recs[recs["type"] == DataflowEv.RTOS_SLOT]
            costs[ring.cpu] = [int(x["arg0"]) & 0xffffffff for x in dec_recs[SKIP_DECISIONS:]]
            fires += int(((recs["type"] == DataflowEv.FIRE) & (recs["tid"] == last)).sum())
        return {"dec": dec, "mode": mode, "tsm": tsm, "costs": costs, "units": fires}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


TSMS = ("scan", "bitmap", "coproc")


def wcet_items() -> list[tuple[str, str, str]]:
    return [(d, m, t) for d in DECODERS for m in ("sts", "dys") for t in TSMS]


def decoder_wcets(res: list[dict[str, Any]]) -> dict[tuple[str, str, str], int]:
    """(dec, mode, tsm) -> the worst RTOS decision over both cpus."""
    return {(r["dec"], r["mode"], r["tsm"]): max(max(c) for c in r["costs"].values() if c)
            for r in res}


def decoder_rows(res: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """decoders.csv: per decoder, mode, TSM and cpu, the RTOS decisions' worst / best / mean
    cost (cycles) and the units decoded in the run."""
    out = []
    for r in res:
        for cpu, c in sorted(r["costs"].items()):
            if not c:  # the coprocessor's hart takes no RTOS decision
                continue
            out.append({"decoder": r["dec"], "mode": r["mode"], "tsm": r["tsm"], "cpu": cpu,
                        "decisions": len(c), "worst_cycles": max(c), "min_cycles": min(c),
                        "mean_cycles": round(sum(c) / len(c), 1), "units": r["units"]})
    return out


def gains(ws: float, wb: float) -> dict[str, float]:
    """The paper's gain (share of the period given back) and the application's throughput
    gain, in %, for each ratio."""
    out: dict[str, float] = {"reduction": round(ws / wb, 3)}
    for r in RATIOS:
        g = r * (1 - wb / ws)
        out[f"gain_{round(100 * r)}_pct"] = round(100 * g, 2)
        out[f"throughput_gain_{round(100 * r)}_pct"] = round(100 * g / (1 - r), 2)
    return out


def table(rows: list[dict[str, Any]], w: dict[tuple[str, str, str], int]
          ) -> list[dict[str, Any]]:
    """speedup.csv: one row per application (synthetic points of part 1, decoders) and
    faster TSM (`tsm`: bitmap inline, or coproc: the bitmap on a coprocessor hart): the
    WCETs with scan and with it, the reduction and the gains."""
    out = []
    for pol in ("sts", "dys"):
        scan = {(r["tasks"], r["fifos_per_task"]): r["worst_cycles"] for r in rows
                if r["policy"] == pol and r["tsm"] == "scan"}
        for fast, label in (("bitmap", ""), ("coproc", " (coproc TSM)")):
            bm = {(r["tasks"], r["fifos_per_task"]): r["worst_cycles"] for r in rows
                  if r["policy"] == pol and r["tsm"] == fast}
            for key in sorted(scan):
                if key in bm:
                    out.append({"application": f"synthetic {pol}{label}", "mode": pol,
                                "tasks": key[0], "fifos_per_task": key[1],
                                "tsm": fast, "wcet_scan": scan[key], "wcet_tsm": bm[key],
                                **gains(scan[key], bm[key])})
    for d in DECODERS:
        for m in ("sts", "dys"):
            ws, wb = w[(d, m, "scan")], w[(d, m, "bitmap")]
            out.append({"application": d, "mode": m, "tasks": 3 if d == "jpeg" else 6,
                        "fifos_per_task": "", "tsm": "bitmap", "wcet_scan": ws, "wcet_tsm": wb,
                        **gains(ws, wb)})
            if (d, m, "coproc") in w:  # the same with the TSM on the coprocessor hart
                wc = w[(d, m, "coproc")]
                out.append({"application": f"{d} (coproc TSM)", "mode": m,
                            "tasks": 3 if d == "jpeg" else 6, "fifos_per_task": "",
                            "tsm": "coproc", "wcet_scan": ws, "wcet_tsm": wc,
                            **gains(ws, wc)})
    return out


def plot(out: Path, tab: list[dict[str, Any]]) -> None:
    """speedup.png: the gain per application at both ratios, with the paper's Table 1."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 3.8))
    ax = fig.subplots()
    groups = [("StS", [r for r in tab if r["application"] == "synthetic sts"], "sts"),
              ("DyS", [r for r in tab if r["application"] == "synthetic dys"], "dys"),
              ("JPEG", [r for r in tab if r["application"] == "jpeg" and r["mode"] == "dys"],
               "jpeg"),
              ("H.264", [r for r in tab if r["application"] == "h264" and r["mode"] == "dys"],
               "h264")]
    for gi, (_label, rs, key) in enumerate(groups):
        for ri, r in enumerate(RATIOS):
            col = f"gain_{round(100 * r)}_pct"
            vals = [x[col] for x in rs]
            x = gi * 3 + ri
            lo, hi = min(vals), max(vals)
            ax.bar(x - 0.15, max(hi - lo, 0.15), 0.3, lo, color=f"C{ri}",
                   label=f"Partita {round(100 * r)}:{round(100 - 100 * r)}" if gi == 0 else None)
            plo, phi = PAPER_TABLE1[key][ri]
            ax.bar(x + 0.15, max(phi - plo, 0.15), 0.3, plo, color="grey",
                   label="paper (Table 1)" if gi == 0 and ri == 0 else None)
    ax.set_xticks([gi * 3 + 0.5 for gi in range(4)], [g[0] for g in groups])
    ax.set_ylim(bottom=0)
    ax.set_ylabel("gain, % of the period")
    ax.set_title("system speed-up with the RTOS slot sized to the bitmap TSM's WCET")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "speedup.png", dpi=80)
