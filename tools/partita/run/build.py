"""`partita build CFG.yaml [--app-dir DIR]`: generate the tables into build/<name>/gen, choose
the application directories to link (build/<name>/apps.mk, see partita.config.apps), then
build the image with `make -f mk/kernel.mk BUILD=build/<name>` (make rebuilds only what
changed). A failed build prints its first real error first (the compiler's or the linker's
first `error:` / `undefined reference` line), then the tail of the output."""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from partita.config import ConfigError, Resolved, load_resolved, write_outputs
from partita.config.apps import link_dirs, search_path

ROOT = Path(__file__).resolve().parents[3]  # the repository (tools/partita/run/build.py)


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


def build_dir_for(name: str, trace: bool = True, asserts: bool = True) -> Path:
    """build/<name>; build/<name>-notrace for the image with tracing (and the core's
    PT_ASSERTs) compiled out; build/<name>-noassert for tracing on, PT_ASSERTs out."""
    if not trace:
        return ROOT / "build" / f"{name}-notrace"
    return ROOT / "build" / (name if asserts else f"{name}-noassert")


_FIRST_ERROR = re.compile(r"(: (fatal )?error: |undefined reference to |multiple definition of "
                          r"|No rule to make target |\*\*\* )")


def first_error(output: str) -> str | None:
    """The first line of a make/gcc/ld log that states an error (later ones often follow from
    it), with `undefined reference` lines naming the symbol."""
    for line in output.splitlines():
        if _FIRST_ERROR.search(line):
            return line.strip()
    return None


def write_app_dirs(system: Resolved, cfg_path: str | Path, build_dir: Path,
                   app_dirs: Sequence[str | Path] = ()) -> list[str]:
    """Write build_dir/apps.mk (APP_DIRS for mk/kernel.mk) when it changes; the labels."""
    dirs, _ = search_path(cfg_path, system.apps, app_dirs)
    chosen = link_dirs(dirs, {t.entry for t in system.threads})
    paths = []
    for d in chosen:  # in-tree apps relative, any other directory absolute (mk/kernel.mk)
        inside = d.path.is_relative_to(ROOT / "apps")
        paths.append(str(d.path.relative_to(ROOT)) if inside else str(d.path))
        if any(c.isspace() for c in paths[-1]):
            raise BuildError(f"application directory {paths[-1]!r}: make cannot build a path "
                             "with spaces; move or link it elsewhere")
    text = ("# written by partita build: the application directories of this image\n"
            f"APP_DIRS := {' '.join(paths)}\n")
    mk = build_dir / "apps.mk"
    if not mk.exists() or mk.read_text() != text:
        build_dir.mkdir(parents=True, exist_ok=True)
        mk.write_text(text)
    return [d.label for d in chosen]


def build(cfg_path: str | Path, *, quiet: bool = False, jobs: int | None = None,
          app_dirs: Sequence[str | Path] = (), trace: bool = True,
          asserts: bool = True) -> Build:
    """Generate and compile. Raises ConfigError (bad YAML) or BuildError (make failed).
    Callers that also boot should hold `locked(build_dir)` around both. `app_dirs`: the
    user's application directories outside the configuration (--app-dir). `trace=False`
    builds with every trace record compiled out (make PT_TRACE=0) in its own directory;
    `asserts=False` compiles the core's PT_ASSERTs out (make PT_ASSERTS=0; always so without
    tracing): the benchmarks' images."""
    system = load_resolved(cfg_path, app_dirs=app_dirs)
    asserts = asserts and trace
    # extra make variables (VAR=value, space separated) for test-only variants such as the
    # mutation checks of a subsystem's tests; each variant builds in its own directory
    extra = os.environ.get("PARTITA_MAKE_VARS", "").split()
    for v in extra:
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*=[A-Za-z0-9_.-]*", v):
            raise BuildError(f"PARTITA_MAKE_VARS: {v!r} is not VAR=value")
    bdir = build_dir_for(system.name, trace, asserts)
    if extra:
        bdir = bdir.with_name(bdir.name + "".join(f"-{v.replace('=', '')}" for v in extra))
    b = Build(system, bdir)
    write_outputs(system, b.gen_dir)
    write_app_dirs(system, cfg_path, b.build_dir, app_dirs)
    jobs = jobs or int(os.environ.get("PARTITA_JOBS", "2"))
    cmd = ["make", "--no-print-directory", f"-j{jobs}", "-f", "mk/kernel.mk",
           f"BUILD={b.build_dir.relative_to(ROOT)}", f"PT_TRACE={1 if trace else 0}",
           f"PT_ASSERTS={1 if asserts else 0}", *extra]
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
        # make prints the compiler commands on stdout and the diagnostics on stderr
        first = first_error(proc.stderr) or first_error(proc.stdout) or "(no error line found)"
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-40:])
        raise BuildError(f"kernel build failed: {first}\n--- last lines of "
                         f"`{' '.join(cmd)}` (PARTITA_VERBOSE=1 for every command) ---\n{tail}")
    if not b.elf.exists():
        raise BuildError(f"make succeeded but {b.elf} is missing")
    return b


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="system configuration (YAML)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel make jobs (default 2)")
    add_app_dir_argument(p)


def add_app_dir_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--app-dir", action="append", default=[], metavar="DIR",
                   help="a directory of your application's C sources, linked beside the kernel "
                   "(repeatable; or list it under apps: in the configuration)")


def run(args: argparse.Namespace) -> int:
    def body() -> int:
        build_dir = ROOT / "build" / load_resolved(args.config, app_dirs=args.app_dir).name
        with locked(build_dir):
            b = build(args.config, jobs=args.jobs, app_dirs=args.app_dir)
        print(f"built {b.elf.relative_to(ROOT)}")
        return 0

    return report_errors(body)
