"""The trace ring layout of `kernel/include/partita/trace.h`, as numpy structured dtypes.

Keep in step with the header, field by field (tests/python/test_trace_events.py compiles the
header on the host and compares every size, offset and event number with this module).
Decoding is a reshaped view of the bytes: no per-record Python work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from partita.trace.events import Ev as Ev  # re-exported: the kernel's events (generated)

MAGIC = 0x5054524143453031  # "PTRACE01"
MAX_CPUS = 8
RING_RECORDS = 32768

REC = np.dtype([
    ("ts", "<u8"), ("type", "<u2"), ("cpu", "<u2"), ("tid", "<u4"),
    ("arg0", "<u8"), ("arg1", "<u8"),
])
AREA_HEADER = np.dtype([
    ("magic", "<u8"), ("ncpus", "<u4"), ("rec_size", "<u4"), ("cycles_per_sec", "<u8"),
    ("records_per_ring", "<u4"), ("exit_code", "<u4"), ("pad", "<u8", (4,)),
])
# dropped_critical: DEADLINE_MISS, OVERRUN, THREAD_STOP, FAULT, SHUTDOWN records lost even
# though the kernel keeps a reserve for them at the end of the ring.
RING_HEADER = np.dtype([
    ("head", "<u8"), ("dropped", "<u8"), ("tail", "<u8"), ("dropped_critical", "<u8"),
    ("pad", "<u8", (4,)),
])
assert REC.itemsize == 32 and AREA_HEADER.itemsize == 64 and RING_HEADER.itemsize == 64

RING_BYTES = RING_HEADER.itemsize + RING_RECORDS * REC.itemsize
AREA_BYTES = AREA_HEADER.itemsize + MAX_CPUS * RING_BYTES

# Kernel-side per-thread counters after the rings: the truth the report checks the trace
# against (struct pt_thread_counters in kernel/include/partita/trace.h).
COUNTERS_MAGIC = 0x5054434E54525331  # "PTCNTRS1"
MAX_THREADS = 128
COUNTER = np.dtype([
    ("tid", "<u4"), ("part", "<u2"), ("flags", "<u2"),
    ("released", "<u8"), ("done", "<u8"), ("miss", "<u8"), ("overrun", "<u8"),
    ("budget", "<u8"), ("max_response_cycles", "<u8"), ("dropped_records", "<u8"),
    ("name", "S16"),
])
COUNTERS_HEADER = np.dtype([("magic", "<u8"), ("ncounters", "<u4"), ("counter_size", "<u4")])
assert COUNTER.itemsize == 80 and COUNTERS_HEADER.itemsize == 16
COUNTERS_BYTES = COUNTERS_HEADER.itemsize + MAX_THREADS * COUNTER.itemsize
COUNTER_STOPPED = 1  # flags bit 0

# The ring directory after the counters: with colored kernel data the kernel moves each
# online hart's ring into pages of the kernel colors and lists them here (the physical page
# of every 4 KiB of the ring, its header first); rings_magic says the directory is in use.
RINGS_MAGIC = 0x5054524E47504731  # "PTRNGPG1"
PAGE_BYTES = 4096
RING_PAGES = (RING_BYTES + PAGE_BYTES - 1) // PAGE_BYTES
DIR_HEADER = np.dtype([("rings_magic", "<u8"), ("ring_pages", "<u4"),
                       ("ring_page_bytes", "<u4")])
DIR_OFF = AREA_BYTES + COUNTERS_BYTES
DIR_BYTES = DIR_HEADER.itemsize + MAX_CPUS * RING_PAGES * 8
assert PAGE_BYTES % REC.itemsize == 0 and RING_HEADER.itemsize % REC.itemsize == 0  # no
# record straddles a page


class TraceFormatError(ValueError):
    """A trace that cannot be decoded; the message says what is wrong (one line)."""


@dataclass
class Ring:
    cpu: int
    head: int
    dropped: int
    records: np.ndarray  # REC records in the order they were written
    tail: int = 0
    dropped_critical: int = 0

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
    counters: np.ndarray | None = None  # COUNTER rows with tid != 0, when the kernel wrote them

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

    @property
    def lost_critical(self) -> int:
        return sum(r.dropped_critical for r in self.rings)


def _ring_records(rec: np.ndarray, head: int, tail: int) -> np.ndarray:
    """Unconsumed records [tail, head) in write order (slot = index % N). Python integers: a
    corrupt head near 2^64 must not overflow numpy."""
    n = max(0, min(head - tail, RING_RECORDS))
    if n == 0:
        return np.zeros(0, dtype=REC)
    start = (head - n) % RING_RECORDS
    idx = (np.arange(n, dtype=np.int64) + start) % RING_RECORDS
    return rec[idx]


def _check_header(hdr: np.void, what: str) -> int:
    """Validate the area header; the number of harts."""
    if int(hdr["magic"]) != MAGIC:
        raise TraceFormatError(f"{what}: bad magic 0x{int(hdr['magic']):016x} "
                               "(not a Partita trace)")
    if int(hdr["rec_size"]) != REC.itemsize or int(hdr["records_per_ring"]) != RING_RECORDS:
        raise TraceFormatError(
            f"{what}: record size {int(hdr['rec_size'])} / ring of "
            f"{int(hdr['records_per_ring'])} records differ from tracefmt.py "
            f"({REC.itemsize} / {RING_RECORDS}): layout of kernel and tools out of step")
    cps = int(hdr["cycles_per_sec"])
    if cps and not 1_000 <= cps <= 10**12:
        raise TraceFormatError(f"{what}: implausible timebase of {cps} cycles per second")
    ncpus = int(hdr["ncpus"])
    if not 1 <= ncpus <= MAX_CPUS:
        raise TraceFormatError(f"{what}: header claims {ncpus} harts (1..{MAX_CPUS})")
    return ncpus


def _decode_counters(raw: np.ndarray, what: str) -> np.ndarray | None:
    """The counters block at the start of `raw`, or None when absent (older kernel)."""
    if len(raw) < COUNTERS_HEADER.itemsize:
        return None
    ch = raw[: COUNTERS_HEADER.itemsize].view(COUNTERS_HEADER)[0]
    if int(ch["magic"]) != COUNTERS_MAGIC:
        return None
    n, size = int(ch["ncounters"]), int(ch["counter_size"])
    if size != COUNTER.itemsize or n > MAX_THREADS:
        raise TraceFormatError(f"{what}: counters block of {n} x {size} bytes differs from "
                               f"tracefmt.py ({MAX_THREADS} x {COUNTER.itemsize})")
    body = raw[COUNTERS_HEADER.itemsize:]
    if len(body) < n * size:
        raise TraceFormatError(f"{what}: truncated counters block ({len(body)} of {n * size} "
                               "bytes)")
    rows = body[: n * size].view(COUNTER)
    return rows[rows["tid"] != 0].copy()


def decode_area(buf: bytes | memoryview | np.ndarray, what: str = "trace area") -> Area:
    """Decode the in-RAM `struct pt_trace_area` (AREA_BYTES bytes, then the counters block
    if `buf` holds it)."""
    raw = np.frombuffer(buf, dtype=np.uint8)
    if len(raw) < AREA_BYTES:
        raise TraceFormatError(f"{what}: {len(raw)} bytes, the trace area needs {AREA_BYTES}")
    hdr = raw[: AREA_HEADER.itemsize].view(AREA_HEADER)[0]
    ncpus = _check_header(hdr, what)
    rings = []
    for cpu in range(ncpus):
        base = AREA_HEADER.itemsize + cpu * RING_BYTES
        rh = raw[base: base + RING_HEADER.itemsize].view(RING_HEADER)[0]
        recs = raw[base + RING_HEADER.itemsize: base + RING_BYTES].view(REC)
        head, tail = int(rh["head"]), int(rh["tail"])
        if head < tail:
            raise TraceFormatError(f"{what}: ring {cpu}: head {head} below tail {tail}")
        rings.append(Ring(cpu, head, int(rh["dropped"]), _ring_records(recs, head, tail), tail,
                          int(rh["dropped_critical"])))
    counters = _decode_counters(raw[AREA_BYTES:], what)
    return Area(ncpus, int(hdr["cycles_per_sec"]), int(hdr["exit_code"]), rings, counters)


# trace.bin: the area header, then for each hart its ring header (pad[0] = number of records
# that follow) and its records (only those written, in write order), then the counters block
# when the kernel wrote one. Self-describing, compact, and byte-identical across identical runs.
def pack(area: Area) -> bytes:
    hdr = np.zeros(1, dtype=AREA_HEADER)
    hdr["magic"], hdr["ncpus"], hdr["rec_size"] = MAGIC, area.ncpus, REC.itemsize
    hdr["cycles_per_sec"], hdr["records_per_ring"] = area.cycles_per_sec, RING_RECORDS
    hdr["exit_code"] = area.exit_code
    parts = [hdr.tobytes()]
    for r in area.rings:
        rh = np.zeros(1, dtype=RING_HEADER)
        rh["head"], rh["dropped"], rh["tail"] = r.head, r.dropped, r.tail
        rh["dropped_critical"] = r.dropped_critical
        rh["pad"][0][0] = len(r.records)
        parts += [rh.tobytes(), np.ascontiguousarray(r.records, dtype=REC).tobytes()]
    if area.counters is not None:
        ch = np.zeros(1, dtype=COUNTERS_HEADER)
        ch["magic"], ch["ncounters"] = COUNTERS_MAGIC, len(area.counters)
        ch["counter_size"] = COUNTER.itemsize
        parts += [ch.tobytes(), np.ascontiguousarray(area.counters, dtype=COUNTER).tobytes()]
    return b"".join(parts)


def unpack(data: bytes, what: str = "trace.bin") -> Area:
    """Decode a trace.bin written by `pack`; every inconsistency is a TraceFormatError."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if len(raw) < AREA_HEADER.itemsize:
        raise TraceFormatError(f"{what}: truncated or empty ({len(raw)} bytes; the header "
                               f"alone is {AREA_HEADER.itemsize})")
    hdr = raw[: AREA_HEADER.itemsize].view(AREA_HEADER)[0]
    ncpus = _check_header(hdr, what)
    off = AREA_HEADER.itemsize
    rings = []
    for cpu in range(ncpus):
        if len(raw) - off < RING_HEADER.itemsize:
            raise TraceFormatError(f"{what}: truncated: the header claims {ncpus} harts but "
                                   f"the file ends before ring {cpu}")
        rh = raw[off: off + RING_HEADER.itemsize].view(RING_HEADER)[0]
        n = int(rh["pad"][0])
        off += RING_HEADER.itemsize
        head, tail = int(rh["head"]), int(rh["tail"])
        if n > head:  # a drained run holds more than a ring, never more than was written
            raise TraceFormatError(f"{what}: ring {cpu} claims {n} records, its head says "
                                   f"{head} were written")
        have = (len(raw) - off) // REC.itemsize
        if n > have:
            raise TraceFormatError(f"{what}: truncated: ring {cpu} claims {n} records, the "
                                   f"file holds {have}")
        if head < tail:
            raise TraceFormatError(f"{what}: ring {cpu}: head {head} below tail {tail}")
        recs = raw[off: off + n * REC.itemsize].view(REC).copy()
        off += n * REC.itemsize
        rings.append(Ring(cpu, head, int(rh["dropped"]), recs, tail,
                          int(rh["dropped_critical"])))
    rest = raw[off:]
    counters = _decode_counters(rest, what)
    used = 0 if counters is None else COUNTERS_HEADER.itemsize + int(
        rest[: COUNTERS_HEADER.itemsize].view(COUNTERS_HEADER)[0]["ncounters"]) * COUNTER.itemsize
    if len(rest) > used:
        raise TraceFormatError(f"{what}: {len(rest) - used} unexpected bytes after the last "
                               "ring (corrupt or concatenated file)")
    return Area(ncpus, int(hdr["cycles_per_sec"]), int(hdr["exit_code"]), rings, counters)


def name_from_args(arg0: int, arg1: int) -> str:
    """THREAD_INFO carries 16 bytes of name in arg0..arg1 (little-endian, NUL-padded)."""
    raw = int(arg0).to_bytes(8, "little") + int(arg1).to_bytes(8, "little")
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def name_to_args(name: str) -> tuple[int, int]:
    raw = name.encode()[:16].ljust(16, b"\0")
    return int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:], "little")
