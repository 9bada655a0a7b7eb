"""`partita build CFG.yaml`: generate the tables into build/<name>/gen, then build the image
with `make -f mk/kernel.mk BUILD=build/<name>` (make rebuilds only what changed)."""

from __future__ import annotations

import argparse
import fcntl
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from partita.config import ConfigError, Resolved, load_resolved, write_outputs

ROOT = Path(__file__).resolve().parents[2]  # the repository (tools/partita/build.py)


class BuildError(Exception):
    pass


def report_errors(fn: Callable[[], int]) -> int:
    """Run a verb's body; a bad configuration exits 2 and a failed build 1, each with its
    message on stderr (a ConfigError names the file, the field and the problem)."""
    try:
        return fn()
    except ConfigError as e:
        for line in e.lines():
            print(f"error: {line}", file=sys.stderr)
        return 2
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


@dataclass
class Build:
    system: Resolved
    build_dir: Path

    @property
    def elf(self) -> Path:
        return self.build_dir / "partita.elf"

    @property
    def ram_file(self) -> Path:
        return self.build_dir / "ram.bin"

    @property
    def gen_dir(self) -> Path:
        return self.build_dir / "gen"


@contextmanager
def locked(build_dir: Path) -> Iterator[None]:
    """Serialise builds and boots of one configuration (parallel test workers share it)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build_dir_for(name: str, trace: bool = True) -> Path:
    """build/<name>, or build/<name>-notrace for the image with tracing compiled out."""
    return ROOT / "build" / (name if trace else f"{name}-notrace")


def build(cfg_path: str | Path, *, quiet: bool = False, jobs: int | None = None,
          trace: bool = True) -> Build:
    """Generate and compile. Raises ConfigError (bad YAML) or BuildError (make failed).
    `trace=False` builds with every trace record compiled out (make PT_TRACE=0) in its own
    directory. Callers that also boot should hold `locked(build_dir)` around both."""
    system = load_resolved(cfg_path)
    b = Build(system, build_dir_for(system.name, trace))
    write_outputs(system, b.gen_dir)
    jobs = jobs or int(os.environ.get("PARTITA_JOBS", "2"))
    cmd = ["make", "--no-print-directory", f"-j{jobs}", "-f", "mk/kernel.mk",
           f"BUILD={b.build_dir.relative_to(ROOT)}", f"PT_TRACE={1 if trace else 0}"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if not quiet and proc.stdout.strip():
        # one summary line; PARTITA_VERBOSE=1 shows every compiler command
        if os.environ.get("PARTITA_VERBOSE"):
            print(proc.stdout.rstrip())
        else:
            steps = sum(1 for ln in proc.stdout.splitlines() if " -c -o " in ln)
            print(f"{b.build_dir.relative_to(ROOT)}: compiled {steps} file(s), "
                  f"linked {b.elf.name}")
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-40:])
        raise BuildError(f"kernel build failed ({' '.join(cmd)}):\n{tail}")
    if not b.elf.exists():
        raise BuildError(f"make succeeded but {b.elf} is missing")
    return b


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="system configuration (YAML)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel make jobs (default 2)")


def run(args: argparse.Namespace) -> int:
    def body() -> int:
        build_dir = ROOT / "build" / load_resolved(args.config).name
        with locked(build_dir):
            b = build(args.config, jobs=args.jobs)
        print(f"built {b.elf.relative_to(ROOT)}")
        return 0

    return report_errors(body)
