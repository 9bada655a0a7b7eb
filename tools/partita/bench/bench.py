"""`partita bench [--out out/bench]`: the kernel micro-benchmarks and the analysis speed.

Boots each benchmark configuration of apps/bench/configs under QEMU (icount shift 0; one hart
except the IPI benchmark), reads the `BENCH ...` console lines the guest prints
(apps/bench/bench.h), reads the timer-to-handler figures from the trace, writes
`OUT/kernel.json` and `OUT/benchmarks.md` (the tables). Each configuration is measured twice: as
built by default (tracing on) and with every trace record compiled out (`make PT_TRACE=0`, the
"tracing off" column: FreeRTOS's figures were taken without a trace recorder). It also profiles
every operation per function (bench_profile.py; `--no-profile` skips it) for the breakdown
table. Then it runs the analysis speed benchmark (`partita.analysis.bench.run`) unless
`--kernel-only`. Tracked files change only with `--doc` (`make bench-docs`): the generated parts
of docs/benchmarks.md, and configs/overheads/kernel.json, the kernel costs `partita analyze`
charges by default.

The same steps are a Python API for the system tests: `run_kernel_config(cfg, out)`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from partita.config import ConfigError, load_resolved
from partita.run.build import ROOT, BuildError, build, build_dir_for, locked
from partita.run.qemu import boot, read_trace_area
from partita.run.run import default_timeout, qemu_for
from partita.trace.format import Area, Ev, TraceFormatError, pack

BENCH_DIR = ROOT / "apps" / "bench" / "configs"
# bench-freertos: the same operations through the FreeRTOS API layer (compat/bench/freertos)
CONFIGS: tuple[str, ...] = ("bench-kernel", "bench-user", "bench-ipi-kernel", "bench-ipi-user",
                            "bench-freertos")
IRQ_CONFIG = "bench-irq"  # interrupt overhead, both contexts (partita.bench.irq): Table II
HEAP_CONFIG = "bench-heap"  # colored heaps (apps/bench/bench_heap.c): its own table
DOC = ROOT / "docs" / "benchmarks.md"
OVERHEADS = ROOT / "configs" / "overheads" / "kernel.json"  # partita.analysis.cli default
THREAD_COUNTS = (1, 8, 32, 64)
WARMUP = 2  # apps/bench/bench.h BENCH_WARMUP
MARK_TIMER = 0xBE4C0000  # apps/bench/bench.h: + thread count, a1 = armed time T
MARK_WAKE = 0xBE4D0000  # + thread count, a1 = the driver's wake-up minus T

HEAP_LINE = re.compile(r"^BENCH-HEAP (?P<op>malloc|free) (?P<variant>kernel|user) "
                       r"bytes=(?P<bytes>\d+) min=(?P<min>\d+) max=(?P<max>\d+) n=(?P<n>\d+)")
LINE = re.compile(r"^BENCH (?P<op>\S+) (?P<variant>kernel|user|freertos) "
                  r"threads=(?P<threads>\d+) dispatch=(?P<dispatch>[01]) min=(?P<min>\d+) "
                  r"max=(?P<max>\d+) n=(?P<n>\d+)"
                  r"(?: sum=(?P<sum>\d+) sumsq=(?P<sumsq>\d+) cp=(?P<cp>\d+))?")

# FreeRTOS-Kernel V11 on the same QEMU (issue 2): instructions, (op, dispatch) -> cycles.
REFERENCE: dict[tuple[str, bool], int] = {
    ("yield", True): 118,
    ("create", False): 973,
    ("create", True): 1079,
    ("delete", False): 279,
    ("suspend", False): 84,
    ("suspend", True): 250,
    ("resume", False): 82,
    ("resume", True): 195,
    ("set_priority", False): 93,
    ("set_priority", True): 216,
    ("sem_give_wake", True): 260,
    ("mq_send_wake", True): 328,
}

DESCRIPTION: dict[tuple[str, bool], str] = {
    ("yield", True): "yield to another thread of the same priority",
    ("create", False): "create a lower-priority thread",
    ("create", True): "create a higher-priority thread, to its first instruction",
    ("delete", False): "delete a lower-priority ready thread",
    ("delete", True): "delete self, to the next thread",
    ("suspend", False): "suspend a lower-priority ready thread",
    ("suspend", True): "suspend self, to the next thread",
    ("resume", False): "resume a lower-priority thread",
    ("resume", True): "resume a higher-priority thread, to it",
    ("set_priority", False): "set-priority of a lower thread, staying lower",
    ("set_priority", True): "set-priority raising a thread above the caller, to it",
    ("set_priority_self", True): "set-priority lowering self below a ready thread, to it",
    ("sem_give_wake", True): "semaphore give waking a higher-priority waiter, to it",
    ("mq_send_wake", True): "queue send (8 bytes) waking a higher-priority receiver, to it",
    ("timer_to_handler", False): "timer interrupt to the kernel's timer handler",
    ("timer_to_thread", True): "timer interrupt to the woken thread (sleep_until)",
    ("ipi_wake", True): "semaphore give waking a thread on the other hart (IPI), to it",
}


class BenchError(Exception):
    pass


@dataclass
class Result:
    op: str
    variant: str
    threads: int
    dispatch: bool
    cycles: int
    cycles_max: int
    reps: int
    config: str = ""
    trace: bool = True  # False: measured on the image with tracing compiled out
    extra: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        d = asdict(self)
        d.update(d.pop("extra"))
        return d


def parse_console(console: str, config: str = "") -> list[Result]:
    out = []
    for line in console.splitlines():
        m = LINE.match(line.strip())
        if m:
            extra = {k: int(m[k]) for k in ("sum", "sumsq", "cp") if m[k] is not None}
            out.append(Result(m["op"], m["variant"], int(m["threads"]), m["dispatch"] == "1",
                              int(m["min"]), int(m["max"]), int(m["n"]), config,
                              extra=extra))
    return out


@dataclass
class TimerSample:
    threads: int
    mark_ts: int  # timestamp of the MARK record emitted just before the sleep
    handler: int  # IRQ_ENTER timestamp minus T
    thread: int  # the driver's first instruction after the wake-up minus T


def timer_samples(area: Area) -> list[TimerSample]:
    """Pair each timer mark with the IRQ_ENTER that follows it and the wake-up mark."""
    out: list[TimerSample] = []
    for ring in area.rings:
        r = ring.records
        pending: tuple[int, int, int] | None = None  # (threads, T, mark ts)
        handler: int | None = None
        for i in range(len(r)):
            typ, a0 = int(r["type"][i]), int(r["arg0"][i])
            if typ == Ev.MARK and a0 & 0xFFFF0000 == MARK_TIMER:
                pending, handler = (a0 & 0xFFFF, int(r["arg1"][i]), int(r["ts"][i])), None
            elif typ == Ev.IRQ_ENTER and pending is not None and handler is None:
                handler = int(r["ts"][i]) - pending[1]
            elif typ == Ev.MARK and a0 & 0xFFFF0000 == MARK_WAKE and pending is not None:
                if handler is not None and a0 & 0xFFFF == pending[0]:
                    out.append(TimerSample(pending[0], pending[2], handler, int(r["arg1"][i])))
                pending = None
    return out


def timer_results(area: Area, variant: str, config: str) -> list[Result]:
    """T to the timer handler's IRQ_ENTER record, per thread count (tracing on only). The
    guest aligned every sample so that QEMU's CLINT fires exactly at T (bench_ops.c); T to the
    woken driver (timer_to_thread) is the guest's own console line, with or without tracing."""
    by_n: dict[int, list[TimerSample]] = defaultdict(list)
    for s in timer_samples(area):
        by_n[s.threads].append(s)
    out = []
    for n, ss in sorted(by_n.items()):
        h = [s.handler for s in ss]
        out.append(Result("timer_to_handler", variant, n, False, min(h), max(h), len(ss), config))
    return out


