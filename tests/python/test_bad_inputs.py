"""Host tools on bad input (issue 7 item 8): never a traceback, one line naming the file and
the problem, exit code 2. Plus bounded, derandomized hypothesis fuzzing of the trace decoder
(`make fuzz-host` runs the same properties with many more examples)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from partita.cli import main
from partita.trace.format import (
    AREA_HEADER,
    RING_HEADER,
    Area,
    Ev,
    Ring,
    TraceFormatError,
    pack,
)
from partita.trace.format import REC as RECDT
from test_trace import CPU0, CPU1, image

FUZZ = int(os.environ.get("PARTITA_FUZZ_EXAMPLES", "0"))  # make fuzz-host sets it
FUZZ_SETTINGS = settings(max_examples=FUZZ or 150, derandomize=True, deadline=None,
                         suppress_health_check=list(HealthCheck))


def seed_trace() -> bytes:
    """A valid trace.bin: two harts, jobs, a migration, a miss."""
    def ring(cpu: int, recs: list[tuple[int, int, int, int, int]]) -> Ring:
        arr = np.zeros(len(recs), dtype=RECDT)
        for i, (ts, typ, tid, a0, a1) in enumerate(recs):
            arr[i] = (ts, typ, cpu, tid, a0, a1)
        return Ring(cpu, len(recs), 0, arr)
    return pack(Area(2, 1_000_000_000, 0, [ring(0, CPU0), ring(1, CPU1)]))


def one_error_line(capsys: pytest.CaptureFixture[str], code: int, *names: str) -> str:
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: ")
    for n in names:
        assert n in err, err
    return err


# --- trace files ---------------------------------------------------------------------------

@pytest.mark.parametrize("verb", ["trace", "report"])
def test_empty_trace_bin(tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str) -> None:
    (tmp_path / "trace.bin").write_bytes(b"")
    args = [verb, str(tmp_path)] + (["--no-png"] if verb == "trace" else [])
    err = one_error_line(capsys, main(args), "trace.bin")
    assert "empty" in err


@pytest.mark.parametrize("cut", [10, 64, 64 + 32, 200, -1])
def test_truncated_trace_bin(tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: int) -> None:
    data = seed_trace()
    (tmp_path / "trace.bin").write_bytes(data[:cut])
    err = one_error_line(capsys, main(["report", str(tmp_path)]), "trace.bin")
    assert "truncated" in err


def test_hart_count_exceeding_the_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(seed_trace())
    np.frombuffer(data, dtype=AREA_HEADER, count=1)["ncpus"] = 5
    (tmp_path / "trace.bin").write_bytes(bytes(data))
    err = one_error_line(capsys, main(["report", str(tmp_path)]), "trace.bin")
    assert "5 harts" in err


def test_hart_count_beyond_the_format(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(seed_trace())
    np.frombuffer(data, dtype=AREA_HEADER, count=1)["ncpus"] = 4000
    (tmp_path / "trace.bin").write_bytes(bytes(data))
    one_error_line(capsys, main(["trace", str(tmp_path), "--no-png"]), "4000 harts")


def test_trailing_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "trace.bin").write_bytes(seed_trace() + b"junk")
    one_error_line(capsys, main(["report", str(tmp_path)]), "trace.bin", "unexpected bytes")


def test_missing_trace_bin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_error_line(capsys, main(["report", str(tmp_path)]), "trace.bin", "cannot read")


def test_bad_pt_config_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "trace.bin").write_bytes(seed_trace())
    (tmp_path / "pt_config.json").write_bytes(b"\xff{")
    one_error_line(capsys, main(["report", str(tmp_path)]), "pt_config.json")


def _ram_with_area(tmp_path: Path, area: bytearray) -> tuple[Path, Path]:
    """A RAM file holding `area` at pt_trace_area of a tiny ELF built here."""
    import shutil
    import subprocess

    from partita.run.qemu import RAM_BASE, symbol
    from partita.trace.format import AREA_BYTES

    cc = "riscv64-unknown-elf-gcc"
    if shutil.which(cc) is None:
        pytest.fail(f"{cc} missing: run scripts/bootstrap.sh")
    src = tmp_path / "area.S"
    src.write_text(f".globl _start\n.text\n_start: j _start\n.bss\n.balign 4096\n"
                   f".globl pt_trace_area\npt_trace_area: .skip {AREA_BYTES}\n")
    elf = tmp_path / "k.elf"
    subprocess.run([cc, "-nostdlib", "-Wl,-Ttext=0x80000000", "-o", str(elf), str(src)],
                   check=True)
    addr, _ = symbol(elf, "pt_trace_area")
    ram = tmp_path / "ram"
    with open(ram, "wb") as f:
        f.truncate(addr - RAM_BASE + len(area) + 4096)
        f.seek(addr - RAM_BASE)
        f.write(area)
    return ram, elf


def test_ring_head_2_64_minus_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    area = image([CPU0, CPU1])
    rh = np.frombuffer(area, dtype=RING_HEADER, count=1, offset=AREA_HEADER.itemsize)
    rh["head"] = 2**64 - 1
    ram, elf = _ram_with_area(tmp_path, area)
    code = main(["trace", str(ram), str(elf), "-o", str(tmp_path / "o"), "--no-png"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code in (0, 2), err  # decodes the last RING_RECORDS slots, never overflows


def test_bad_elf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ram = tmp_path / "ram"
    ram.write_bytes(b"\0" * 4096)
    for i, content in enumerate([b"", b"\x7fELF" + b"\xff" * 60, b"not an elf at all"]):
        elf = tmp_path / f"bad{i}.elf"
        elf.write_bytes(content)
        one_error_line(capsys, main(["trace", str(ram), str(elf), "--no-png"]),
                       f"bad{i}.elf")


def test_ram_file_too_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ram, elf = _ram_with_area(tmp_path, image([CPU0]))
    with open(ram, "r+b") as f:
        f.truncate(100)
    one_error_line(capsys, main(["trace", str(ram), str(elf), "--no-png"]), str(ram))


# --- fuzzing the decoder -------------------------------------------------------------------

def _decode_everything(tmp_path: Path, data: bytes) -> None:
    """unpack, timeline, report, perfetto, gantt: never anything but a TraceFormatError."""
    from partita.run.report import as_json, collect
    from partita.trace import perfetto
    from partita.trace.format import unpack
    from partita.trace.timeline import build

    try:
        area = unpack(data, what="fuzz.bin")
    except TraceFormatError as e:
        assert "\n" not in str(e)
        return
    tl = build(area)
    stats = collect(tl)
    as_json(stats, tl)
    perfetto.to_events(tl)


@FUZZ_SETTINGS
@given(st.data())
def test_fuzz_mutated_trace_never_crashes(tmp_path_factory: pytest.TempPathFactory,
                                          data: st.DataObject) -> None:
    raw = bytearray(seed_trace())
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        raw[pos] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    _decode_everything(tmp_path_factory.getbasetemp(), bytes(raw))


@FUZZ_SETTINGS
@given(st.binary(max_size=600))
def test_fuzz_random_bytes_never_crash(tmp_path_factory: pytest.TempPathFactory,
                                       blob: bytes) -> None:
    _decode_everything(tmp_path_factory.getbasetemp(), blob)


REC_ST = st.tuples(st.integers(0, 2**64 - 1), st.sampled_from([int(e) for e in Ev] + [0, 99]),
                   st.integers(0, 9), st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1),
                   st.integers(0, 2**64 - 1))


@FUZZ_SETTINGS
@given(st.lists(REC_ST, max_size=40), st.integers(0, 2**64 - 1), st.sampled_from([0, 1, 1_000_000_000, 10**12, 2**63]))
def test_fuzz_random_records_never_crash(tmp_path_factory: pytest.TempPathFactory,
                                         recs: list[tuple[int, ...]], head: int,
                                         cps: int) -> None:
    arr = np.array(recs, dtype=RECDT) if recs else np.zeros(0, dtype=RECDT)
    data = pack(Area(1, cps, 0, [Ring(0, max(head, len(recs)), 0, arr)]))
    _decode_everything(tmp_path_factory.getbasetemp(), data)


def test_drainer_copies_records_and_advances_tail(tmp_path: Path) -> None:
    """TraceDrainer on a RAM file: takes [tail, head), writes tail = head, and area() joins
    the drained records with those written afterwards, in order, without duplicates."""
    from partita.run.qemu import TraceDrainer
    from partita.trace.format import RING_BYTES, RING_RECORDS

    area = image([CPU0, CPU1])
    ram, elf = _ram_with_area(tmp_path, area)
    d = TraceDrainer(ram, elf)
    d.poll()
    assert d.count == len(CPU0) + len(CPU1)
    from partita.run.qemu import RAM_BASE, symbol

    base = symbol(elf, "pt_trace_area")[0] - RAM_BASE
    with open(ram, "r+b") as f:
        f.seek(base)
        buf = bytearray(f.read(AREA_HEADER.itemsize + 2 * RING_BYTES))
        rh0 = np.frombuffer(buf, dtype=RING_HEADER, count=1, offset=AREA_HEADER.itemsize)
        assert int(rh0["tail"][0]) == int(rh0["head"][0]) == len(CPU0)
        # the guest writes two more records on hart 0, wrapping nothing
        recs = np.frombuffer(buf, dtype=RECDT, count=RING_RECORDS,
                             offset=AREA_HEADER.itemsize + RING_HEADER.itemsize)
        recs[len(CPU0)] = (5000, Ev.MARK, 0, 0, 1, 0)
        recs[len(CPU0) + 1] = (5001, Ev.MARK, 0, 0, 2, 0)
        rh0["head"] = len(CPU0) + 2
        f.seek(base)
        f.write(buf)
    d.poll()
    a = d.area()
    r0 = a.rings[0]
    assert len(r0.records) == len(CPU0) + 2 and r0.tail == 0
    assert list(r0.records["ts"][-2:]) == [5000, 5001]
    assert list(r0.records["ts"][: len(CPU0)]) == [r[0] for r in CPU0]
