"""Which application sources go into an image, and which functions they define.

Applications live in directories of C sources: the in-tree ones under `apps/` (automotive,
bench, coloring, examples), and any directory of the user's (`apps:` in the configuration,
relative to the configuration file or else a name under apps/, or `partita build/run
--app-dir DIR`); the system tests' programs are such directories, beside their configuration
in tests/system/<subject>/ (`apps: [.]`).
`apps/lib` (console formatting helpers for user-mode code) is always linked; a subsystem may
reserve directories of images it builds separately (`reserved_app_dirs` in partita.subsys).

An image links the kernel, `apps/lib`, every directory named by `apps:` or `--app-dir`, and
the in-tree application directories that define at least one configured `entry:`; no other
application code. The entry functions are found by a scan of the sources (comments and
preprocessor lines removed; a non-static function definition starting at column 0, the
kernel's coding style), so `partita config` can name a misspelt entry without compiling;
the link step remains the final check (`partita build` reports its first error first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
IN_TREE = ROOT / "apps"
ALWAYS = ("lib",)
ALWAYS_NOT_APPS = ("lib",)  # not selectable by entry: a library

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_PREPROC = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)
# type and name at column 0, a parameter list, then the body (not a `;` prototype)
_DEF = re.compile(r"^(?!static\b|typedef\b|extern\b)([A-Za-z_][\w \t*]*?[\s*])"
                  r"([A-Za-z_]\w*)\s*\(([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)\)\s*\{", re.MULTILINE)


def functions_in(source: str) -> list[str]:
    """Names of the non-static functions defined in a C source text."""
    text = _PREPROC.sub("", _COMMENT.sub(" ", source))
    return [m.group(2) for m in _DEF.finditer(text)
            if m.group(2) not in ("if", "for", "while", "switch", "return", "sizeof")]


@dataclass(frozen=True)
class AppDir:
    path: Path           # absolute
    explicit: bool       # named by `apps:` or --app-dir (always linked)

    @property
    def label(self) -> str:
        try:
            return str(self.path.relative_to(ROOT))
        except ValueError:
            return str(self.path)

    def sources(self) -> list[Path]:
        return sorted(p for p in self.path.rglob("*") if p.suffix in (".c", ".S")
                      and "configs" not in p.relative_to(self.path).parts)

    def functions(self) -> dict[str, Path]:
        out: dict[str, Path] = {}
        for src in self.sources():
            if src.suffix == ".c":
                for name in functions_in(src.read_text(errors="replace")):
                    out.setdefault(name, src)
            else:  # assembly: global labels
                text = src.read_text()
                for m in re.finditer(r"^\s*\.globa?l\s+([A-Za-z_]\w*)", text, re.MULTILINE):
                    out.setdefault(m.group(1), src)
        return out


def search_path(cfg_file: str | Path | None, named: Iterable[str] = (),
                extra: Sequence[str | Path] = ()) -> tuple[list[AppDir], list[str]]:
    """The application directories a configuration may draw entries from, and a problem per
    named directory that does not exist. `named` come from `apps:` (relative to the
    configuration file, else a bare name under apps/), `extra` from --app-dir."""
    dirs: list[AppDir] = []
    problems: list[str] = []
    base = Path(cfg_file).resolve().parent if cfg_file is not None else Path.cwd()
    for n in named:
        cand = base / n  # relative to the configuration file (or absolute)
        if not cand.is_dir() and "/" not in n:
            cand = IN_TREE / n  # a bare name: an in-tree application
        if not cand.is_dir():
            problems.append(f"application directory {n!r} not found ({cand})")
            continue
        dirs.append(AppDir(cand.resolve(), True))
    for e in extra:
        p = Path(e).resolve()
        if not p.is_dir():
            problems.append(f"--app-dir {e}: not a directory")
            continue
        dirs.append(AppDir(p, True))
    seen = {d.path for d in dirs}
    from partita import subsys  # directories of separately built images are no entry sources

    not_apps = {*ALWAYS_NOT_APPS, *(n for s in subsys.registered() for n in s.reserved_app_dirs)}
    for d in sorted(IN_TREE.iterdir()):
        if d.is_dir() and d.name not in not_apps and d.resolve() not in seen:
            dirs.append(AppDir(d.resolve(), False))
    return dirs, problems


def link_dirs(dirs: Sequence[AppDir], entries: Iterable[str]) -> list[AppDir]:
    """The directories to link: apps/lib, the explicit ones, and the in-tree ones that define
    one of `entries`."""
    wanted = set(entries)
    out = [AppDir((IN_TREE / a).resolve(), True) for a in ALWAYS]
    for d in dirs:
        if d.explicit or wanted & set(d.functions()):
            out.append(d)
    return out