@dataclass
class ConfigRun:
    config: str
    results: list[Result]
    console: str
    lost: int
    wall_s: float


def run_kernel_config(cfg: str | Path, out: str | Path, trace: bool = True) -> ConfigRun:
    """Build and boot one benchmark configuration; results parsed from console and trace.
    `trace=False`: the image with tracing compiled out. Raises ConfigError, BuildError or
    BenchError."""
    cfg = Path(cfg)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    system = load_resolved(cfg)
    if system.icount_shift != 0:
        raise BenchError(f"{cfg}: benchmarks need icount_shift 0 (cycles = instructions)")
    # benchmark images leave the core's PT_ASSERTs out (mk/kernel.mk): the figures are the
    # kernel's paths, not its self-checks
    with locked(build_dir_for(system.name, trace, asserts=False)):
        b = build(cfg, quiet=True, trace=trace, asserts=False)
        qemu, devargs = qemu_for(system)  # an emulated device: build/qemu's QEMU
        res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus,
                   icount_shift=0, timeout_s=default_timeout(system.run_for_ns),
                   console_file=out / "console.log", extra_args=devargs, qemu=qemu)
        try:
            area = read_trace_area(b.ram_file, b.elf)
        except (TraceFormatError, KeyError, ValueError) as e:
            raise BenchError(f"{cfg}: no trace: {e}") from e
    (out / "trace.bin").write_bytes(pack(area))
    if "BENCH-END" not in res.console:
        tail = "\n".join(res.console.splitlines()[-15:])
        raise BenchError(f"{system.name}: the guest did not finish its benchmarks "
                         f"(QEMU {'timed out' if res.timed_out else 'exit ' + str(res.returncode)})"
                         f"\n{tail}")
    errors = [ln for ln in res.console.splitlines() if ln.startswith("BENCH-ERROR")]
    if errors:
        raise BenchError(f"{system.name}: " + "; ".join(errors))
    results = parse_console(res.console, system.name)
    variant = results[0].variant if results else "kernel"
    if trace:
        results += timer_results(area, variant, system.name)
    for r in results:
        r.trace = trace
    name = system.name if trace else f"{system.name} (tracing off)"
    return ConfigRun(name, results, res.console, area.lost, res.wall_s)


