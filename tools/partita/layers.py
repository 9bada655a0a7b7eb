"""Layer rules of the C tree, checked by `make lint` (`python -m partita.layers`).

1. No `#include "../..."` reaches into another top-level folder (kernel/, arch/, platform/,
   subsys/, apps/, compat/): a layer talks to another through the public headers in
   kernel/include/partita/, never through a relative path into its files.
2. kernel/ includes nothing from arch/ or platform/: quoted includes resolve inside kernel/,
   angle includes are freestanding compiler headers or <partita/...> headers of
   kernel/include/partita/. The one exception is <partita/hal_inline.h>, the inline HAL the
   architecture provides on purpose (docs/architecture.md, "HAL").
3. The CLINT (the timer comparators and IPI words that QEMU's icount turn-taking reacts to)
   has its addresses in one header, platform/qemu-virt/virt.h: a hex literal inside the
   CLINT's window anywhere else is a raw CLINT access that bypasses the HAL (service harts
   use partita/hal_svc.h, the scheduler's harts hal_timer_arm / hal_ipi_send).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("kernel", "arch", "platform", "subsys", "apps", "compat")
FREESTANDING = {"stdint.h", "stddef.h", "stdbool.h", "stdarg.h", "stdalign.h", "stdnoreturn.h",
                "limits.h", "float.h", "iso646.h"}
SANCTIONED = {"partita/hal_inline.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
HEX = re.compile(r"\b0[xX]([0-9a-fA-F]+)")
CLINT_WINDOW = (0x02000000, 0x02010000)  # QEMU virt CLINT: msip, mtimecmp, mtime
CLINT_HEADER = "platform/qemu-virt/virt.h"


def violations(root: Path = ROOT) -> list[str]:
    """One line per broken rule: 'file:line: what'."""
    out = []
    for top in TOP:
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in (".c", ".h", ".S") or not f.is_file():
                continue
            text = f.read_text(errors="replace")
            rel = f.relative_to(root)
            if rel.as_posix() != CLINT_HEADER:
                for m in HEX.finditer(text):
                    if CLINT_WINDOW[0] <= int(m.group(1), 16) < CLINT_WINDOW[1]:
                        line = text.count("\n", 0, m.start()) + 1
                        out.append(f"{rel}:{line}: {m.group(0)} is a CLINT address outside "
                                   f"{CLINT_HEADER} (use the HAL)")
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                kind, name = m.group(1), m.group(2)
                where = f"{rel}:{line}"
                if kind == '"' and ".." in Path(name).parts:
                    target = (f.parent / name).resolve()
                    try:
                        if target.relative_to(root).parts[0] != top:
                            out.append(f'{where}: "{name}" reaches into another top-level folder')
                    except ValueError:
                        out.append(f'{where}: "{name}" reaches outside the tree')
                if top != "kernel":
                    continue
                if kind == '"':
                    if not any((base / name).is_file()
                               for base in (f.parent, root / "kernel", root / "kernel/include")):
                        out.append(f'{where}: "{name}" is not a kernel/ header')
                elif name not in FREESTANDING and name not in SANCTIONED and not (
                        name.startswith("partita/")
                        and (root / "kernel/include" / name).is_file()):
                    out.append(f"{where}: <{name}> is not a kernel/include/partita header "
                               "(kernel/ never includes arch/ or platform/ headers)")
    return out


def main() -> int:
    bad = violations()
    for v in bad:
        print(v, file=sys.stderr)
    if bad:
        print(f"layers: {len(bad)} include(s) break the layer rules (partita/layers.py)",
              file=sys.stderr)
        return 1
    print("layers: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
