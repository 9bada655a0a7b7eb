"""`partita <verb>`: one entry point; each verb lives in its own module.

A verb module provides `add_arguments(parser)` and `run(args) -> int` (the exit code).
Modules are imported only when their verb is used, so `partita config` does not pay for
numpy or matplotlib.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from typing import Any

from partita import __version__

VERBS: dict[str, tuple[str, str]] = {
    "config": ("partita.config.cli", "validate a YAML configuration and generate C tables"),
    "build": ("partita.run.build",
              "generate tables and build the kernel image for a configuration"),
    "run": ("partita.run.run", "build, boot in QEMU under icount, collect trace and report"),
    "analyze": ("partita.analysis.cli", "schedulability analysis of a configuration or task set"),
    "trace": ("partita.trace.cli", "decode trace rings into Perfetto JSON and a Gantt PNG"),
    "report": ("partita.run.report", "per-task jobs, misses, response times, bounds"),
    "soak": ("partita.run.soak", "long run with live trace draining: no loss, drift or leak"),
    "limits-header": ("partita.limits", "write kernel/include/partita/limits.h from limits.py"),
    "bench": ("partita.bench.bench", "run the benchmark suite, write JSON and Markdown"),
    "experiment": ("partita.experiments.cli", "run a named evaluation (CSV + PNG)"),
    "fuzz": ("partita.fuzz", "system-call fuzzing campaigns against the kernel"),
    "new": ("partita.new", "write a skeleton: `partita new app NAME` (source, YAML, test)"),
}


def _show_warning(message: Any, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Configuration warnings as one `warning: FILE:LINE: FIELD: ...` line on stderr."""
    if category.__name__ == "ConfigWarning":
        print(f"warning: {message}", file=sys.stderr)
    else:
        print(warnings.formatwarning(message, category, filename, lineno, line), end="",
              file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="partita", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"partita {__version__}")
    warnings.showwarning = _show_warning
    sub = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    argv = sys.argv[1:] if argv is None else argv
    wanted = argv[0] if argv and argv[0] in VERBS else None
    for verb, (modname, help_text) in VERBS.items():
        p = sub.add_parser(verb, help=help_text, description=help_text)
        if verb == wanted:
            module = importlib.import_module(modname)
            module.add_arguments(p)
            p.set_defaults(_module=module)
    args = parser.parse_args(argv)
    return int(args._module.run(args))


if __name__ == "__main__":
    sys.exit(main())