# ---- colored heaps ----

@dataclass
class HeapResult:
    op: str       # malloc | free
    variant: str  # kernel | user
    bytes: int
    cycles: int
    cycles_max: int
    reps: int


def parse_heap_console(console: str) -> list[HeapResult]:
    return [HeapResult(m["op"], m["variant"], int(m["bytes"]), int(m["min"]), int(m["max"]),
                       int(m["n"]))
            for m in (HEAP_LINE.match(ln) for ln in console.splitlines()) if m]


def heap_markdown(rs: Sequence[HeapResult]) -> str:
    """One row per size: malloc and free, kernel and user threads (min, or min–max)."""
    cell: dict[tuple[str, str, int], HeapResult] = {(r.op, r.variant, r.bytes): r for r in rs}

    def c(op: str, v: str, n: int) -> str:
        r = cell.get((op, v, n))
        if r is None:
            return "—"
        return f"{r.cycles:,}" if r.cycles == r.cycles_max else f"{r.cycles:,}–{r.cycles_max:,}"

    lines = ["| bytes | pt_malloc, kernel | pt_free, kernel | pt_malloc, user | pt_free, user |",
             "| ---: | ---: | ---: | ---: | ---: |"]
    for n in sorted({r.bytes for r in rs}):
        lines.append(f"| {n:,} | {c('malloc', 'kernel', n)} | {c('free', 'kernel', n)} | "
                     f"{c('malloc', 'user', n)} | {c('free', 'user', n)} |")
    return ("\n".join(lines) + "\n\nGuest cycles (= instructions, icount shift 0, one hart, "
            "tracing on) of one call in the steady state (the size's slab or run exists), "
            f"over {rs[0].reps if rs else 0} repetitions; user threads pay the `ecall`. "
            "`apps/bench/bench_heap.c`, `apps/bench/configs/bench-heap.yaml`.\n")


