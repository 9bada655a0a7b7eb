"""Table I for the µC/OS-II API layer (compat/ucos2), part of `partita bench`.

Boots tests/system/ucos2_bench/ucos2_bench.yaml (kernel partition) and ucos2_bench_user.yaml
(user partition) under icount shift 0 on one hart, reads the guest's `UBENCH ...` lines
(tests/system/ucos2_bench/ucbench.c: count, sum, sum of squares, min, max of the samples of
one call with 1, 8, 32 and 64 filler tasks present), writes OUT/ucos2.json and returns the
Markdown table: mean and standard deviation in guest cycles, beside FreeRTOS V11 on the same
QEMU (issue 14's reference) and, when given, Partita's native call.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from partita.config import load_resolved
from partita.run.build import ROOT, build, build_dir_for, locked
from partita.run.qemu import boot
from partita.run.run import default_timeout

BENCH_DIR = ROOT / "tests" / "system" / "ucos2_bench"
CONFIGS = (("kernel", "ucos2_bench.yaml"), ("user", "ucos2_bench_user.yaml"))
THREADS = (1, 8, 32, 64)
LINE = re.compile(r"^UBENCH (?P<op>\w+) threads=(?P<threads>\d+) dispatch=(?P<d>[01]) "
                  r"n=(?P<n>\d+) sum=(?P<sum>\d+) sumsq=(?P<sumsq>\d+) min=(?P<min>\d+) "
                  r"max=(?P<max>\d+)$")
# (op, dispatch): what is measured, the FreeRTOS V11 reference, the native bench's (op, dispatch)
ROWS: tuple[tuple[str, bool, str, int | None, tuple[str, bool]], ...] = (
    ("create", False, "OSTaskCreate of a lower-priority task", 973, ("create", False)),
    ("create", True, "OSTaskCreate of a higher-priority task, to its first instruction", 1079,
     ("create", True)),
    ("delete", False, "OSTaskDel of a lower-priority ready task", 279, ("delete", False)),
    ("delete", True, "OSTaskDel(OS_PRIO_SELF), to the next task", None, ("delete", True)),
    ("suspend", False, "OSTaskSuspend of a lower-priority ready task", 84, ("suspend", False)),
    ("suspend", True, "OSTaskSuspend(OS_PRIO_SELF), to the next task", 250, ("suspend", True)),
    ("resume", False, "OSTaskResume of a lower-priority task", 82, ("resume", False)),
    ("resume", True, "OSTaskResume of a higher-priority task, to it", 195, ("resume", True)),
    ("change_prio", False, "OSTaskChangePrio of a lower task, staying lower", 93,
     ("set_priority", False)),
    ("change_prio", True, "OSTaskChangePrio raising a task above the caller, to it", 216,
     ("set_priority", True)),
    ("sem_post_wake", True, "OSSemPost waking a higher-priority pender, to it", 260,
     ("sem_give_wake", True)),
    ("q_post_wake", True, "OSQPost waking a higher-priority pender, to it", 328,
     ("mq_send_wake", True)),
)


class UcosBenchError(Exception):
    pass


@dataclass
class UcosResult:
    op: str
    variant: str
    threads: int
    dispatch: bool
    n: int
    mean: float
    std: float
    min: int
    max: int


def parse(console: str, variant: str) -> list[UcosResult]:
    out = []
    for line in console.splitlines():
        m = LINE.match(line.strip())
        if not m:
            continue
        n, s, sq = int(m["n"]), int(m["sum"]), int(m["sumsq"])
        if n == 0:
            raise UcosBenchError(f"{variant}: no samples for {m['op']}")
        mean = s / n
        std = math.sqrt(max(sq / n - mean * mean, 0.0))
        out.append(UcosResult(m["op"], variant, int(m["threads"]), m["d"] == "1", n, mean, std,
                              int(m["min"]), int(m["max"])))
    return out


def run_config(variant: str, cfg: Path, out: Path) -> list[UcosResult]:
    system = load_resolved(cfg)
    d = out / system.name
    d.mkdir(parents=True, exist_ok=True)
    with locked(build_dir_for(system.name, True, asserts=False)):
        b = build(cfg, quiet=True, trace=True, asserts=False)
        res = boot(b.elf, b.ram_file, ram_mb=system.ram_mb, ncpus=system.ncpus, icount_shift=0,
                   timeout_s=default_timeout(system.run_for_ns), console_file=d / "console.log")
    if "UBENCH-END" not in res.console or "ucos2: fatal" in res.console:
        tail = "\n".join(res.console.splitlines()[-10:])
        raise UcosBenchError(f"{system.name}: the guest did not finish its benchmark\n{tail}")
    return parse(res.console, variant)


def _cell(r: UcosResult | None) -> str:
    if r is None:
        return "—"
    return f"{r.mean:,.0f} ± {r.std:.0f}"


def markdown(rs: Sequence[UcosResult], native: dict[tuple[str, bool], int] | None = None) -> str:
    cell = {(r.op, r.dispatch, r.variant, r.threads): r for r in rs}
    head = "| µC/OS-II call | " + " | ".join(f"kernel, {n}" for n in THREADS) + \
        " | user, 1 | user, 64 | FreeRTOS V11 | native Partita |"
    lines = [head, "| --- |" + " ---: |" * (len(THREADS) + 4)]
    for op, disp, what, ref, nkey in ROWS:
        ks = [_cell(cell.get((op, disp, "kernel", n))) for n in THREADS]
        us = [_cell(cell.get((op, disp, "user", n))) for n in (1, 64)]
        nat = f"{native[nkey]:,}" if native and nkey in native else "—"
        lines.append(f"| {what} | " + " | ".join(ks + us) +
                     f" | {ref if ref is not None else '—'} | {nat} |")
    return ("\n".join(lines) + "\n\nMean ± standard deviation of guest cycles (= instructions, "
            "icount shift 0, one hart, tracing on) over the samples of each call, with 1, 8, 32 "
            "and 64 filler tasks present; FreeRTOS V11 on the same QEMU is issue 14's reference; "
            "native Partita is `partita bench`'s kernel-thread figure (1 thread) when it ran in "
            "the same invocation. `tests/system/ucos2_bench/ucbench.c`.\n")


def run(out: Path,
        native: dict[tuple[str, bool], int] | None = None) -> tuple[list[UcosResult], str]:
    """Both configurations; OUT/ucos2.json; the Markdown table."""
    rs: list[UcosResult] = []
    for variant, name in CONFIGS:
        print(f"bench: ucos2 ({variant}) ...", flush=True)
        rs += run_config(variant, BENCH_DIR / name, out)
    doc = {"cycles_per_sec": 1_000_000_000, "icount_shift": 0,
           "method": "guest cycles of one µC/OS-II layer call; tests/system/ucos2_bench/ucbench.c",
           "results": [asdict(r) for r in rs]}
    (out / "ucos2.json").write_text(json.dumps(doc, indent=1) + "\n")
    md = markdown(rs, native)
    (out / "ucos2.md").write_text(md)
    return rs, md
