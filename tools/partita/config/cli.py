"""`partita config FILE [-o DIR]`: validate a configuration and generate its C tables."""

from __future__ import annotations

import argparse
import sys

from partita.config import ConfigError, load_resolved, write_outputs
from partita.config.loader import load


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="system configuration (YAML)")
    p.add_argument("-o", "--out", help="output directory (default build/<name>/gen)")
    p.add_argument("--check", action="store_true", help="validate only, write nothing")
    p.add_argument("--colors", action="store_true",
                   help="print the color map (who owns which cache colors, kernel included)")


def run(args: argparse.Namespace) -> int:
    try:
        system = load_resolved(args.file)
    except ConfigError as e:
        for line in e.lines():
            print(f"error: {line}", file=sys.stderr)
        return 2
    if args.colors:
        print(color_map_text(args.file))
    if args.check:
        print(f"{args.file}: ok ({len(system.threads)} threads, {len(system.scheds)} schedulers)")
        return 0
    out = args.out or f"build/{system.name}/gen"
    files = write_outputs(system, out)
    print(f"{args.file}: ok -> " + ", ".join(str(f) for f in files))
    return 0


def color_map_text(file: str) -> str:
    """The color map of a configuration that loaded (and so passed the overlap check)."""
    from partita.config.colormap import color_map, render

    cfg = load(file)
    return render(color_map(cfg)[0], cfg)