def run_heap(out: Path) -> tuple[list[HeapResult], str]:
    """Boot bench-heap; write OUT/heap.json; the markdown table."""
    cfg = BENCH_DIR / f"{HEAP_CONFIG}.yaml"
    d = out / HEAP_CONFIG
    d.mkdir(parents=True, exist_ok=True)
    system = load_resolved(cfg)
    with locked(build_dir_for(system.name, True, asserts=False)):
        b = build(cfg, quiet=True, trace=True, asserts=False)
        res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus,
                   icount_shift=0, timeout_s=default_timeout(system.run_for_ns),
                   console_file=d / "console.log")
    errors = [ln for ln in res.console.splitlines() if ln.startswith("BENCH-ERROR")]
    rs = parse_heap_console(res.console)
    if errors or "BENCH-END" not in res.console or not rs:
        raise BenchError(f"{system.name}: the guest did not finish its heap benchmark: "
                         + ("; ".join(errors) or "\n".join(res.console.splitlines()[-10:])))
    doc = {"cycles_per_sec": 1_000_000_000, "icount_shift": 0,
           "method": "cycles = guest instructions of one call, steady state; "
                     "apps/bench/bench_heap.c",
           "results": [asdict(r) for r in rs]}
    (out / "heap.json").write_text(json.dumps(doc, indent=1) + "\n")
    return rs, heap_markdown(rs)


# ---- kernel.json ----

def derived(results: Iterable[Result]) -> list[Result]:
    """Aliases the overhead accounting (partita.analysis.overheads) asks for."""
    out = []
    for r in results:
        if not r.trace:
            continue  # the aliases are the default image's (tracing on) figures
        if r.op == "yield":
            out.append(Result("context_switch", r.variant, r.threads, True, r.cycles,
                              r.cycles_max, r.reps, r.config))
        elif r.op == "timer_to_thread":
            out.append(Result("release", r.variant, r.threads, True, r.cycles, r.cycles_max,
                              r.reps, r.config))
    return out


