"""Interrupt overhead: the RT-SHADOWS paper's Table II for Partita (docs/interrupts.md).

Boots apps/bench/configs/bench-irq-{dedicated,full}.yaml (apps/bench/bench_irq.c) and reads
its `BENCH-IRQ <kind> <cycles>` console lines: interrupt -> kernel ISR, interrupt -> handler
thread, and the whole trap that only wakes a lower-priority handler (`trap` minus `notrap`),
each with and without the dedicated interrupt context. Writes OUT/irq.json; returns the
markdown table. Guest cycles under icount shift 0 (= instructions).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path

from partita.bench.bench import BenchError
from partita.config import load_resolved
from partita.run.build import build, build_dir_for, locked
from partita.run.qemu import boot
from partita.run.run import default_timeout

BENCH_DIR = Path(__file__).resolve().parents[3] / "apps" / "bench" / "configs"
CONTEXTS = ("dedicated", "full")
KINDS = ("isr", "thread", "trap")
LABEL = {"isr": "interrupt → kernel ISR (source claimed)",
         "thread": "interrupt → handler thread (it preempts)",
         "trap": "trap that only wakes a lower handler (back in the thread)"}
PAPER = {"FreeRTOS": (1250, 3), "µC/OS-II": (2250, 6), "RT-SHADOWS (FreeRTOS)": (436, 2),
         "RT-SHADOWS (µC/OS-II)": (1363, 5)}


@dataclass
class IrqStat:
    context: str
    kind: str
    n: int
    mean: float
    std: float
    min: int
    max: int


def stat(context: str, kind: str, v: list[int]) -> IrqStat:
    return IrqStat(context, kind, len(v), statistics.fmean(v), statistics.pstdev(v),
                   min(v), max(v))


def parse(console: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for ln in console.splitlines():
        if ln.startswith("BENCH-IRQ "):
            _, kind, v = ln.split()
            out.setdefault(kind, []).append(int(v))
    return out


def measure(context: str, out: Path) -> list[IrqStat]:
    cfg = BENCH_DIR / f"bench-irq-{context}.yaml"
    d = out / f"bench-irq-{context}"
    d.mkdir(parents=True, exist_ok=True)
    system = load_resolved(cfg)
    with locked(build_dir_for(system.name, True, asserts=False)):
        b = build(cfg, quiet=True, trace=True, asserts=False)
        res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus,
                   icount_shift=0, timeout_s=default_timeout(system.run_for_ns),
                   console_file=d / "console.log")
    got = parse(res.console)
    if "BENCH-END" not in res.console or any(not got.get(k) for k in ("isr", "thread", "trap")):
        raise BenchError(f"{system.name}: the guest did not finish its interrupt benchmark:\n"
                            + "\n".join(res.console.splitlines()[-10:]))
    trap = [a - b for a, b in zip(got["trap"], got["notrap"], strict=True)]
    return [stat(context, "isr", got["isr"]), stat(context, "thread", got["thread"]),
            stat(context, "trap", trap)]


def markdown(stats: list[IrqStat]) -> str:
    cell = {(s.context, s.kind): s for s in stats}

    def c(ctx: str, kind: str) -> str:
        s = cell[(ctx, kind)]
        span = f"{s.min:,}" if s.min == s.max else f"{s.min:,}–{s.max:,}"
        return f"{s.mean:,.1f} | {s.std:.1f} | {span}"

    lines = ["| from the interrupt to | dedicated x̄ | s | min–max | full frame x̄ | s | "
             "min–max | change |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for k in KINDS:
        d, f = cell[("dedicated", k)], cell[("full", k)]
        lines.append(f"| {LABEL[k]} | {c('dedicated', k)} | {c('full', k)} | "
                     f"{(d.min - f.min) / f.min:+.1%} |")
    paper = ", ".join(f"{k} {m:,} (s {s})" for k, (m, s) in PAPER.items())
    return ("\n".join(lines) + "\n\nGuest cycles (= instructions, icount shift 0, one hart, "
            "kernel threads, tracing on); the change compares minima. Samples: "
            f"{cell[('dedicated', 'isr')].n} per row; a sample with a timer interrupt (the "
            "50 µs horizon, docs/kernel.md) between the raise and the handler is the max. "
            "`apps/bench/bench_irq.c`, `apps/bench/configs/bench-irq-*.yaml`. The paper's "
            f"Table II (ARM, 33 MHz FPGA, interrupt to ISR): {paper}.\n")


def run(out: Path) -> tuple[list[IrqStat], str]:
    """Both contexts; writes OUT/irq.json; the markdown table."""
    stats = [s for ctx in CONTEXTS for s in measure(ctx, out)]
    doc = {"cycles_per_sec": 1_000_000_000, "icount_shift": 0,
           "method": "apps/bench/bench_irq.c: cycles from the instant the UART interrupt can "
                     "be taken (pt_console_irq_cycles) to the ISR / handler thread; trap = "
                     "with minus without the interrupt, handler below the running thread",
           "results": [asdict(s) for s in stats]}
    (out / "irq.json").write_text(json.dumps(doc, indent=1) + "\n")
    return stats, markdown(stats)
