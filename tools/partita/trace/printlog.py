"""Lines printed by tasks with `pt_printf` (kernel/include/partita/printf.h), decoded from the
trace: MARK records whose arg0 carries the tag 0xF5 in its top byte and 7 bytes of text, arg1
8 more bytes; a line ends at the record that holds a NUL. Records of one line are consecutive
for their thread on its hart (a line may be interleaved with other threads' records)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from partita.trace.format import Area, Ev

TAG = 0xF5


@dataclass(frozen=True)
class Line:
    ts: int        # cycles of the first record
    cpu: int
    tid: int
    text: str


def lines(area: Area, recs: np.ndarray | None = None) -> list[Line]:
    """Every pt_printf line of a run, in time order."""
    recs = area.merged() if recs is None else recs
    sel = recs[(recs["type"] == Ev.MARK) & ((recs["arg0"] >> np.uint64(56)) == TAG)]
    out: list[Line] = []
    partial: dict[tuple[int, int], tuple[int, bytearray]] = {}
    for r in sel:
        key = (int(r["cpu"]), int(r["tid"]))
        a0, a1 = int(r["arg0"]), int(r["arg1"])
        chunk = (a0 & ((1 << 56) - 1)).to_bytes(7, "little") + a1.to_bytes(8, "little")
        ts, buf = partial.get(key, (int(r["ts"]), bytearray()))
        if 0 in chunk:
            buf += chunk[: chunk.index(0)]
            partial.pop(key, None)
            out.append(Line(ts, key[0], key[1], buf.decode("utf-8", "replace")))
        else:
            partial[key] = (ts, buf + chunk)
    return out


def write(area: Area, path: Path, names: dict[int, str] | None = None) -> int:
    """Write `path` (one line per print: virtual time in us, hart, thread, text); the count."""
    got = lines(area)
    cps = area.cycles_per_sec or 1_000_000_000
    names = names or {}
    with path.open("w") as f:
        for ln in got:
            who = names.get(ln.tid, f"tid {ln.tid}")
            f.write(f"{ln.ts * 1e6 / cps:14.3f} us  hart {ln.cpu}  {who}: "
                    f"{ln.text.rstrip(chr(10))}\n")
    return len(got)