def write_json(results: Sequence[Result], path: Path) -> None:
    doc = {
        "cycles_per_sec": 1_000_000_000,
        "icount_shift": 0,
        "method": "cycles = guest instructions (icount shift 0, one hart; the ipi_wake figures "
                  "are virtual ns on two harts); see docs/benchmarks.md",
        "aliases": {"context_switch": "yield", "release": "timer_to_thread"},
        "results": [r.to_json() for r in list(results) + derived(results) if r.trace],
        # the same operations on the image with tracing compiled out (make PT_TRACE=0)
        "results_notrace": [r.to_json() for r in results if not r.trace],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")


# ---- docs/benchmarks.md ----

ORDER: tuple[tuple[str, bool], ...] = (
    ("yield", True), ("create", False), ("create", True), ("delete", False), ("delete", True),
    ("suspend", False), ("suspend", True), ("resume", False), ("resume", True),
    ("set_priority", False), ("set_priority", True), ("set_priority_self", True),
    ("sem_give_wake", True), ("mq_send_wake", True), ("timer_to_handler", False),
    ("timer_to_thread", True), ("ipi_wake", True),
)
FLAT_OPS = ORDER[:14]  # the operations whose cost must not depend on the thread count


def _cell(rs: dict[int, Result], n: int) -> str:
    r = rs.get(n)
    if r is None:
        return "—"
    return f"{r.cycles:,}" if r.cycles == r.cycles_max else f"{r.cycles:,}–{r.cycles_max:,}"


def is_flat(rs: dict[int, Result]) -> bool:
    vals = {(r.cycles, r.cycles_max) for r in rs.values()}
    return len(vals) == 1


# Issue 9's targets (kernel threads, one hart, FP): tracing compiled out at most FreeRTOS's
# figure, and at most half of it for these four wake paths; tracing on at most 1.25x; user
# threads (every call an ecall) at most FreeRTOS + 150.
HALF_OPS = {("resume", True), ("set_priority", True), ("sem_give_wake", True),
            ("mq_send_wake", True)}
TRACE_ON_FACTOR = 1.25
USER_EXTRA = 150


TIMER_TO_THREAD_OFF = 400  # issue 9: kernel threads, tracing off; no FreeRTOS figure


def targets(key: tuple[str, bool], kernel: bool,
            freertos: bool = False) -> tuple[int | None, int | None] | None:
    """(tracing-on limit, tracing-off limit) in cycles (None: no limit on that side), or None
    without any target."""
    ref = REFERENCE.get(key)
    if freertos:  # issue 14: each FreeRTOS call on Partita no dearer than on FreeRTOS V11
        return (ref, ref) if ref is not None else None
    if kernel and key == ("timer_to_thread", True):
        return None, TIMER_TO_THREAD_OFF
    if ref is None:
        return None
    if not kernel:
        return ref + USER_EXTRA, ref + USER_EXTRA
    return int(ref * TRACE_ON_FACTOR), ref // 2 if key in HALF_OPS else ref


def verdict(worst_on: int | None, worst_off: int | None,
            lim: tuple[int | None, int | None] | None) -> str:
    if lim is None:
        return "no reference"
    misses = []
    if worst_on is not None and lim[0] is not None and worst_on > lim[0]:
        misses.append(f"on +{worst_on - lim[0]}")
    if worst_off is not None and lim[1] is not None and worst_off > lim[1]:
        misses.append(f"off +{worst_off - lim[1]}")
    return "**misses: " + ", ".join(misses) + "**" if misses else "meets target"


def _limits(lim: tuple[int | None, int | None] | None) -> str:
    if lim is None:
        return "—"
    return " / ".join("—" if x is None else f"{x:,}" for x in lim)


def _span(rs: dict[int, Result]) -> str:
    lo = min(r.cycles for r in rs.values())
    hi = max(r.cycles_max for r in rs.values())
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def table(results: Sequence[Result], variant: str) -> str:
    kernel = variant == "kernel"
    head = ("| operation | dispatch | " + " | ".join(f"{n} thr" for n in THREAD_COUNTS)
            + " | flat | tracing off | FreeRTOS V11 | target on / off | verdict |")
    lines = [head, "| --- | :-: |" + " ---: |" * len(THREAD_COUNTS)
             + " :-: | ---: | ---: | ---: | --- |"]
    on: dict[tuple[str, bool], dict[int, Result]] = defaultdict(dict)
    off: dict[tuple[str, bool], dict[int, Result]] = defaultdict(dict)
    for r in results:
        if r.variant == variant:
            (on if r.trace else off)[(r.op, r.dispatch)][r.threads] = r
    for key in ORDER:
        rs, ro = on.get(key, {}), off.get(key, {})
        if not rs and not ro:
            continue
        ref = REFERENCE.get(key)
        lim = targets(key, kernel, variant == "freertos")
        worst_on = max(r.cycles_max for r in rs.values()) if rs else None
        worst_off = max(r.cycles_max for r in ro.values()) if ro else None
        flat = all(is_flat(x) for x in (rs, ro) if x)
        lines.append(
            f"| {DESCRIPTION.get(key, key[0])} (`{key[0]}`) | {'yes' if key[1] else 'no'} | "
            + " | ".join(_cell(rs, n) for n in THREAD_COUNTS)
            + f" | {'yes' if flat else '**no**'} | {_span(ro) if ro else '—'} | "
            f"{f'{ref:,}' if ref else '—'} | "
            f"{_limits(lim)} | "
            f"{verdict(worst_on, worst_off, lim)} |")
    return "\n".join(lines) + "\n"


def _replace_block(text: str, name: str, body: str) -> str:
    begin, end = f"<!-- BEGIN GENERATED {name} -->", f"<!-- END GENERATED {name} -->"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        pre, rest = text.split(begin, 1)
        return pre + block + rest.split(end, 1)[1]
    return text.rstrip() + "\n\n" + block + "\n"


def kernel_markdown(results: Sequence[Result], runs: Sequence[ConfigRun],
                    breakdown: str | None = None) -> str:
    parts = ["### Kernel threads (S-mode, direct calls)\n", table(results, "kernel"),
             "\n### User threads (U-mode, every call an `ecall`)\n", table(results, "user"),
             "\n### The FreeRTOS API (compat/freertos, kernel partition; issue 14)\n",
             table(results, "freertos"),
             "\nThe same operations made with FreeRTOS calls by FreeRTOS tasks "
             "(`compat/bench/freertos`); target: no dearer than FreeRTOS V11 itself.\n",
             "\nThread-count columns: the default image (tracing on). *Tracing off*: the same "
             "operation on the image built with `PT_TRACE=0` (every trace record compiled out), "
             "over all thread counts. Targets (issue 9): kernel threads ≤ 1.25× FreeRTOS with "
             "tracing on, ≤ FreeRTOS with tracing off and ≤ ½ FreeRTOS for resume→, "
             "set-priority→, semaphore give→ and queue send→, timer interrupt to the woken thread "
             "≤ 400 with tracing off; user threads ≤ FreeRTOS + 150.\n"
             "\nCells give the minimum; `a–b` when the maximum differs. Runs: "
             + ", ".join(f"`{r.config}` ({r.wall_s:.1f} s wall, {r.lost} trace records lost)"
                         for r in runs) + ".\n"]
    if breakdown:
        parts.append("\n### Where the instructions go (kernel threads, one thread present)\n\n"
                     + breakdown)
    return "".join(parts)


SKELETON = """# Benchmarks

`make bench` (= `partita bench --out out/bench`) writes these tables; `make bench-docs`
regenerates them between the `GENERATED` markers of docs/benchmarks.md.

## Kernel operations (guest cycles under icount)

<!-- BEGIN GENERATED kernel -->
<!-- END GENERATED kernel -->

## Analysis speed

<!-- BEGIN GENERATED analysis -->
<!-- END GENERATED analysis -->
"""


def update_doc(doc: Path, kernel_md: str | None, analysis_md: str | None,
               heap_md: str | None = None, irq_md: str | None = None) -> None:
    text = doc.read_text() if doc.exists() else SKELETON
    if kernel_md is not None:
        text = _replace_block(text, "kernel", kernel_md)
    if heap_md is not None:
        text = _replace_block(text, "heap", heap_md)
    if irq_md is not None:
        text = _replace_block(text, "irq", irq_md)
    if analysis_md is not None:
        text = _replace_block(text, "analysis", analysis_md)
    doc.write_text(text)


# ---- the verb ----

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="out/bench", help="output directory (default out/bench)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--kernel-only", action="store_true", help="only the guest benchmarks")
    g.add_argument("--analysis-only", action="store_true", help="only the analysis speed")
    p.add_argument("--config", action="append",
                   choices=(*CONFIGS, HEAP_CONFIG, "ucos2", IRQ_CONFIG),
                   help="run only this benchmark configuration (repeatable; the doc's tables "
                        "are then left alone)")
    p.add_argument("--no-offload", action="store_true",
                   help="skip the offloaded-scheduler comparison (docs/offload.md, three boots)")
    p.add_argument("--no-device", action="store_true",
                   help="leave the device back end out of that comparison (it needs "
                        "build/qemu, built first if missing: docs/devices.md)")
    p.add_argument("--no-profile", action="store_true",
                   help="skip the per-function breakdown (two single-stepped boots, ~20 s)")
    p.add_argument("--doc", action="store_true",
                   help="also rewrite docs/benchmarks.md and configs/overheads/kernel.json (the "
                   "analysis' default kernel costs) from this run (make bench-docs)")


