"""Where a benchmark's instructions go: a per-function count of each measured window.

    python -m partita.bench.profile build/bench-kernel/partita.elf /tmp/exec.log [N]
    python -m partita.bench.profile --run CFG.yaml [--notrace] [N]   (boots it, then profiles)

The log comes from `qemu-system-riscv64 <the usual partita command line> -singlestep
-d exec,nochain -D /tmp/exec.log -dfilter <ranges without the spinning code>` (`run_log`
builds that command; `partita bench` calls it for the breakdown table of docs/benchmarks.md).

With -singlestep every translated block is one instruction, so each `Trace` line of the log is
one executed instruction. A window opens at a bench_start() reading (an `rdcycle` followed
by `sd`, apps/bench/bench.h) and closes at a bench_stop() reading (`rdcycle` followed by
`li a0, <op>`); the N-th window of each operation (default 5, past the warm-up) is printed.
The -dfilter ranges must leave out bench_settle() and the filler threads' spin loop, which
would otherwise fill the log; see docs/benchmarks.md for the exact command.
"""

from __future__ import annotations

import bisect
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

TRACE = re.compile(r"Trace (\d+): 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
INSN = re.compile(r"\s+([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)\s*(.*)")


def readings(elf: str, user_start: int) -> tuple[set[int], dict[int, int]]:
    """PCs of bench_start readings, and of bench_stop readings with their op number."""
    dis = subprocess.run(["riscv64-unknown-elf-objdump", "-d", elf], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    ins = [(int(m[1], 16), m[2], m[3]) for m in map(INSN.match, dis) if m]
    starts: set[int] = set()
    stops: dict[int, int] = {}
    for (pc, op, _), (_, nop, nargs) in zip(ins, ins[1:], strict=False):
        if op != "rdcycle" or pc < user_start:
            continue
        if nop == "sd":
            starts.add(pc)
        m = re.match(r"a0,(\d+)$", nargs)
        if nop == "li" and m:
            stops[pc] = int(m[1])
    return starts, stops


def symbols(elf: str) -> tuple[list[int], list[str]]:
    out = subprocess.run(["riscv64-unknown-elf-nm", "-n", elf], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    syms = [(int(p[0], 16), p[2]) for p in (ln.split() for ln in out)
            if len(p) == 3 and p[1] in "tTwW"]
    return [a for a, _ in syms], [n for _, n in syms]


def profile(elf: str, log: str, nth: int = 5,
            per_cpu: bool = False) -> dict[int, list[tuple[str, int]]]:
    """Per-function instruction counts of the nth window of every operation, in order of
    first execution. per_cpu: functions are named `fn@hart` (a window spanning two harts,
    e.g. the IPI wake-up: QEMU runs them in turns, so both harts' instructions are in it)."""
    addrs, names = symbols(elf)
    user_start = addrs[names.index("pt_thread_body")] if "pt_thread_body" in names else 0
    starts, stops = readings(elf, user_start & ~0xFFF)
    seen: Counter[int] = Counter()
    found: dict[int, list[tuple[str, int]]] = {}
    win: Counter[str] | None = None
    order: list[str] = []
    with open(log, errors="replace") as f:
        for line in f:
            m = TRACE.search(line)
            if not m:
                continue
            pc = int(m[2], 16)
            if pc in starts:
                win, order = Counter(), []
                continue
            if win is None:
                continue
            if pc in stops:
                op = stops[pc]
                seen[op] += 1
                if seen[op] == nth:
                    found[op] = [(fn, win[fn]) for fn in order]
                win = None
                continue
            fn = names[bisect.bisect_right(addrs, pc) - 1]
            if per_cpu:
                fn = f"{fn}@{m[1]}"
            if fn not in win:
                order.append(fn)
            win[fn] += 1
    return found


# Spinning code left out of the log: the settle loop between repetitions, the filler threads
# and the timer benchmark's residue loop (none of them inside a measured window).
SPINNERS = ("filler_spin", "bench_settle", "timer_sample")


def dfilter(elf: str) -> str:
    """-dfilter ranges: all text of the image but the spinning functions."""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", "-n", elf], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    holes = sorted((int(p[0], 16), int(p[0], 16) + int(p[1], 16)) for p in
                   (ln.split() for ln in out) if len(p) == 4 and p[3] in SPINNERS)
    ranges, lo = [], 0x80000000
    for a, b in holes:
        ranges.append(f"0x{lo:x}..0x{a - 1:x}")
        lo = b
    ranges.append(f"0x{lo:x}..0x{0x80000000 + (1 << 30):x}")
    return ",".join(ranges)


def run_log(cfg: str | Path, log: Path, trace: bool = True, timeout_s: float = 600) -> Path:
    """Build `cfg` (tracing on or compiled out) and boot it single-stepped, every executed
    instruction logged to `log` (QEMU `-d exec`). Returns the ELF. Takes about a minute."""
    from partita.config import load_resolved
    from partita.run.build import build, locked
    from partita.run.qemu import _fresh_ram, command

    system = load_resolved(cfg)
    b = build(cfg, quiet=True, trace=trace, asserts=False)  # as the benchmarks' images
    with locked(b.build_dir):
        _fresh_ram(b.ram_file, system.ram_mb)
        cmd = command(b.elf, b.ram_file, system.ram_mb, system.ncpus, system.icount_shift)
        cmd += ["-singlestep", "-d", "exec,nochain", "-D", str(log),
                "-dfilter", dfilter(str(b.elf))]
        # Every operation is measured with 1 thread present before any with 8: stop there
        # (the whole run would log tens of GB).
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        assert proc.stdout is not None
        try:
            for line in iter(proc.stdout.readline, b""):
                if b"threads=8 " in line or b"BENCH-END" in line:
                    break
        finally:
            proc.kill()
            proc.wait(timeout=timeout_s)
    return b.elf


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--run" and len(argv) >= 2:
        trace = "--notrace" not in argv
        rest = [a for a in argv[2:] if a != "--notrace"]
        log = Path("/tmp") / f"partita-profile-{Path(argv[1]).stem}.log"
        argv = [str(run_log(argv[1], log, trace)), str(log)] + rest
    if len(argv) < 2:
        print(__doc__)
        return 2
    nth = int(argv[2]) if len(argv) > 2 else 5
    for op, rows in sorted(profile(argv[0], argv[1], nth).items()):
        total = sum(n for _, n in rows)
        print(f"op {op}: {total} instructions after the start reading")
        print("   " + ", ".join(f"{fn} {n}" for fn, n in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
