"""The trace ring layout of `kernel/include/partita/trace.h`, as numpy structured dtypes.

Keep in step with the header, field by field. Decoding is a reshaped view of the bytes:
no per-record Python work.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

MAGIC = 0x5054524143453031  # "PTRACE01"
MAX_CPUS = 8
RING_RECORDS = 32768


class Ev(IntEnum):
    BOOT = 1
    THREAD_INFO = 2
    RELEASE = 3
    DISPATCH = 4
    PREEMPT = 5
    COMPLETE = 6
    DEADLINE_MISS = 7
    OVERRUN = 8
    MIGRATE = 9
    BLOCK = 10
    UNBLOCK = 11
    IRQ_ENTER = 12
    IRQ_EXIT = 13
    SYSCALL = 14
    FAULT = 15
    THREAD_STOP = 16
    IDLE = 17
    MARK = 18
    SHUTDOWN = 19
    SUBSYS_FIRST = 32


REC = np.dtype([
    ("ts", "<u8"), ("type", "<u2"), ("cpu", "<u2"), ("tid", "<u4"),
    ("arg0", "<u8"), ("arg1", "<u8"),
])
AREA_HEADER = np.dtype([
    ("magic", "<u8"), ("ncpus", "<u4"), ("rec_size", "<u4"), ("cycles_per_sec", "<u8"),
    ("records_per_ring", "<u4"), ("exit_code", "<u4"), ("pad", "<u8", (4,)),
])
RING_HEADER = np.dtype([
    ("head", "<u8"), ("dropped", "<u8"), ("tail", "<u8"), ("pad", "<u8", (5,)),
])
assert REC.itemsize == 32 and AREA_HEADER.itemsize == 64 and RING_HEADER.itemsize == 64

RING_BYTES = RING_HEADER.itemsize + RING_RECORDS * REC.itemsize
AREA_BYTES = AREA_HEADER.itemsize + MAX_CPUS * RING_BYTES


class TraceFormatError(ValueError):
    pass


@dataclass
class Ring:
    cpu: int
    head: int
    dropped: int
    records: np.ndarray  # REC records in the order they were written
    tail: int = 0

    @property
    def lost(self) -> int:
        """Records the reader cannot see: dropped because the ring was full."""
        return self.dropped


@dataclass
class Area:
    ncpus: int
    cycles_per_sec: int
    exit_code: int
    rings: list[Ring]

    def merged(self) -> np.ndarray:
        """All records of all harts in time order (ties: cpu, then write order)."""
        if not self.rings:
            return np.zeros(0, dtype=REC)
        recs = np.concatenate([r.records for r in self.rings])
        order = np.lexsort((
            np.concatenate([np.arange(len(r.records)) for r in self.rings]),
            recs["cpu"], recs["ts"]))
        return recs[order]

    @property
    def lost(self) -> int:
        return sum(r.lost for r in self.rings)


def _ring_records(rec: np.ndarray, head: int, tail: int) -> np.ndarray:
    """Unconsumed records [tail, head) in write order (slot = index % N)."""
    tail = max(tail, head - RING_RECORDS, 0)
    if head <= tail:
        return np.zeros(0, dtype=REC)
    idx = np.arange(tail, head, dtype=np.int64) % RING_RECORDS
    return rec[idx]


def decode_area(buf: bytes | memoryview | np.ndarray) -> Area:
    """Decode the full in-RAM `struct pt_trace_area` (AREA_BYTES bytes)."""
    raw = np.frombuffer(buf, dtype=np.uint8, count=AREA_BYTES)
    hdr = raw[: AREA_HEADER.itemsize].view(AREA_HEADER)[0]
    if int(hdr["magic"]) != MAGIC:
        raise TraceFormatError(f"no trace area (magic 0x{int(hdr['magic']):016x})")
    if int(hdr["rec_size"]) != REC.itemsize or int(hdr["records_per_ring"]) != RING_RECORDS:
        raise TraceFormatError("trace area layout differs from tracefmt.py (rebuild tools?)")
    ncpus = int(hdr["ncpus"])
    if not 1 <= ncpus <= MAX_CPUS:
        raise TraceFormatError(f"trace area claims {ncpus} cpus")
    rings = []
    for cpu in range(ncpus):
        base = AREA_HEADER.itemsize + cpu * RING_BYTES
        rh = raw[base: base + RING_HEADER.itemsize].view(RING_HEADER)[0]
        recs = raw[base + RING_HEADER.itemsize: base + RING_BYTES].view(REC)
        head, tail = int(rh["head"]), int(rh["tail"])
        if head < tail:
            raise TraceFormatError(f"ring {cpu}: head {head} below tail {tail}")
        rings.append(Ring(cpu, head, int(rh["dropped"]), _ring_records(recs, head, tail), tail))
    return Area(ncpus, int(hdr["cycles_per_sec"]), int(hdr["exit_code"]), rings)


# trace.bin: the area header, then for each hart its ring header (pad[0] = number of records
# that follow) and its records (only those written, in write order). Self-describing, compact,
# and byte-identical across identical runs.
def pack(area: Area) -> bytes:
    hdr = np.zeros(1, dtype=AREA_HEADER)
    hdr["magic"], hdr["ncpus"], hdr["rec_size"] = MAGIC, area.ncpus, REC.itemsize
    hdr["cycles_per_sec"], hdr["records_per_ring"] = area.cycles_per_sec, RING_RECORDS
    hdr["exit_code"] = area.exit_code
    parts = [hdr.tobytes()]
    for r in area.rings:
        rh = np.zeros(1, dtype=RING_HEADER)
        rh["head"], rh["dropped"], rh["tail"] = r.head, r.dropped, r.tail
        rh["pad"][0][0] = len(r.records)
        parts += [rh.tobytes(), np.ascontiguousarray(r.records, dtype=REC).tobytes()]
    return b"".join(parts)


def unpack(data: bytes) -> Area:
    raw = np.frombuffer(data, dtype=np.uint8)
    hdr = raw[: AREA_HEADER.itemsize].view(AREA_HEADER)[0]
    if int(hdr["magic"]) != MAGIC:
        raise TraceFormatError("not a Partita trace.bin")
    off = AREA_HEADER.itemsize
    rings = []
    for cpu in range(int(hdr["ncpus"])):
        rh = raw[off: off + RING_HEADER.itemsize].view(RING_HEADER)[0]
        n = int(rh["pad"][0])
        off += RING_HEADER.itemsize
        recs = raw[off: off + n * REC.itemsize].view(REC).copy()
        off += n * REC.itemsize
        rings.append(Ring(cpu, int(rh["head"]), int(rh["dropped"]), recs, int(rh["tail"])))
    return Area(int(hdr["ncpus"]), int(hdr["cycles_per_sec"]), int(hdr["exit_code"]), rings)


def name_from_args(arg0: int, arg1: int) -> str:
    """THREAD_INFO carries 16 bytes of name in arg0..arg1 (little-endian, NUL-padded)."""
    raw = int(arg0).to_bytes(8, "little") + int(arg1).to_bytes(8, "little")
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def name_to_args(name: str) -> tuple[int, int]:
    raw = name.encode()[:16].ljust(16, b"\0")
    return int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:], "little")