def run_kernel(out: Path, configs: Sequence[str]) -> tuple[list[Result], list[ConfigRun]]:
    """Every configuration as built by default and with tracing compiled out."""
    results: list[Result] = []
    runs: list[ConfigRun] = []
    for name in configs:
        for trace in (True, False):
            print(f"bench: {name}{'' if trace else ' (tracing off)'} ...", flush=True)
            r = run_kernel_config(BENCH_DIR / f"{name}.yaml",
                                  out / (name if trace else f"{name}-notrace"), trace)
            print(f"bench: {r.config}: {len(r.results)} results in {r.wall_s:.1f} s",
                  flush=True)
            results += r.results
            runs.append(r)
    return results, runs


# bench_op numbers (apps/bench/bench.h) -> the table's (op, dispatch)
PROFILE_OPS: tuple[tuple[str, bool], ...] = (
    ("yield", True), ("create", False), ("create", True), ("delete", False), ("delete", True),
    ("suspend", False), ("suspend", True), ("resume", False), ("resume", True),
    ("set_priority", False), ("set_priority", True), ("set_priority_self", True),
    ("sem_give_wake", True), ("mq_send_wake", True),
)


def breakdown(out: Path, cfg: str = "bench-kernel") -> str:
    """Per-function instruction counts of one measured window of every operation (the 5th,
    past the warm-up), tracing on and off: bench_profile single-steps the guest."""
    from partita.bench.profile import profile, run_log

    prof: dict[bool, dict[int, list[tuple[str, int]]]] = {}
    for trace in (True, False):
        log = out / f"profile-{cfg}{'' if trace else '-notrace'}.log"
        print(f"bench: profile {cfg}{'' if trace else ' (tracing off)'} ...", flush=True)
        elf = run_log(BENCH_DIR / f"{cfg}.yaml", log, trace)
        prof[trace] = profile(str(elf), str(log))
        log.unlink(missing_ok=True)  # hundreds of MB
    lines = ["| operation | tracing on | tracing off | where they go, tracing off "
             "(function: instructions, in order of first execution) |",
             "| --- | ---: | ---: | --- |"]
    for i, key in enumerate(PROFILE_OPS):
        on, off = prof[True].get(i), prof[False].get(i)
        if on is None or off is None:
            continue
        where = ", ".join(f"`{fn}` {n}" for fn, n in off)
        lines.append(f"| {DESCRIPTION.get(key, key[0])} | {sum(n for _, n in on):,} | "
                     f"{sum(n for _, n in off):,} | {where} |")
    return "\n".join(lines) + "\n"


