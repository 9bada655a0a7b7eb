"""Who owns which cache colors: the color map of a configuration and its overlap check.

Owners are the kernel (`kernel_colors`; none listed = uncolored, spread over every color; with
`kernel_data: uncolored` the kernel still owns its colors, so no partition gets them, but its
data spreads over every color: the paper's scenario S2) and each partition that lists
`colors:`. Their sets must be disjoint, except for colors listed in `shared_colors`. The
default partition `system` (threads without a partition) and every partition that lists no
colors draw from the *default pool*: the colors nobody owns. A configuration that needs the
default pool and leaves it empty is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from partita.config.errors import Path, Problem
from partita.config.schema import SystemCfg

SYSTEM_PARTITION = "system"
KERNEL = "kernel"


@dataclass
class ColorMap:
    ncolors: int
    kernel: set[int] | None                      # None: uncolored (every color)
    owned: dict[str, set[int]] = field(default_factory=dict)  # partitions listing colors
    shared: set[int] = field(default_factory=set)
    default_pool: set[int] = field(default_factory=set)
    default_users: list[str] = field(default_factory=list)    # partitions on the pool

    def colors_of(self, partition: str) -> set[int]:
        """The colors a partition's pages come from."""
        if partition in self.owned:
            return self.owned[partition]
        return self.default_pool


def _parse(specs: list[int | str], ncolors: int, path: Path) -> tuple[set[int], list[Problem]]:
    from partita.config.checks import parse_colors  # checks imports this module

    return parse_colors(specs, ncolors, path)


def fmt_colors(colors: set[int]) -> str:
    """{0, 1, 2, 5} -> '0-2,5'."""
    runs: list[list[int]] = []
    for c in sorted(colors):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs) or "none"


def _needs_default(cfg: SystemCfg, name: str) -> bool:
    p = next((p for p in cfg.partitions if p.name == name), None)
    if p is not None and (p.heap or p.heap_bytes or p.user):
        return True
    return any(t.partition == name for t in cfg.threads)


def color_map(cfg: SystemCfg) -> tuple[ColorMap, list[Problem]]:
    """The color map, and the problems: an unshared overlap, an empty default pool."""
    n = cfg.cache.ncolors
    problems: list[Problem] = []
    kernel, bad = _parse(cfg.kernel_colors, n, ("kernel_colors",))
    problems += bad
    shared, bad = _parse(cfg.shared_colors, n, ("shared_colors",)) if cfg.shared_colors \
        else (set(), [])
    problems += bad
    cm = ColorMap(ncolors=n, kernel=kernel if cfg.kernel_colors else None, shared=shared)
    owners: list[tuple[str, Path, set[int]]] = []
    if cm.kernel is not None:
        owners.append((KERNEL, ("kernel_colors",), cm.kernel))
    for i, p in enumerate(cfg.partitions):
        if p.colors:
            colors, bad = _parse(p.colors, n, ("partitions", i, "colors"))
            problems += bad
            cm.owned[p.name] = colors
            owners.append((p.name, ("partitions", i, "colors"), colors))
    for j, (b, path, cb) in enumerate(owners):
        for a, _, ca in owners[:j]:
            clash = (ca & cb) - shared
            if clash:
                problems.append(Problem(path, (
                    f"colors {fmt_colors(clash)} of {b!r} are also owned by {a!r}: give each owner "
                    f"its own colors, or list the colors in shared_colors to share them")))
    taken: set[int] = set().union(*(c for _, _, c in owners)) if owners else set()
    cm.default_pool = set(range(n)) - taken
    names = [SYSTEM_PARTITION] + [p.name for p in cfg.partitions if p.name != SYSTEM_PARTITION]
    cm.default_users = [x for x in names if x not in cm.owned]
    needy = [x for x in cm.default_users if _needs_default(cfg, x)]
    if not cm.default_pool and needy:
        problems.append(Problem(("partitions",), (
            f"no color is left for {', '.join(repr(x) for x in needy)} (the default pool: "
            f"colors no partition and not the kernel owns); all {n} colors are owned by "
            f"{', '.join(o for o, _, _ in owners)}: free some colors, or give "
            f"{needy[0]!r} its own colors")))
    return cm, problems


def render(cm: ColorMap, cfg: SystemCfg) -> str:
    """The color map as `partita config --colors` prints it."""
    c = cfg.cache
    geom = (f"{c.size_bytes // 1024} KiB {c.ways}-way cache, {c.page_bytes}-byte pages, "
            f"{c.hw_colors} hardware colors" if c.size_bytes else "no cache geometry given")
    lines = [f"colors: {cm.ncolors} ({geom})"]
    rows: list[tuple[str, str, str]] = []
    if cm.kernel is None:
        rows.append((KERNEL, "all (uncolored)", "no kernel_colors: kernel data on every color"))
    elif cfg.kernel_data == "uncolored":
        rows.append((KERNEL, fmt_colors(cm.kernel),
                     "kernel_colors, reserved; kernel data uncolored: on every color"))
    else:
        rows.append((KERNEL, fmt_colors(cm.kernel), "kernel_colors: kernel data colored"))
    for name, colors in cm.owned.items():
        rows.append((name, fmt_colors(colors), f"{len(colors)} colors"))
    for name in cm.default_users:
        rows.append((name, fmt_colors(cm.default_pool), "default pool (colors nobody owns)"))
    width = max(len(r[0]) for r in rows)
    lines += [f"  {a:<{width}}  {b:<16} {note}" for a, b, note in rows]
    if cm.shared:
        lines.append(f"  shared: {fmt_colors(cm.shared)}")
    return "\n".join(lines)
