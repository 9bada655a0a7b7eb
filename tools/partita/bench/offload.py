"""The paper's Table I (RT-SHADOWS, brief 2) for Partita's native API: create, delete, suspend,
resume and set-priority, each with and without a resulting dispatch, at 1, 8, 32 and 64
threads present, on in-line FP and on the offloaded scheduler (a scheduler coprocessor on a
service hart). Both are apps/bench/configs/bench-kernel.yaml (the offloaded one is its variant,
partita.subsys.coproc.variant), built with tracing compiled out, so the two columns differ in
the scheduling policy only.

Per operation: the mean and standard deviation over the samples of the virtual-time latency
(guest cycles under icount shift 0), and for the offloaded scheduler its split: the cycles the
coprocessor hart was awake inside the window (measured on that hart) and the rest, the
application core's own instructions. QEMU's icount runs the harts one at a time, so the
application hart's wait for the coprocessor is exactly the coprocessor hart's awake time: on
parallel hardware that share would overlap; here it adds (docs/offload.md).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from partita.bench.bench import BENCH_DIR, THREAD_COUNTS, Result, run_kernel_config
from partita.subsys.coproc.variant import write_offload_variant

OPS: tuple[tuple[str, bool], ...] = (
    ("create", False), ("create", True), ("delete", False), ("delete", True),
    ("suspend", False), ("suspend", True), ("resume", False), ("resume", True),
    ("set_priority", False), ("set_priority", True),
)


def stats(r: Result) -> tuple[float, float, float]:
    """(mean, standard deviation, mean coprocessor-hart cycles) of one result's samples."""
    n = r.reps or 1
    s, q, cp = r.extra.get("sum", 0), r.extra.get("sumsq", 0), r.extra.get("cp", 0)
    mean = s / n
    return mean, math.sqrt(max(0.0, q / n - mean * mean)), cp / n


def table(inline: list[Result], off: list[Result],
          dev: list[Result] | None = None) -> tuple[str, list[dict[str, object]]]:
    """The table; `dev`: the device back end's results too (its own columns)."""
    by_in = {(r.op, r.dispatch, r.threads): r for r in inline}
    by_off = {(r.op, r.dispatch, r.threads): r for r in off}
    by_dev = {(r.op, r.dispatch, r.threads): r for r in dev or []}
    rows = ["| operation | dispatch | threads | in-line FP mean ± sd | offloaded mean ± sd "
            "| app core | coprocessor hart | offloaded / in-line | n |"
            + (" device mean ± sd | device / in-line |" if dev is not None else ""),
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            + (" ---: | ---: |" if dev is not None else "")]
    data: list[dict[str, object]] = []
    for op, d in OPS:
        for n in THREAD_COUNTS:
            a, b = by_in.get((op, d, n)), by_off.get((op, d, n))
            if a is None or b is None:
                continue
            ma, sa, _ = stats(a)
            mb, sb, cp = stats(b)
            if "sum" not in a.extra or "sum" not in b.extra:
                continue  # an image without the sums (apps/bench before them)
            row = (f"| {op} | {'yes' if d else 'no'} | {n} | {ma:.0f} ± {sa:.1f} "
                   f"| {mb:.0f} ± {sb:.1f} | {mb - cp:.0f} | {cp:.0f} | {mb / ma:.2f} "
                   f"| {b.reps} |")
            item: dict[str, object] = {
                "op": op, "dispatch": d, "threads": n, "inline_mean": ma, "inline_sd": sa,
                "offload_mean": mb, "offload_sd": sb, "offload_app": mb - cp,
                "offload_coproc": cp, "reps": b.reps}
            if dev is not None:
                c = by_dev.get((op, d, n))
                if c is None:
                    row += " — | — |"
                else:
                    mc, sc, _ = stats(c)
                    row += f" {mc:.0f} ± {sc:.1f} | {mc / ma:.2f} |"
                    item.update(device_mean=mc, device_sd=sc)
            rows.append(row)
            data.append(item)
    return "\n".join(rows) + "\n", data


def run(out: Path, device: bool = True) -> str:
    """Boot the images (tracing off), write offload.json and offload.md, return the table.
    `device`: also the device back end (build/qemu's QEMU, built first if missing:
    docs/devices.md)."""
    cfg = BENCH_DIR / "bench-kernel.yaml"
    variant = write_offload_variant(cfg, out / "offload-config")
    inline = run_kernel_config(cfg, out / "offload-inline", trace=False).results
    off = run_kernel_config(variant, out / "offload-hart", trace=False).results
    dev = None
    if device:
        dvar = write_offload_variant(cfg, out / "offload-config", backend="device")
        dev = run_kernel_config(dvar, out / "offload-device", trace=False).results
    md, data = table(inline, off, dev)
    md = ("Native API on in-line FP and on the offloaded scheduler (service-hart back end"
          + ("; device back end: the emulated scheduler coprocessor, docs/devices.md"
             if device else "")
          + "), guest cycles under icount shift 0, tracing off; mean ± standard deviation over "
          "the n samples of each row. `partita bench` (partita.bench.offload).\n\n"
          + md)
    (out / "offload.json").write_text(json.dumps(data, indent=1) + "\n")
    (out / "offload.md").write_text(md)
    return md
