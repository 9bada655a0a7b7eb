"""`partita fuzz`: system-call fuzzing campaigns against the kernel (docs/security.md).

A campaign boots `tests/system/fuzz/fuzz.yaml` with a seed and a call count patched into the
fuzzer's argument: a user partition issues that many seeded random system calls beside
victim partitions with deadlines (tests/system/fuzz/fuzz.c). Then, from outside the guest:

- the kernel did not panic and the guest exited cleanly;
- the campaign completed its calls (no livelock) and the victims missed no deadline;
- every victim checked its own memory (its heap pattern) and found it intact;
- the kernel's code and read-only data, and the user window's code, are byte for byte what
  the ELF holds, read through the guest RAM file (nothing wrote them).

`make test` runs one bounded campaign (tests/system/fuzz/test_sys_fuzz.py); `make fuzz` runs
several long ones with other seeds.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from elftools.elf.elffile import ELFFile

from partita.run.run import ROOT, RunResult, run_config

FUZZ_CONFIG = ROOT / "tests" / "system" / "fuzz" / "fuzz.yaml"
RAM_BASE = 0x8000_0000  # QEMU virt: guest RAM starts here; the RAM file's offset 0
IMMUTABLE = (".text", ".rodata", ".utext", ".urodata")
VICTIMS = ("v_fast", "v_low", "v_other", "k_fir")


@dataclass
class Verdict:
    seed: int
    calls_wanted: int
    calls_done: int = 0
    replaced: int = 0
    done_at_cycles: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        state = "ok" if self.ok else "FAILED: " + "; ".join(self.problems)
        return (f"seed {self.seed}: {self.calls_done} calls in {self.done_at_cycles:,} cycles "
                f"({self.replaced} workers replaced) -> {state}")


def changed_sections(elf: Path, ram_file: Path) -> list[str]:
    """Names of the read-only sections whose bytes in guest RAM differ from the ELF's."""
    out = []
    with open(elf, "rb") as f, open(ram_file, "rb") as ram:
        for sec in ELFFile(f).iter_sections():
            if sec.name not in IMMUTABLE or not sec["sh_size"]:
                continue
            ram.seek(sec["sh_addr"] - RAM_BASE)
            if ram.read(sec["sh_size"]) != sec.data():
                out.append(sec.name)
    return out


def kernel_counts(console: str) -> dict[str, tuple[int, int, int]]:
    """name -> (jobs done, misses, overruns) from the kernel's end-of-run summary."""
    return {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4))) for m in re.finditer(
        r"^task (\w+) jobs=(\d+) misses=(\d+) overruns=(\d+)", console, re.MULTILINE)}


def judge(r: RunResult, seed: int, calls: int) -> Verdict:
    """Everything a campaign must leave intact (module docstring)."""
    v = Verdict(seed=seed, calls_wanted=calls)
    console = r.boot.console
    if "KERNEL PANIC" in console or not r.boot.clean:
        v.problems.append(f"guest did not end cleanly ({r.describe().splitlines()[0]})")
    done = re.search(r"^fuzz: done calls=(\d+) replaced=(\d+)$", console, re.MULTILINE)
    if done:
        v.calls_done, v.replaced = int(done.group(1)), int(done.group(2))
    at = re.search(r"^fuzz: done_at_cycles=(\d+) ", console, re.MULTILINE)
    if at:
        v.done_at_cycles = int(at.group(1))
    if v.calls_done < calls:
        v.problems.append(f"campaign incomplete: {v.calls_done} of {calls} calls (livelock?)")
    counts = kernel_counts(console)
    for name in VICTIMS:
        got = counts.get(name)
        if got is None or got[0] == 0:
            v.problems.append(f"victim {name} did not run")
        elif got[1] or got[2]:
            v.problems.append(f"victim {name}: {got[1]} misses, {got[2]} overruns")
    if "hostile: FAIL" in console:
        v.problems.append("a victim found its memory changed")
    if changed_sections(r.build.elf, r.build.ram_file):
        v.problems.append("kernel or user code / read-only data changed: "
                          + ", ".join(changed_sections(r.build.elf, r.build.ram_file)))
    return v


def campaign(seed: int, calls: int, out: Path) -> Verdict:
    """Boot the fuzzer with `seed` for `calls` calls; judge the run."""
    cfg = yaml.safe_load(FUZZ_CONFIG.read_text())
    cfg["name"] = f"t_fuzz_s{seed}"
    # the patched copy is written elsewhere: its `apps:` stay the fuzz subject's folders
    cfg["apps"] = [str((FUZZ_CONFIG.parent / a).resolve()) for a in cfg.get("apps", [])]
    thousands = max(1, calls // 1000)
    # virtual time: ~35 us per call measured (workers block, sleep and get replaced), x1.5
    cfg["run_for_ms"] = max(500, thousands * 53)
    for t in cfg["threads"]:
        if t["name"] == "fuzz_main":
            t["arg"] = seed << 32 | thousands
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{cfg['name']}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    r = run_config(path, out / cfg["name"], png=False, bounds=False)
    return judge(r, seed, thousands * 1000)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", default="2-4", help="seeds, e.g. 7 or 2-9 (default 2-4)")
    p.add_argument("--calls", type=int, default=1_000_000, help="calls per seed")
    p.add_argument("--out", type=Path, default=ROOT / "out" / "fuzz")


def _seeds(spec: str) -> list[int]:
    lo, _, hi = spec.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def run(args: argparse.Namespace) -> int:
    bad = 0
    for seed in _seeds(args.seeds):
        v = campaign(seed, args.calls, args.out)
        print(v.line(), flush=True)
        bad += not v.ok
    return 1 if bad else 0
