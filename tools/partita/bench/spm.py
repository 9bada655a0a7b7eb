"""Table IV of the SPM paper (Tabish et al., RTAS 2016) on this platform, part of `partita bench`.

Boots apps/bench/configs/bench-spm.yaml (two application cores and the I/O core, icount shift 0,
the cache model loaded with feedback off, so guest time is as without it) and writes
OUT/spm.json and OUT/spm.md:

- partition load / unload: the I/O core's calibration copy of a whole 32 KiB partition (trace
  CALIB, subsys/io/io_core.c calibrate()) and every load and unload of the run (trace
  LOAD_BEGIN -> LOAD_END: programming the transfer, the copy, the completion step), in guest
  cycles and µs, beside the cache model's modeled cycles of the same copy (pseudo-threads
  998 dma_load / 999 dma_unload of cache_model.json: one record per transfer, the first is
  the calibration);
- DMA setup: the cycles of `pt_dma_submit` (CALIB);
- context switch on an application core: from the end of one job (EXEC_END) to the start of
  the next, already loaded, job on the same hart (EXEC_BEGIN): the service loop's completion,
  pick, i-cache sync and call, trace records included;
- the execution of the two tasks' jobs from the scratchpad: instructions vs modeled cycles.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from partita.run.build import ROOT

CONFIG = ROOT / "apps" / "bench" / "configs" / "bench-spm.yaml"
TID_DMA = {"load": 998, "unload": 999}  # subsys/io/io_core.c PT_IO_TID_DMA_{LOAD,UNLOAD}
PAPER = {"load": 432.0, "unload": 432.0, "setup": 3.16, "switch": 0.46}  # µs, [paper Table IV]


class SpmBenchError(RuntimeError):
    pass


def _stat(v: Sequence[int]) -> dict[str, float]:
    if not v:
        return {"n": 0}
    return {"n": len(v), "min": min(v), "median": statistics.median(v), "max": max(v)}


def _thread_jobs(cm: dict[str, Any], tid: int) -> list[dict[str, Any]]:
    for t in cm["threads"].values():
        if t.get("tid") == tid:
            return sorted(t["jobs"], key=lambda j: j["job"])
    return []


def measure(out: Path) -> dict[str, Any]:
    """Boot the benchmark into OUT/bench-spm and reduce it to the Table IV figures."""
    from partita.run.run import run_config
    from partita.subsys.spm.events import decode

    run_dir = out / "bench-spm"
    r = run_config(CONFIG, run_dir, png=False, bounds=False)
    if not r.ok or r.area is None:
        raise SpmBenchError(f"bench-spm: the run failed: {r.describe()}")
    tl = decode(r.area)
    cm_file = run_dir / "cache_model.json"
    if not cm_file.exists():
        raise SpmBenchError(f"bench-spm: no {cm_file} (the cache model did not run)")
    cm = json.loads(cm_file.read_text())
    if any(k not in tl.calib for k in (0, 1, 2, 3)):
        raise SpmBenchError("bench-spm: the trace has no calibration (CALIB) events")
    doc: dict[str, Any] = {
        "config": str(CONFIG.relative_to(ROOT)), "cycles_per_sec": 1_000_000_000,
        "icount_shift": 0, "cache_model": cm["params"] if "params" in cm else cm.get("model"),
        "calibration": {"bytes": tl.calib[3], "load_cycles": tl.calib[0],
                        "unload_cycles": tl.calib[1], "dma_setup_cycles": tl.calib[2]},
    }
    for kind in ("load", "unload"):
        jobs = _thread_jobs(cm, TID_DMA[kind])
        if not jobs:
            raise SpmBenchError(f"bench-spm: cache_model.json has no dma_{kind} records")
        doc["calibration"][f"{kind}_modeled_cycles"] = jobs[0]["modeled_cycles"]
        xs = sorted((x for x in tl.transfers if x.kind == kind and x.end_ns is not None),
                    key=lambda x: x.begin_ns)
        # record k + 1 (after the calibration's) is the k-th transfer of this kind; the last
        # record may be a transfer in flight at power-off
        modeled = [j["modeled_cycles"] for j in jobs[1:1 + len(xs)]]
        big = max((x.nbytes for x in xs), default=0)
        full = [i for i, x in enumerate(xs) if x.nbytes == big]
        doc[kind] = {"bytes": big,
                     "cycles": _stat([xs[i].end_ns - xs[i].begin_ns for i in full]),
                     "modeled_cycles": _stat([modeled[i] for i in full if i < len(modeled)])}
    switches = []
    execs = sorted((e for e in tl.execs if e.end_ns is not None), key=lambda e: e.begin_ns)
    by_hart: dict[int, list[Any]] = {}
    for e in execs:
        by_hart.setdefault(e.hart, []).append(e)
    for seq in by_hart.values():
        for a, b in zip(seq, seq[1:], strict=False):
            nxt = tl.jobs[b.task].get(b.job)
            # back to back: the next job was loaded before this one ended
            if nxt is not None and nxt.load_end_ns is not None and a.end_ns is not None \
                    and nxt.load_end_ns <= a.end_ns:
                switches.append(b.begin_ns - a.end_ns)
    if not switches:
        raise SpmBenchError("bench-spm: no back-to-back switch happened on an application core")
    doc["switch"] = {"cycles": _stat(switches)}
    doc["execution"] = {}
    for name in ("first", "second"):
        t = cm["threads"].get(name)
        if t:
            steady = t["jobs"][1:-1] or t["jobs"]
            doc["execution"][name] = {
                "instructions": _stat([j["instructions"] for j in steady]),
                "modeled_cycles": _stat([j["modeled_cycles"] for j in steady])}
    return doc


def _us(c: float) -> str:
    return f"{c / 1000:,.2f}"


def _span(s: dict[str, float], key: str = "median") -> str:
    if not s.get("n"):
        return "–"
    lo, hi = s["min"], s["max"]
    rng = f"{lo:,.0f}" if lo == hi else f"{lo:,.0f}–{hi:,.0f}"
    return f"{s[key]:,.0f} ({rng})"


def markdown(doc: dict[str, Any]) -> str:
    c = doc["calibration"]
    kib = c["bytes"] / 1024
    rows = [
        "| parameter | guest cycles | µs | cache model: modeled cycles | µs | paper, MPC5777M "
        "[paper Table IV] |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        f"| partition load, {kib:.0f} KiB (calibration copy) | {c['load_cycles']:,} | "
        f"{_us(c['load_cycles'])} | {c['load_modeled_cycles']:,} | "
        f"{_us(c['load_modeled_cycles'])} | {PAPER['load']} µs |",
        f"| partition unload, {kib:.0f} KiB (calibration copy) | {c['unload_cycles']:,} | "
        f"{_us(c['unload_cycles'])} | {c['unload_modeled_cycles']:,} | "
        f"{_us(c['unload_modeled_cycles'])} | {PAPER['unload']} µs |",
    ]
    for kind in ("load", "unload"):
        d = doc[kind]
        cy, mo = d["cycles"], d["modeled_cycles"]
        rows.append(f"| {kind} in the run, {d['bytes']:,} bytes, n = {cy['n']}: median (range) "
                    f"| {_span(cy)} | {_us(cy['median'])} | {_span(mo)} | "
                    f"{_us(mo['median']) if mo.get('n') else '–'} | |")
    rows.append(f"| DMA setup (`pt_dma_submit`) | {c['dma_setup_cycles']:,} | "
                f"{_us(c['dma_setup_cycles'])} | | | {PAPER['setup']} µs |")
    sw = doc["switch"]["cycles"]
    rows.append(f"| context switch, back to back on an application core, n = {sw['n']}: "
                f"median (range) | {_span(sw)} | {_us(sw['median'])} (min {_us(sw['min'])}) | "
                f"| | {PAPER['switch']} µs |")
    ex = doc["execution"]
    notes = "; ".join(
        f"`{n}` {_span(e['instructions'])} instructions, {_span(e['modeled_cycles'])} modeled "
        f"cycles" for n, e in ex.items())
    return ("\n".join(rows) + "\n\n"
            f"`{doc['config']}`, icount shift 0 (1 cycle = 1 instruction = 1 ns of virtual "
            "time). Guest cycles are virtual time on the I/O core (copies, setup) or the "
            "application hart (switch); the software DMA is the I/O core copying 8 bytes per "
            "loop iteration, so its cycles are instructions. The cache model's column is the "
            "same copy's instructions plus the stalls of the modeled hierarchy (L1 32 KiB "
            "8-way per hart, LLC 256 KiB 4-way, LLC hit 30, memory 200, bus 20 cycles; "
            "feedback off; the scratchpad pool is on-chip SRAM: no stall, no cache, no bus): "
            "what the copy costs when the I/O core's loads of main memory go through caches "
            "to DRAM and its stores go to the scratchpad. A run's transfer includes "
            "programming it and the I/O core's completion step. The switch runs from a job's "
            "EXEC_END trace record to the "
            "next loaded job's EXEC_BEGIN on the same hart (completion under the core lock, "
            "pick, i-cache sync, call; two trace records); its range includes turns QEMU gives "
            "the I/O core meanwhile. Per job from the scratchpad (steady state): "
            f"{notes}.\n")


def run(out: Path) -> tuple[dict[str, Any], str]:
    """Measure; write OUT/spm.json and OUT/spm.md; return the document and the table."""
    out.mkdir(parents=True, exist_ok=True)
    doc = measure(out)
    md = markdown(doc)
    doc["markdown"] = md
    (out / "spm.json").write_text(json.dumps(doc, indent=1) + "\n")
    (out / "spm.md").write_text("# Table IV on Partita / qemu-virt (`make bench`)\n\n" + md)
    return doc, md