OP_IPI = 15  # apps/bench/bench.h


def breakdown_ipi(out: Path, cfg: str = "bench-ipi-kernel") -> str:
    """The IPI wake-up window (tracing off) split by hart: QEMU runs the two harts in turns,
    so the window holds the receiver's kernel path and everything the sender runs meanwhile
    (its give, the timer interrupt hal_ipi_send provokes to end its turn, its own block)."""
    from partita.bench.profile import profile, run_log

    log = out / f"profile-{cfg}-notrace.log"
    print(f"bench: profile {cfg} (tracing off) ...", flush=True)
    elf = run_log(BENCH_DIR / f"{cfg}.yaml", log, trace=False)
    rows = profile(str(elf), str(log), per_cpu=True).get(OP_IPI, [])
    log.unlink(missing_ok=True)
    lines = ["| hart | instructions | where they go (function: instructions) |",
             "| --- | ---: | --- |"]
    for hart, role in (("0", "sender (gives the semaphore, then blocks)"),
                       ("1", "receiver (the IPI, to the woken thread)")):
        r = [(fn.rsplit("@", 1)[0], n) for fn, n in rows if fn.endswith("@" + hart)]
        lines.append(f"| {hart}: {role} | {sum(n for _, n in r):,} | "
                     + ", ".join(f"`{fn}` {n}" for fn, n in r) + " |")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kernel_md = analysis_md = heap_md = irq_md = None
    if not args.analysis_only:
        chosen = [c for c in (args.config or CONFIGS)
                  if c not in (HEAP_CONFIG, "ucos2", IRQ_CONFIG)]
        try:
            results, runs = run_kernel(out, chosen)
            if not args.config or HEAP_CONFIG in args.config:
                print(f"bench: {HEAP_CONFIG} ...", flush=True)
                heap_md = run_heap(out)[1]
                print(heap_md)
                print(f"wrote {out / 'heap.json'}")
            if not args.config or IRQ_CONFIG in args.config:
                from partita.bench import irq as irq_bench

                print(f"bench: {IRQ_CONFIG}-{{dedicated,full}} ...", flush=True)
                irq_md = irq_bench.run(out)[1]
                print(irq_md)
                print(f"wrote {out / 'irq.json'}")
        except ConfigError as e:
            for line in e.lines():
                print(f"error: {line}", file=sys.stderr)
            return 2
        except (BuildError, BenchError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        if chosen:
            write_json(results, out / "kernel.json")
        if not args.config or "ucos2" in args.config:  # Table I of the µC/OS-II layer
            from partita.bench import ucos2

            native = {(r.op, r.dispatch): r.cycles for r in results
                      if r.variant == "kernel" and r.threads == 1 and r.trace}
            try:
                print(ucos2.run(out, native)[1])
            except ucos2.UcosBenchError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            print(f"wrote {out / 'ucos2.json'}, {out / 'ucos2.md'}")
        bd = None
        if not args.no_profile and "bench-kernel" in chosen:
            bd = breakdown(out)
        if not args.no_profile and "bench-ipi-kernel" in chosen:
            bd = (bd or "") + ("\nIPI wake-up (`ipi_wake`, kernel threads, tracing off), one "
                               "window split by hart:\n\n" + breakdown_ipi(out))
        if not args.no_offload and "bench-kernel" in chosen:
            from partita.bench import offload

            try:
                print(offload.run(out, device=not args.no_device))
            except (BuildError, BenchError) as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            print(f"wrote {out / 'offload.json'}, {out / 'offload.md'}")
        kernel_md = kernel_markdown(results, runs, bd) if chosen else None
        if kernel_md:
            print(kernel_md)
            print(f"wrote {out / 'kernel.json'}")
        if set(chosen) != set(CONFIGS):
            kernel_md = None  # a partial run does not replace the full tables of the doc
    if not args.kernel_only:
        try:
            from partita.analysis import bench as analysis_bench
        except ImportError as e:
            print(f"warning: analysis speed benchmark unavailable ({e})", file=sys.stderr)
        else:
            got = analysis_bench.run(out)
            analysis_md = got if isinstance(got, str) else str(got.get("markdown", ""))
            print(analysis_md)
    if kernel_md or analysis_md or heap_md or irq_md:
        local = out / "benchmarks.md"
        update_doc(local, kernel_md, analysis_md, heap_md, irq_md)
        print(f"wrote {local}")
    if args.doc and (kernel_md or analysis_md or heap_md or irq_md):
        update_doc(DOC, kernel_md, analysis_md, heap_md, irq_md)
        print(f"wrote {DOC}")
        if kernel_md:
            OVERHEADS.write_text((out / "kernel.json").read_text())
            print(f"wrote {OVERHEADS} (partita analyze's default kernel costs)")
    return 0
