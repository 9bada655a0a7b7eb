"""One trace-event table (kernel/trace/trace_events.yaml): the generated C headers and Python
enums are what the generator writes now, and the C layout of <partita/trace.h> (sizes,
offsets, event numbers) is what the Python decoder assumes, checked by the cross compiler on
a file of _Static_asserts generated from the Python side."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from partita import subsys
from partita.trace import eventgen, events
from partita.trace import format as fmt

ROOT = Path(__file__).resolve().parents[2]
CC = "riscv64-unknown-elf-gcc"


def test_generated_files_are_what_the_generator_writes_now() -> None:
    stale = [str(p.relative_to(ROOT)) for p, text in eventgen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"stale: {stale}: run `python -m partita.trace.eventgen`"
    for p in eventgen.outputs():
        assert "do not edit" in p.read_text().splitlines()[0]


def test_no_hand_written_event_numbers_left() -> None:
    """The kernel's and the subsystems' headers take their numbers from the table only."""
    assert "PT_EV_BOOT =" not in (ROOT / "kernel/include/partita/trace.h").read_text()
    assert "PT_EV_SPM_SLOT =" not in (ROOT / "subsys/spm/spm_trace.h").read_text()
    for c in ("subsys/spm/spm_rt.c", "subsys/io/io_core.c", "subsys/dataflow/dataflow.c",
              "subsys/uk/uk.c"):
        text = (ROOT / c).read_text()
        name = c.split("/")[1].upper()
        assert f".trace_first = PT_EV_{name}_FIRST" in text, c
        assert f".trace_count = PT_EV_{name}_COUNT" in text, c


def test_registry_entries_declare_the_table_ranges() -> None:
    declared = {k: v for s in subsys.registered() for k, v in s.trace_ranges.items()}
    assert declared == events.SUBSYS_RANGES
    assert set(declared) == {"spm", "io", "dataflow", "uk"}


def _asserts() -> str:
    """C _Static_asserts of every size, offset and event number the Python side assumes."""
    lines = ["#include <stddef.h>", "#include <partita/trace.h>",
             '#include "spm/spm_trace_events.h"', '#include "io/io_trace_events.h"',
             '#include "dataflow/dataflow_trace_events.h"',
             '#include "uk/uk_trace_events.h"']

    def check(expr: str, value: int) -> None:
        lines.append(f'_Static_assert(({expr}) == {value}, "{expr} != {value} (Python)");')

    def struct(c: str, dtype: np.dtype, skip: tuple[str, ...] = ()) -> None:
        for name, (_, off) in dtype.fields.items():  # type: ignore[union-attr]
            if name not in skip:
                check(f"offsetof(struct {c}, {name})", off)

    check("sizeof(struct pt_trace_rec)", fmt.REC.itemsize)
    struct("pt_trace_rec", fmt.REC, skip=("ts",))  # ts is ts_cycles in C
    check("offsetof(struct pt_trace_rec, ts_cycles)", fmt.REC.fields["ts"][1])
    struct("pt_trace_area", fmt.AREA_HEADER)
    check("offsetof(struct pt_trace_area, ring)", fmt.AREA_HEADER.itemsize)
    struct("pt_trace_ring", fmt.RING_HEADER)
    check("offsetof(struct pt_trace_ring, rec)", fmt.RING_HEADER.itemsize)
    check("sizeof(struct pt_trace_ring)", fmt.RING_BYTES)
    check("offsetof(struct pt_trace_area, counters_magic)", fmt.AREA_BYTES)
    check("offsetof(struct pt_trace_area, counters)",
          fmt.AREA_BYTES + fmt.COUNTERS_HEADER.itemsize)
    check("offsetof(struct pt_trace_area, rings_magic)", fmt.DIR_OFF)
    check("offsetof(struct pt_trace_area, ring_pa)", fmt.DIR_OFF + fmt.DIR_HEADER.itemsize)
    check("PT_TRACE_RING_PAGES", fmt.RING_PAGES)
    check("PT_RINGS_MAGIC", fmt.RINGS_MAGIC)
    check("sizeof(struct pt_trace_area)", fmt.DIR_OFF + fmt.DIR_BYTES)
    check("sizeof(struct pt_thread_counters)", fmt.COUNTER.itemsize)
    struct("pt_thread_counters", fmt.COUNTER)
    check("PT_TRACE_MAGIC", fmt.MAGIC)
    check("PT_COUNTERS_MAGIC", fmt.COUNTERS_MAGIC)
    check("PT_TRACE_MAX_CPUS", fmt.MAX_CPUS)
    check("PT_TRACE_RING_RECORDS", fmt.RING_RECORDS)
    check("PT_TRACE_MAX_THREADS", fmt.MAX_THREADS)
    check("PT_COUNTERS_STOPPED", fmt.COUNTER_STOPPED)
    for e in events.Ev:
        check(f"PT_EV_{e.name}", e.value)
    for name, (first, count) in events.SUBSYS_RANGES.items():
        up = name.upper()
        check(f"PT_EV_{up}_FIRST", first)
        check(f"PT_EV_{up}_COUNT", count)
        for e in getattr(events, f"{name.capitalize()}Ev"):
            check(f"PT_EV_{up}_{e.name}", e.value)
    return "\n".join(lines) + "\n"


def _compile(src: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which(CC) is None:
        pytest.fail(f"{CC} missing: run scripts/bootstrap.sh")
    f = tmp_path / "layout.c"
    f.write_text(src)
    return subprocess.run([CC, "-ffreestanding", "-std=c11", "-Wall", "-Werror", "-fsyntax-only",
                           f"-I{ROOT / 'kernel/include'}", f"-I{ROOT / 'subsys'}", str(f)],
                          capture_output=True, text=True, check=False)


def test_c_layout_matches_the_python_decoder(tmp_path: Path) -> None:
    src = _asserts()
    assert src.count("_Static_assert") > 60
    p = _compile(src, tmp_path)
    assert p.returncode == 0, p.stderr


def test_the_layout_check_can_fail(tmp_path: Path) -> None:
    """A drifted mirror (one offset, one event number) is caught by the compiler."""
    good = _asserts()
    for line, wrong in (("offsetof(struct pt_trace_rec, arg0)) == 16", " == 8"),
                        ("(PT_EV_SPM_SLOT) == 32", " == 33")):
        assert line in good
        bad = good.replace(line, line.split(" == ")[0] + wrong, 1)
        p = _compile(bad, tmp_path)
        assert p.returncode != 0 and "(Python)" in p.stderr, p.stderr


@pytest.mark.parametrize("change, message", [
    ("first: 48\n    count: 16\n    doc: \"The I/O", "overlaps spm"),
    ("- {name: TX, id: 1,", "appears twice"),
    ("subsys_last: 255", "subsys_first / subsys_last"),
    ("- {name: SLOT, id: 0,", "must be an integer in [0, 16)"),
])
def test_a_bad_table_is_refused_naming_the_field(tmp_path: Path, change: str,
                                                 message: str) -> None:
    text = eventgen.TABLE.read_text()
    replacement = {
        "first: 48\n    count: 16\n    doc: \"The I/O": "first: 40\n    count: 16\n    doc: \"The I/O",
        "- {name: TX, id: 1,": "- {name: TX, id: 0,",
        "subsys_last: 255": "subsys_last: 20",
        "- {name: SLOT, id: 0,": "- {name: SLOT, id: 16,",
    }[change]
    assert change in text
    bad = tmp_path / "trace_events.yaml"
    bad.write_text(text.replace(change, replacement, 1))
    with pytest.raises(eventgen.EventTableError) as e:
        eventgen.load(bad)
    assert message in str(e.value) and str(bad) in str(e.value)
