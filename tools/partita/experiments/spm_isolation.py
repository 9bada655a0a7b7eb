"""`spm-isolation`: the SPM paper's Figs. 5 and 6 (Tabish et al., RTAS 2016, §VII-A) on the
cache model (docs/spm.md "Isolation").

The same automotive kernels (apps/automotive) run once from the scratchpad (an SPM task whose
image, data and stack are in its partition; brief 0) and once from main memory (a kernel thread
of the fixed-priority scheduler), alone and with 1, 2, 3 contending harts that each hammer a
private 512 KiB buffer (apps/spmiso/hammer.c). Per run the cache model (feedback off: guest
time is as without it) gives the modeled cycles of every job of the kernel; the figure is the
median over the steady-state jobs (the first is the cold one).

Platform (both modes): hart 0 runs the kernel, harts 1..3 the contenders, hart 4 the I/O core
(SPM mode only). Cache model: private L1 I and D of 4 KiB (4-way), shared LLC 256 KiB 4-way,
64-byte lines, LLC hit 30 cycles, memory 200 cycles, bus 20 cycles per line; the SPM pool is
on-chip SRAM (no stall, no cache, no bus). The SPM task runs without the heartbeat (no trap
inside a job) on a 4 KiB stack in its partition.

Outputs in OUT: results.csv (kernel, mode, contenders, jobs, median / min / max modeled cycles,
instructions), configs/*.yaml, runs/<slug>/ (each run), fig5_6.png. Deterministic (icount and
a deterministic model); --seed and --sets do not apply.
"""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path
from typing import Any

import yaml

#: kernel -> (SPM image, thread entry, arg): about 0.1-0.3 ms of instructions per job
KERNELS: dict[str, tuple[str, str, int]] = {
    "fir": ("fir", "app_fir", 4),
    "iir": ("iir", "app_iir", 8),
    "matmul": ("matmul", "app_matmul", 1),
    "fft": ("fft", "app_fft", 1),
    "bitmanip": ("bitmanip", "app_bitmanip", 4),
}
MODES = ("spm", "main")
CONTENDERS = (0, 1, 2, 3)
PERIOD_MS = 2
RUN_MS = 24
HAMMER_SWEEPS = 16  # per 1 ms job: ~0.7 ms of instructions, so a contender is always busy
CACHE = {"size_bytes": 262144, "ways": 4, "line_bytes": 64, "page_bytes": 4096}
CACHE_MODEL = {"l1": {"size_bytes": 4096, "ways": 4}, "llc_hit_cycles": 30, "mem_cycles": 200,
               "bus_cycles": 20, "feedback": False}


def config(kernel: str, mode: str, contenders: int) -> dict[str, Any]:
    """The system configuration of one run."""
    image, entry, arg = KERNELS[kernel]
    ncpus = 5 if mode == "spm" else 4
    cpus = [{"id": h, "role": "app"} for h in range(4)]
    if mode == "spm":
        cpus.append({"id": 4, "role": "io"})
    threads = [{"name": f"hammer{h}", "entry": "spmiso_hammer", "arg": HAMMER_SWEEPS << 8 | h,
                "cpu": h, "priority": 10, "period_ms": 1, "wcet_ms": 0.95}
               for h in range(1, contenders + 1)]
    cfg: dict[str, Any] = {
        "name": f"spmiso-{kernel}-{mode}-{contenders}", "ncpus": ncpus, "icount_shift": 0,
        "run_for_ms": RUN_MS, "cpus": cpus, "cache": CACHE, "cache_model": CACHE_MODEL,
        "schedulers": [{"name": f"fp{h}", "policy": "fp", "cpus": [h]} for h in range(4)],
    }
    if mode == "spm":
        cfg["spm"] = {
            "io_cpu": 4, "app_cpus": [0], "spm_bytes": 65536, "sigma_us": 100,
            "heartbeat": False,
            "tasks": [{"name": kernel, "core": 0, "image": image, "arg": arg, "priority": 0,
                       "period_ms": PERIOD_MS, "wcet_ms": 1, "image_bytes": 8192,
                       "stack_bytes": 4096}],
        }
    else:
        threads.insert(0, {"name": kernel, "entry": entry, "arg": arg, "cpu": 0,
                           "priority": 10, "period_ms": PERIOD_MS, "wcet_ms": 1})
    if threads:
        cfg["threads"] = threads
    return cfg


