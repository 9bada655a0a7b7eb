"""The cache-model QEMU plugin (tools/cachesim) in a run: `partita run CFG --model cachesim`, or
any configuration with a `cache_model:` section. Builds the plugin when it is stale (`make
cachesim`: a local compile, no download), passes it the LLC geometry of `cache:` and the
section's parameters, and turns its output into OUT/cache_model.json: per thread and per job,
instructions, accesses, hits and misses per level, stall cycles and modeled cycles
(= instructions + stalls). Without the section the image does not say which thread runs, so
everything is counted per hart only (thread "all")."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from partita.config.errors import ConfigError
from partita.config.resolve import Resolved
from partita.subsys.cachemodel.config import CacheModelCfg, check_llc, parse

ROOT = Path(__file__).resolve().parents[4]
PLUGIN = ROOT / "build" / "cachesim" / "libcachesim.so"
RAW = "cachesim.raw.json"     # what the plugin writes
RESULT = "cache_model.json"   # per thread and job, with names
SECTION = "cache_model"
SPM_TID_BASE = 1000   # subsys/spm/spm_trace.h PT_SPM_TID_BASE
SPM_MAX_TASKS = 224   # subsys/spm/spm.h PT_SPM_MAX_TASKS (7 cores x 32)
OUTPUTS = (RAW, RESULT)
COUNTS = ("instructions", "ifetches", "loads", "stores", "l1i_hits", "l1i_misses", "l1d_hits",
          "l1d_misses", "llc_hits", "llc_misses", "l1_writebacks", "mem_writebacks",
          "stall_cycles", "bus_wait_cycles")


def ensure_plugin() -> Path:
    """build/cachesim/libcachesim.so, (re)built by make only when a source changed."""
    from partita.run.build import BuildError

    r = subprocess.run(["make", "-s", "-C", str(ROOT / "tools" / "cachesim"),
                        f"OUT={PLUGIN.parent}"], capture_output=True, text=True)
    if r.returncode != 0 or not PLUGIN.exists():
        raise BuildError(f"building the cache-model plugin failed:\n{r.stdout}{r.stderr}")
    return PLUGIN


def section_of(system: Resolved) -> tuple[CacheModelCfg, bool]:
    """The model's parameters and whether the image links subsys/cachemodel."""
    if SECTION not in system.subsys:
        return CacheModelCfg(), False
    section, problems = parse(system.subsys[SECTION])
    if section is None:
        raise ConfigError(system.source, problems)
    return section, True


def _q(path: Path) -> str:
    return str(path.resolve()).replace(",", ",,")  # QEMU's option syntax doubles commas


def qemu_args(system: Resolved, elf: Path, ram_file: Path, out: Path) -> list[str]:
    """The -plugin option for this run (raises ConfigError without an LLC geometry)."""
    from partita.run.qemu import RAM_BASE, symbol

    section, linked = section_of(system)
    c = system.cache
    problems = check_llc(section, c.size_bytes, c.line_bytes)
    if problems:
        raise ConfigError(system.source, problems)
    plugin = ensure_plugin()
    area = symbol(elf, "pt_cachemodel_area")[0] if linked else 0
    args: dict[str, Any] = {
        "out": _q(out / RAW), "ram": _q(ram_file), "ram_base": hex(RAM_BASE),
        "area": hex(area), "harts": system.ncpus,
        "llc_size": c.size_bytes, "llc_ways": c.ways, "line": c.line_bytes,
        "l1i_size": section.l1.size_bytes if section.l1 else 0,
        "l1i_ways": section.l1.ways if section.l1 else 1,
        "l1d_size": section.l1.size_bytes if section.l1 else 0,
        "l1d_ways": section.l1.ways if section.l1 else 1,
        "l1_hit": section.l1_hit_cycles, "llc_hit": section.llc_hit_cycles,
        "mem": section.mem_cycles, "bus": section.bus_cycles,
        "bus_window": section.bus_window_cycles,
    }
    if "spm" in system.subsys:
        # the SPM subsystem's scratchpad pool is on-chip SRAM in the model: one cycle per
        # access, no cache, no bus (docs/spm.md "Timing model"); its size is the symbol's
        lo, size = symbol(elf, "pt_spm_pool")
        args |= {"spm_lo": hex(lo), "spm_hi": hex(lo + size),
                 # an SPM task's record is its execution from the scratchpad only
                 # (subsys/spm/spm_trace.h PT_SPM_TID_BASE, spm.h PT_SPM_MAX_TASKS)
                 "spm_tid_lo": SPM_TID_BASE, "spm_tid_hi": SPM_TID_BASE + SPM_MAX_TASKS}
    if section.feedback:
        # the kernel's pay loop (subsys/cachemodel/cachemodel.c); the kernel runs at its
        # physical addresses, which the plugin compares
        args |= {"feedback": 1, "pay_begin": hex(symbol(elf, "pt_cachemodel_pay_begin")[0]),
                 "pay_end": hex(symbol(elf, "pt_cachemodel_pay_end")[0])}
    return ["-plugin", ",".join([_q(plugin), *(f"{k}={v}" for k, v in args.items())])]


