"""A bounded system-call fuzzing campaign (fuzz.c, partita.fuzz): 100,000 seeded
random calls from a user partition; the kernel survives, the victims keep their deadlines
and memory, the kernel's code and read-only data are unchanged in guest RAM."""

from __future__ import annotations

from pathlib import Path

from partita.fuzz import campaign, changed_sections


def test_bounded_campaign_leaves_everything_intact(tmp_path: Path) -> None:
    v = campaign(seed=1, calls=100_000, out=tmp_path)
    assert v.ok, v.line()
    assert v.calls_done >= 100_000
    assert v.replaced > 0  # the campaign did reach calls that block for good, and went on


def test_image_check_sees_a_changed_byte(tmp_path: Path) -> None:
    # the judge's RAM comparison is not vacuous: one flipped byte of .text is found
    from partita.run.run import ROOT

    elf = next((ROOT / "build").glob("t_fuzz_s1/partita.elf"))
    ram = tmp_path / "ram.bin"
    ram.write_bytes((elf.parent / "ram.bin").read_bytes())
    assert changed_sections(elf, ram) == []
    data = bytearray(ram.read_bytes())
    data[0x100] ^= 0xFF  # 0x80000100: kernel .text
    ram.write_bytes(bytes(data))
    assert changed_sections(elf, ram) == [".text"]