def job_cycles(run_dir: Path, kernel: str) -> list[dict[str, int]]:
    """The kernel's completed jobs in the run's cache_model.json, in order (the last record,
    the job in progress at power-off, is left out)."""
    doc = json.loads((run_dir / "cache_model.json").read_text())
    t = doc["threads"].get(kernel)
    if t is None:
        raise RuntimeError(f"{run_dir}: no cache-model records of {kernel}")
    jobs = sorted(t["jobs"], key=lambda j: j["job"])
    return [{"job": j["job"], "modeled_cycles": j["modeled_cycles"],
             "instructions": j["instructions"], "stall_cycles": j["stall_cycles"]}
            for j in jobs[:-1]]


def run_one(kernel: str, mode: str, contenders: int, out: Path) -> list[dict[str, int]]:
    """Boot one configuration into out/runs/<name>; its kernel's jobs."""
    from partita.run.run import run_config

    cfg = config(kernel, mode, contenders)
    cdir = out / "configs"
    cdir.mkdir(parents=True, exist_ok=True)
    path = cdir / f"{cfg['name']}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    run_dir = out / "runs" / cfg["name"]
    r = run_config(path, run_dir, png=False, bounds=False)
    if not r.ok:
        raise RuntimeError(f"{cfg['name']}: the run failed: {r.describe()}")
    return job_cycles(run_dir, kernel)


def summarise(jobs: list[dict[str, int]]) -> dict[str, float]:
    steady = [j["modeled_cycles"] for j in jobs[1:]] or [j["modeled_cycles"] for j in jobs]
    ins = [j["instructions"] for j in jobs[1:]] or [j["instructions"] for j in jobs]
    return {"jobs": len(steady), "median": statistics.median(steady), "min": min(steady),
            "max": max(steady), "instructions": statistics.median(ins)}


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Modeled cycles per job (median of the steady-state jobs), one panel per mode, one bar
    per number of contending harts; the same y scale in both panels."""
    from matplotlib.figure import Figure

    kernels = [k for k in KERNELS if any(r["kernel"] == k for r in rows)]
    fig = Figure(figsize=(11, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    width = 0.8 / len(CONTENDERS)
    for ax, mode in zip(axes, ("main", "spm"), strict=True):
        for ci, c in enumerate(CONTENDERS):
            ys = [next((float(r["median"]) / 1000 for r in rows if r["kernel"] == k
                        and r["mode"] == mode and int(r["contenders"]) == c), float("nan"))
                  for k in kernels]
            ax.bar([i + (ci - 1.5) * width for i in range(len(kernels))], ys, width,
                   label=f"{c} contending hart{'s' if c != 1 else ''}")
        ax.set_xticks(range(len(kernels)), kernels)
        ax.set_title("executing from main memory" if mode == "main"
                     else "executing from the scratchpad (SPM task)")
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("modeled kcycles per job (median)")
    fig.suptitle("cf. Tabish et al. Figs. 5 and 6: cache model, L1 4 KiB, LLC 256 KiB shared, "
                 "contenders hammer 512 KiB each", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def run(out: Path, seed: int = 1, sets: int = 1, jobs: int = 1, quiet: bool = True,
        executor: str | None = None, kernels: tuple[str, ...] | None = None,
        **_extra: object) -> Path:
    """Every kernel x mode x contenders; results.csv and fig5_6.png in OUT."""
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for k in kernels or tuple(KERNELS):
        for mode in MODES:
            for c in CONTENDERS:
                s = summarise(run_one(k, mode, c, out))
                rows.append({"kernel": k, "mode": mode, "contenders": c, **s})
                if not quiet:
                    print(f"spm-isolation: {k:9s} {mode:4s} {c} contenders: median "
                          f"{s['median']:,.0f} modeled cycles ({s['min']:,}-{s['max']:,}), "
                          f"{s['instructions']:,.0f} instructions", flush=True)
    path = out / "results.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, out / "fig5_6.png")
    return path