def _add(into: dict[str, int], rec: Mapping[str, Any]) -> None:
    for k in COUNTS:
        into[k] = into.get(k, 0) + int(rec[k])


def _finish(c: dict[str, int]) -> dict[str, int]:
    c["accesses"] = c["ifetches"] + c["loads"] + c["stores"]
    c["modeled_cycles"] = c["instructions"] + c["stall_cycles"]
    return c


def summarise(raw: Mapping[str, Any], names: Mapping[int, str],
              wall_s: float | None = None) -> dict[str, Any]:
    """cache_model.json from the plugin's output: per thread (by name) its totals and its
    jobs (job numbers as in the trace: job k runs from the completion of job k - 1)."""
    threads: dict[str, dict[str, Any]] = {}
    per_thread = bool(raw["per_thread"])
    for rec in sorted(raw["records"], key=lambda r: (r["tid"], r["job"])):
        tid = int(rec["tid"])
        name = names.get(tid, "idle" if tid == 0 else f"tid{tid}") if per_thread else "all"
        t = threads.setdefault(name, {"tid": tid if per_thread else None, "total": {},
                                      "jobs": []})
        _add(t["total"], rec)
        if per_thread and tid != 0:
            job: dict[str, Any] = {"job": int(rec["job"])}
            _add(job, rec)  # type: ignore[arg-type]
            t["jobs"].append(_finish(job))  # type: ignore[arg-type]
    for t in threads.values():
        _finish(t["total"])
    return {"model": "cachesim", "params": raw["params"], "per_thread": per_thread,
            "host_cpu_s": raw["host_cpu_s"], "wall_s": wall_s,
            "ifetch_unmapped_insns": raw["ifetch_unmapped_insns"], "harts": raw["harts"],
            "stalls_fed_back": bool(raw.get("stalls_fed_back", False)), "threads": threads}


def collect(out: Path, names: Mapping[int, str], wall_s: float | None = None) -> dict[str, Any]:
    """Read OUT/cachesim.raw.json, write OUT/cache_model.json; returns it."""
    raw_file = out / RAW
    if not raw_file.exists():
        raise FileNotFoundError(f"{raw_file}: the cache-model plugin wrote no results (did "
                                "QEMU exit cleanly? see console.log)")
    doc = summarise(json.loads(raw_file.read_text()), names, wall_s)
    (out / RESULT).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def render(out: Path) -> None:
    """Print the per-thread table of OUT/cache_model.json (nothing if there is none)."""
    f = out / RESULT
    if not f.exists():
        return
    doc = json.loads(f.read_text())
    p = doc["params"]
    fed = "fed back to" if doc.get("stalls_fed_back") else "not fed back to"
    l1 = (f"L1 {p['l1d']['size_bytes'] // 1024} KiB {p['l1d']['ways']}-way I+D, "
          if p["l1d"]["size_bytes"] else "no L1, ")
    print(f"cache model: {l1}LLC {p['llc']['size_bytes'] // 1024} KiB {p['llc']['ways']}-way, "
          f"{p['llc']['line_bytes']} B lines; LLC hit {p['llc_hit_cycles']}, memory "
          f"{p['mem_cycles']}, bus {p['bus_cycles']} cycles (stalls {fed} guest "
          f"time; {out}/{RESULT})")
    print(f"  {'thread':<14}{'jobs':>6}{'instr':>13}{'L1D miss':>11}{'LLC hit':>10}"
          f"{'LLC miss':>10}{'stalls':>13}{'modeled':>13}{'max job':>12}")
    for name, t in doc["threads"].items():
        c = t["total"]
        mx = max((j["modeled_cycles"] for j in t["jobs"]), default=0)
        print(f"  {name:<14}{len(t['jobs']):>6}{c['instructions']:>13}{c['l1d_misses']:>11}"
              f"{c['llc_hits']:>10}{c['llc_misses']:>10}{c['stall_cycles']:>13}"
              f"{c['modeled_cycles']:>13}{mx:>12}")
    if not doc["per_thread"]:
        print("  (per hart only: add a cache_model: section to count per thread and job)")
