"""The relocation checker: an image with absolute relocations is rejected, ours pass, and an
image linked at two bases is byte-identical."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from partita.subsys.spm.reloc import absolute_relocations, check

ROOT = Path(__file__).resolve().parents[3]
CC = "riscv64-unknown-elf-gcc"
FLAGS = ["-march=rv64imac_zicsr_zifencei", "-mabi=lp64", "-mcmodel=medany", "-fno-pic",
         "-mno-relax", "-O2", "-ffreestanding", "-nostdlib", "-fno-jump-tables",
         "-I", str(ROOT / "apps" / "spm"), "-I", str(ROOT / "subsys" / "spm" / "include"),
         "-I", str(ROOT / "subsys" / "io" / "include")]

pytestmark = pytest.mark.skipif(shutil.which(CC) is None, reason="no RISC-V cross compiler")


def _cc(src: Path, out: Path) -> Path:
    subprocess.run([CC, *FLAGS, "-c", str(src), "-o", str(out)], check=True)
    return out


def test_pointer_table_is_rejected(tmp_path: Path) -> None:
    # apps/automotive/table_lookup.c keeps a table of pointers: absolute R_RISCV_64
    obj = _cc(ROOT / "apps" / "automotive" / "table_lookup.c", tmp_path / "t.o")
    bad = absolute_relocations(obj)
    assert bad and all(b.rtype == "R_RISCV_64" for b in bad)
    assert "absolute relocation R_RISCV_64" in str(bad[0])


def test_absolute_addressing_is_rejected(tmp_path: Path) -> None:
    src = tmp_path / "abs.c"
    src.write_text("int x; int *p(void) { return &x; }\n")
    subprocess.run([CC, *[f for f in FLAGS if f != "-mcmodel=medany"], "-mcmodel=medlow",
                    "-c", str(src), "-o", str(tmp_path / "abs.o")], check=True)
    bad = absolute_relocations(tmp_path / "abs.o")
    assert {b.rtype for b in bad} & {"R_RISCV_HI20", "R_RISCV_LO12_I"}


def test_spm_images_are_position_independent(tmp_path: Path) -> None:
    for name in ("loopback", "fir", "iir", "matmul", "fft", "bitmanip"):
        objs = [_cc(ROOT / "apps" / "spm" / f"{name}.c", tmp_path / f"{name}.o")]
        auto = ROOT / "apps" / "automotive" / f"{name}.c"
        if auto.exists():
            objs.append(_cc(auto, tmp_path / f"auto_{name}.o"))
        assert check([str(o) for o in objs], None, None) == [], name


def test_two_bases_must_give_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(b"\x01\x02\x03")
    b.write_bytes(b"\x01\x02\x03")
    assert check([], str(a), str(b)) == []
    b.write_bytes(b"\x01\x07\x03")
    assert "depends on its load address" in check([], str(a), str(b))[0]
    assert "more than the 2 bytes" in check([], str(a), str(a), max_bytes=2)[0]
