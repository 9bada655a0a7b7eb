"""Trace decoding on synthetic ring images built with the numpy dtypes of tracefmt.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from partita.cli import main
from partita.run.qemu import RAM_BASE, read_trace_area
from partita.trace import perfetto
from partita.trace.cli import write_artifacts
from partita.trace.format import (
    AREA_BYTES,
    AREA_HEADER,
    MAGIC,
    REC,
    RING_BYTES,
    RING_HEADER,
    RING_RECORDS,
    Ev,
    TraceFormatError,
    decode_area,
    name_from_args,
    name_to_args,
    pack,
    unpack,
)
from partita.trace.stats import job_exec_ns, task_stats
from partita.trace.timeline import build

Rec = tuple[int, int, int, int, int]  # ts, type, tid, arg0, arg1


def image(rings: list[list[Rec]], *, dropped: list[int] | None = None,
          tails: list[int] | None = None, cps: int = 1_000_000_000, exit_code: int = 0
          ) -> bytearray:
    """A `struct pt_trace_area` as the kernel leaves it in RAM."""
    buf = bytearray(AREA_BYTES)
    hdr = np.frombuffer(buf, dtype=AREA_HEADER, count=1)
    hdr["magic"], hdr["ncpus"], hdr["rec_size"] = MAGIC, len(rings), REC.itemsize
    hdr["cycles_per_sec"], hdr["records_per_ring"], hdr["exit_code"] = cps, RING_RECORDS, exit_code
    for cpu, recs in enumerate(rings):
        base = AREA_HEADER.itemsize + cpu * RING_BYTES
        rh = np.frombuffer(buf, dtype=RING_HEADER, count=1, offset=base)
        tail = tails[cpu] if tails else 0
        rh["head"], rh["tail"] = tail + len(recs), tail
        rh["dropped"] = dropped[cpu] if dropped else 0
        arr = np.frombuffer(buf, dtype=REC, count=RING_RECORDS, offset=base + RING_HEADER.itemsize)
        for i, (ts, typ, tid, a0, a1) in enumerate(recs):
            slot = (tail + i) % RING_RECORDS
            arr[slot] = (ts, typ, cpu, tid, a0, a1)
    return buf


def info(ts: int, tid: int, name: str) -> Rec:
    a0, a1 = name_to_args(name)
    return (ts, Ev.THREAD_INFO, tid, a0, a1)


# Two periodic threads (period 1000 ns): alpha on cpu0; beta migrates cpu0 -> cpu1 and misses.
CPU0: list[Rec] = [
    (0, Ev.BOOT, 0, 2, 0),
    info(1, 1, "alpha"),
    info(2, 2, "beta_long_name16"),
    (10, Ev.RELEASE, 1, 0, 1010),
    (10, Ev.RELEASE, 2, 0, 510),
    (12, Ev.DISPATCH, 1, 0, 0),
    (200, Ev.COMPLETE, 1, 0, 190),
    (201, Ev.DISPATCH, 2, 0, 0),
    (300, Ev.PREEMPT, 2, 1, 0),
    (300, Ev.DISPATCH, 1, 0, 0),
    (1010, Ev.RELEASE, 1, 1, 2010),
    (1300, Ev.COMPLETE, 1, 1, 290),
    (1301, Ev.IDLE, 0, 0, 0),
]
CPU1: list[Rec] = [
    (305, Ev.MIGRATE, 2, 0, 1),
    (306, Ev.DISPATCH, 2, 0, 0),
    (510, Ev.DEADLINE_MISS, 2, 0, 510),
    (700, Ev.COMPLETE, 2, 0, 690),
    (701, Ev.IDLE, 0, 0, 0),
]


@pytest.fixture
def area_bytes() -> bytearray:
    return image([CPU0, CPU1], dropped=[0, 3])


def test_decode_counts_and_drops(area_bytes: bytearray) -> None:
    a = decode_area(area_bytes)
    assert a.ncpus == 2 and a.cycles_per_sec == 1_000_000_000
    assert [len(r.records) for r in a.rings] == [len(CPU0), len(CPU1)]
    assert a.lost == 3 and a.rings[1].dropped == 3
    assert build(a).lost == 3


def test_merged_in_time_order(area_bytes: bytearray) -> None:
    m = decode_area(area_bytes).merged()
    assert len(m) == len(CPU0) + len(CPU1)
    assert (np.diff(m["ts"].astype(np.int64)) >= 0).all()
    # equal timestamps on one hart keep write order: PREEMPT before DISPATCH at 300
    at300 = m[m["ts"] == 300]
    assert list(at300["type"]) == [Ev.PREEMPT, Ev.DISPATCH]


def test_tail_skips_consumed_records_and_wraps() -> None:
    recs = [(i, Ev.MARK, 0, i, 0) for i in range(10)]
    a = decode_area(image([recs], tails=[RING_RECORDS - 4]))
    r = a.rings[0]
    assert r.head == RING_RECORDS + 6
    assert list(r.records["arg0"]) == list(range(10))  # across the wrap, in write order


def test_bad_magic_and_layout() -> None:
    buf = image([CPU0])
    buf[0] ^= 0xFF
    with pytest.raises(TraceFormatError, match="magic"):
        decode_area(buf)
    buf = image([CPU0])
    np.frombuffer(buf, dtype=AREA_HEADER, count=1)["rec_size"] = 24
    with pytest.raises(TraceFormatError, match="layout"):
        decode_area(buf)


def test_names(area_bytes: bytearray) -> None:
    tl = build(decode_area(area_bytes))
    assert tl.names == {1: "alpha", 2: "beta_long_name16"}
    assert name_from_args(*name_to_args("x")) == "x"


def test_jobs_and_response_times(area_bytes: bytearray) -> None:
    tl = build(decode_area(area_bytes))
    stats = task_stats(tl)
    a, b = stats["alpha"], stats["beta_long_name16"]
    assert (a.released, a.completed, a.misses) == (2, 2, 0)
    assert (a.min_response_ns, a.max_response_ns, a.avg_response_ns) == (190, 290, 240)
    assert a.max_lateness_ns == 1300 - 2010
    assert a.cpus == [0] and a.migrations == 0
    assert (b.released, b.completed, b.misses) == (1, 1, 1)
    assert b.max_response_ns == 690 and b.max_lateness_ns == 190
    assert b.cpus == [0, 1] and b.migrations == 1


def test_job_execution_times(area_bytes: bytearray) -> None:
    tl = build(decode_area(area_bytes))
    assert job_exec_ns(tl, 1) == [188, 290]  # slices clipped to [release, completion]
    assert job_exec_ns(tl, 2) == [99 + 394]  # before and after its migration
    assert task_stats(tl)["alpha"].max_exec_ns == 290


def test_slices(area_bytes: bytearray) -> None:
    tl = build(decode_area(area_bytes))
    got = sorted((s.tid, s.cpu, s.start_ns, s.end_ns) for s in tl.slices)
    assert got == [(1, 0, 12, 201), (1, 0, 300, 1301), (2, 0, 201, 300), (2, 1, 306, 701)]


def test_other_timebase() -> None:
    # 10 MHz timebase: one cycle = 100 ns
    recs = [info(0, 1, "t"), (1, Ev.RELEASE, 1, 0, 11), (2, Ev.DISPATCH, 1, 0, 0),
            (5, Ev.COMPLETE, 1, 0, 4)]
    tl = build(decode_area(image([recs], cps=10_000_000)))
    st_ = task_stats(tl)["t"]
    assert st_.max_response_ns == 400 and st_.max_lateness_ns == -600


def test_perfetto_structure(area_bytes: bytearray) -> None:
    doc = perfetto.to_events(build(decode_area(area_bytes)))
    json.dumps(doc)  # serialisable
    ev = doc["traceEvents"]
    procs = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    assert procs == {"harts", "threads"}
    tnames = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
              if e["ph"] == "M" and e["name"] == "thread_name"}
    assert tnames[(perfetto.PID_HARTS, 0)] == "hart 0" and tnames[(perfetto.PID_HARTS, 1)]
    assert tnames[(perfetto.PID_THREADS, 1)] == "alpha"
    slices = [e for e in ev if e["ph"] == "X"]
    assert len(slices) == 2 * 4  # each execution slice on its hart track and its thread track
    hart1 = [e for e in slices if e["pid"] == perfetto.PID_HARTS and e["tid"] == 1]
    assert hart1 == [{"ph": "X", "pid": 1, "tid": 1, "ts": 0.306, "dur": 0.395,
                      "name": "beta_long_name16", "cat": "run",
                      "args": {"thread": "beta_long_name16", "tid": 2}}]
    inst = [(e["name"], e["tid"]) for e in ev if e["ph"] == "i" and e["pid"] == 2]
    assert inst.count(("release", 1)) == 2 and ("deadline miss", 2) in inst
    assert all(e["ts"] >= 0 for e in ev if "ts" in e)


def test_pack_unpack_identity(area_bytes: bytearray) -> None:
    a = decode_area(area_bytes)
    blob = pack(a)
    b = unpack(blob)
    assert pack(b) == blob
    assert [r.dropped for r in b.rings] == [0, 3]
    assert (b.merged() == a.merged()).all()
    assert pack(decode_area(image([CPU0, CPU1], dropped=[0, 3]))) == blob  # byte-identical


def test_artifacts_and_report_cli(area_bytes: bytearray, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    write_artifacts(decode_area(area_bytes), tmp_path)
    assert (tmp_path / "gantt.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    (tmp_path / "bounds.json").write_text(json.dumps({"test": "rta", "tasks": {
        "alpha": {"bound_ns": 250, "deadline_ns": 1000, "schedulable": True},
        "beta_long_name16": {"bound_ns": 700, "deadline_ns": 500, "schedulable": False}}}))
    assert main(["report", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["lost_records"] == 3
    assert doc["tasks"]["alpha"]["verdict"] == "EXCEEDS"  # observed 290 > bound 250
    # beta ran on hart 1, which dropped 3 records: its "ok" would be a guess
    assert doc["tasks"]["beta_long_name16"]["verdict"] == "uncertain (3 records lost)"
    assert doc["tasks"]["beta_long_name16"]["misses"] == 1
    assert main(["report", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "alpha" in out and "EXCEEDS" in out and "verdict" in out
    assert main(["trace", str(tmp_path), "--no-png"]) == 0


def test_trace_from_ram_file_and_elf(area_bytes: bytearray, tmp_path: Path) -> None:
    """The run path: the area is found by its ELF symbol in the RAM file (base 0x80000000)."""
    cc = "riscv64-unknown-elf-gcc"
    if shutil.which(cc) is None:
        pytest.fail(f"{cc} missing: run scripts/bootstrap.sh")
    src = tmp_path / "area.S"
    src.write_text(f".globl _start\n.text\n_start: j _start\n.bss\n.balign 4096\n"
                   f".globl pt_trace_area\npt_trace_area: .skip {AREA_BYTES}\n")
    elf = tmp_path / "k.elf"
    subprocess.run([cc, "-nostdlib", "-Wl,-Ttext=0x80000000", "-o", str(elf), str(src)],
                   check=True)
    from partita.run.qemu import symbol

    addr, _ = symbol(elf, "pt_trace_area")
    ram = tmp_path / "ram.bin"
    with open(ram, "wb") as f:
        f.truncate(addr - RAM_BASE + AREA_BYTES + 4096)
        f.seek(addr - RAM_BASE)
        f.write(area_bytes)
    a = read_trace_area(ram, elf)
    assert pack(a) == pack(decode_area(area_bytes))
    out = tmp_path / "out"
    assert main(["trace", str(ram), str(elf), "-o", str(out), "--no-png"]) == 0
    assert (out / "trace.bin").read_bytes() == pack(a)


rec_st = st.tuples(st.integers(0, 10**6), st.sampled_from(list(Ev)), st.integers(0, 6),
                   st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(rec_st, max_size=30), min_size=1, max_size=4),
       st.lists(st.integers(0, 100), min_size=4, max_size=4))
def test_any_rings_roundtrip(rings: list[list[Rec]], dropped: list[int]) -> None:
    rings = [sorted(r, key=lambda x: x[0]) for r in rings]  # each hart's clock is monotonic
    a = decode_area(image(rings, dropped=dropped[: len(rings)]))
    m = a.merged()
    assert len(m) == sum(len(r) for r in rings)
    assert (np.diff(m["ts"].astype(np.int64)) >= 0).all()
    assert a.lost == sum(dropped[: len(rings)])
    assert pack(unpack(pack(a))) == pack(a)
    tl = build(a)  # never raises on arbitrary event sequences
    for s in tl.slices:
        assert s.start_ns <= s.end_ns
    task_stats(tl)


def test_rings_in_colored_pages_through_the_directory(area_bytes: bytearray,
                                                       tmp_path: Path) -> None:
    """Colored kernel data: the kernel moves each ring into pages of the kernel colors (not
    contiguous, in any order) and lists them in the area's directory. read_trace_area and the
    live drainer gather the rings from those pages, not from the stale in-area copies."""
    cc = "riscv64-unknown-elf-gcc"
    if shutil.which(cc) is None:
        pytest.fail(f"{cc} missing: run scripts/bootstrap.sh")
    from partita.run.qemu import TraceDrainer, symbol
    from partita.trace.format import (
        DIR_BYTES,
        DIR_HEADER,
        DIR_OFF,
        PAGE_BYTES,
        RING_PAGES,
        RINGS_MAGIC,
    )

    src = tmp_path / "area.S"
    src.write_text(f".globl _start\n.text\n_start: j _start\n.bss\n.balign 4096\n"
                   f".globl pt_trace_area\npt_trace_area: .skip {DIR_OFF + DIR_BYTES}\n"
                   f".size pt_trace_area, {DIR_OFF + DIR_BYTES}\n")
    elf = tmp_path / "k.elf"
    subprocess.run([cc, "-nostdlib", "-Wl,-Ttext=0x80000000", "-o", str(elf), str(src)],
                   check=True)
    addr = symbol(elf, "pt_trace_area")[0]
    area_off = addr - RAM_BASE
    pool = (area_off + DIR_OFF + DIR_BYTES + PAGE_BYTES - 1) // PAGE_BYTES * PAGE_BYTES
    ram = bytearray(pool + 2 * RING_PAGES * PAGE_BYTES)
    inline = bytearray(area_bytes)
    rng = np.random.default_rng(7)
    slots = rng.permutation(2 * RING_PAGES)  # page k of ring c goes to pool page slots[...]
    pa = np.zeros((8, RING_PAGES), dtype="<u8")
    for cpu in range(2):
        base = AREA_HEADER.itemsize + cpu * RING_BYTES
        ring = bytes(inline[base: base + RING_BYTES]).ljust(RING_PAGES * PAGE_BYTES, b"\0")
        for k in range(RING_PAGES):
            at = pool + int(slots[cpu * RING_PAGES + k]) * PAGE_BYTES
            ram[at: at + PAGE_BYTES] = ring[k * PAGE_BYTES: (k + 1) * PAGE_BYTES]
            pa[cpu, k] = RAM_BASE + at
        inline[base: base + RING_BYTES] = bytes(RING_BYTES)  # stale, empty in-area copy
    ram[area_off: area_off + AREA_BYTES] = inline
    d = np.frombuffer(ram, dtype=DIR_HEADER, count=1, offset=area_off + DIR_OFF)
    d["rings_magic"], d["ring_pages"], d["ring_page_bytes"] = RINGS_MAGIC, RING_PAGES, PAGE_BYTES
    off = area_off + DIR_OFF + DIR_HEADER.itemsize
    ram[off: off + pa.nbytes] = pa.tobytes()
    f = tmp_path / "ram.bin"
    f.write_bytes(ram)
    want = pack(decode_area(area_bytes))
    assert pack(read_trace_area(f, elf)) == want

    drainer = TraceDrainer(f, elf)
    drainer.poll()
    assert drainer.count == len(CPU0) + len(CPU1)
    after = f.read_bytes()
    for cpu, n in ((0, len(CPU0)), (1, len(CPU1))):
        hdr = np.frombuffer(after, dtype=RING_HEADER, count=1, offset=int(pa[cpu, 0]) - RAM_BASE)
        assert int(hdr["tail"][0]) == int(hdr["head"][0]) == n  # tail written in the page
    assert pack(drainer.area()) == want
