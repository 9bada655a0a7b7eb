"""Build-time check that an SPM task image is position independent (brief 0).

Two independent checks, both must pass:

1. Every relocation that applies to an allocated section of the image's object files is
   PC-relative (or a branch/call, which is PC-relative on RISC-V). An absolute relocation
   (R_RISCV_64, R_RISCV_32, R_RISCV_HI20/LO12, a GOT reference, ...) would bake a link address
   into the image, so the image would break when copied to the other partition.
2. The image linked at two different base addresses gives the same bytes. This catches what
   the first check cannot see (a linker relaxation to absolute addressing, a script error).

Usage: python -m partita.subsys.spm.reloc --image NAME.bin --image-at NAME-alt.bin OBJ...
       [--max-bytes N]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

SHF_ALLOC = 0x2

# RISC-V relocation types that are position independent inside one image.
PC_RELATIVE = {
    16: "R_RISCV_BRANCH", 17: "R_RISCV_JAL", 18: "R_RISCV_CALL", 19: "R_RISCV_CALL_PLT",
    23: "R_RISCV_PCREL_HI20", 24: "R_RISCV_PCREL_LO12_I", 25: "R_RISCV_PCREL_LO12_S",
    44: "R_RISCV_RVC_BRANCH", 45: "R_RISCV_RVC_JUMP", 51: "R_RISCV_RELAX", 43: "R_RISCV_ALIGN",
    # differences of two symbols in the same image (jump-table style, .uleb128 in sections)
    33: "R_RISCV_ADD16", 34: "R_RISCV_ADD32", 35: "R_RISCV_ADD64", 36: "R_RISCV_SUB8",
    37: "R_RISCV_SUB16", 38: "R_RISCV_SUB32", 39: "R_RISCV_SUB64", 32: "R_RISCV_ADD8",
    52: "R_RISCV_SUB6", 53: "R_RISCV_SET6", 54: "R_RISCV_SET8", 55: "R_RISCV_SET16",
    56: "R_RISCV_SET32", 57: "R_RISCV_32_PCREL",
}
NAMES = {1: "R_RISCV_32", 2: "R_RISCV_64", 3: "R_RISCV_RELATIVE", 20: "R_RISCV_GOT_HI20",
         21: "R_RISCV_TLS_GOT_HI20", 22: "R_RISCV_TLS_GD_HI20", 26: "R_RISCV_HI20",
         27: "R_RISCV_LO12_I", 28: "R_RISCV_LO12_S", 29: "R_RISCV_TPREL_HI20"}


@dataclass(frozen=True)
class Absolute:
    obj: str
    section: str
    offset: int
    rtype: str
    symbol: str

    def __str__(self) -> str:
        return (f"{self.obj}: {self.section}+{self.offset:#x}: absolute relocation "
                f"{self.rtype} against '{self.symbol}'")


def absolute_relocations(obj: str | Path) -> list[Absolute]:
    """Relocations in `obj` that are not position independent (allocated sections only)."""
    out: list[Absolute] = []
    with open(obj, "rb") as f:
        elf = ELFFile(f)
        symtab = elf.get_section_by_name(".symtab")
        for sec in elf.iter_sections():
            if not isinstance(sec, RelocationSection):
                continue
            target = elf.get_section(sec["sh_info"])
            if not target["sh_flags"] & SHF_ALLOC:
                continue  # debug info: never copied into a partition
            for r in sec.iter_relocations():
                rtype = r["r_info_type"]
                if rtype in PC_RELATIVE:
                    continue
                sym = ""
                if symtab is not None and r["r_info_sym"]:
                    s = symtab.get_symbol(r["r_info_sym"])
                    sym = s.name or elf.get_section(s["st_shndx"]).name \
                        if isinstance(s["st_shndx"], int) else s.name
                out.append(Absolute(str(obj), target.name, r["r_offset"],
                                    NAMES.get(rtype, f"type {rtype}"), sym))
    return out


def check(objs: list[str], image: str | None, image_at: str | None,
          max_bytes: int | None = None) -> list[str]:
    """All problems found; empty if the image is position independent (and fits)."""
    problems = [str(a) for o in objs for a in absolute_relocations(o)]
    if image and image_at:
        a, b = Path(image).read_bytes(), Path(image_at).read_bytes()
        if a != b:
            diff = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a),
                                                                                      len(b)))
            problems.append(f"{image}: differs from the image linked at another base at byte "
                            f"{diff:#x}: the image depends on its load address")
    if image and max_bytes is not None:
        n = Path(image).stat().st_size
        if n > max_bytes:
            problems.append(f"{image}: image is {n} bytes, more than the {max_bytes} bytes "
                            "declared for it")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="partita-spm-reloc", description=__doc__.split("\n")[0])
    p.add_argument("objs", nargs="*", help="object files linked into the image")
    p.add_argument("--image", help="image linked at base 0 (binary)")
    p.add_argument("--image-at", help="the same image linked at another base (binary)")
    p.add_argument("--max-bytes", type=int, help="declared footprint")
    a = p.parse_args(argv)
    problems = check(a.objs, a.image, a.image_at, a.max_bytes)
    for line in problems:
        print(f"spm reloc: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
