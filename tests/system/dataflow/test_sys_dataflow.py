"""Data-flow applications under the two-level TDM policy (df.c, df_both.yaml, df_alone.yaml):
FIFO tokens arrive in order, StS follows its table, DyS its ring, slots start on the wheel's
fixed grid, and the `pipe` application's trace is bit-identical whether or not the `ring`
application runs beside it on the same cpu (composability)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
from partita.run.run import RunResult
from partita.trace.events import DataflowEv, Ev

RTOS_NS, PIPE_NS, RING_NS = 20_000, 100_000, 80_000
PERIOD = 2 * RTOS_NS + PIPE_NS + RING_NS  # cycles at icount shift 0 (1 cycle = 1 ns)
FIRE, DECIDE = DataflowEv.FIRE, DataflowEv.RTOS_SLOT


def _records(r: RunResult) -> np.ndarray:
    assert r.area is not None
    return r.area.rings[0].records


def _grid_start(r: RunResult) -> int:
    """The first wheel turn after boot: the wheel's first look at boot takes its decision
    whenever the boot ends (policy start-up, not yet on the grid)."""
    recs = _records(r)
    first = int(recs[recs["type"] == DECIDE]["arg1"][0])
    return (first // PERIOD + 1) * PERIOD


def _errors(r: RunResult) -> list[str]:
    log = (r.out / "print.log").read_text()
    return [ln for ln in log.splitlines() if "df: error" in ln]


def _fires(r: RunResult) -> list[str]:
    tl = r.timeline
    assert tl is not None
    return [tl.name(int(x["tid"])) for x in _records(r) if x["type"] == FIRE]


def test_tokens_in_order_and_firings(boot: Callable[..., RunResult]) -> None:
    r = boot("df_both")
    assert _errors(r) == []
    fires = _fires(r)
    assert fires.count("snk") >= 10 and fires.count("b1") >= 10, fires


def test_sts_follows_its_table(boot: Callable[..., RunResult]) -> None:
    r = boot("df_both")
    pipe = [f for f in _fires(r) if f in ("src", "mid", "snk")]
    # binding takes the first round (src fires once in it); then the table src src mid snk
    start = pipe.index("mid")
    body = pipe[start:start + 40]
    assert body[:4] == ["mid", "snk", "src", "src"], pipe[:12]
    assert body == (["mid", "snk", "src", "src"] * 10)[:len(body)]


def test_dys_round_robin_alternates(boot: Callable[..., RunResult]) -> None:
    r = boot("df_both")
    ring = [f for f in _fires(r) if f in ("b1", "b2")]
    assert ring[0] == "b1"  # the initial token is on `back`: b1 first
    assert all(a != b for a, b in itertools.pairwise(ring)), ring[:20]


def test_slots_on_the_fixed_grid(boot: Callable[..., RunResult]) -> None:
    r = boot("df_both")
    tl = r.timeline
    assert tl is not None
    recs = _records(r)
    # decisions in the first cycles of an RTOS slot, well inside it
    decisions = recs[(recs["type"] == DECIDE) & (recs["arg1"] >= _grid_start(r))]
    assert len(decisions) > 50
    for x in decisions:  # taken within the interrupt latency after the RTOS slot begins
        off = int(x["arg1"]) % PERIOD
        assert 0 <= off < 2000 or 0 <= off - (RTOS_NS + PIPE_NS) < 2000, off
        assert (int(x["arg0"]) & 0xffffffff) < RTOS_NS // 10
    # every dispatch of a task lies inside its application's slot
    pipe = {tl.tid_of(n) for n in ("src", "mid", "snk")}
    ring = {tl.tid_of(n) for n in ("b1", "b2")}
    for x in recs[recs["type"] == Ev.DISPATCH]:
        off = int(x["ts"]) % PERIOD
        tid = int(x["tid"])
        if tid in pipe:
            assert RTOS_NS <= off < RTOS_NS + PIPE_NS, (tl.name(tid), off)
        elif tid in ring:
            assert 2 * RTOS_NS + PIPE_NS <= off < PERIOD, (tl.name(tid), off)


def _pipe_view(r: RunResult) -> list[tuple[int, ...]]:
    """Every record about the pipe application: its threads' records with their time stamps,
    and the RTOS slots' decisions for it (application 0: the task chosen). A decision's time
    stamp and cost are left out: they are the RTOS's time, and the timer interrupt that
    starts an RTOS slot is taken sooner or later, and the decision costs more or less,
    depending on what ran before it (the other application's task is evicted, or the cpu was
    idle) - what the constant RTOS slot absorbs, so that the next application slot starts on
    the grid."""
    tl = r.timeline
    assert tl is not None
    pipe = {tl.tid_of(n) for n in ("src", "mid", "snk")}
    out = []
    start = _grid_start(r)
    for x in _records(r):
        t, tid = int(x["type"]), int(x["tid"])
        if t == Ev.THREAD_INFO:
            continue
        mine = tid in pipe or (t == DECIDE and int(x["arg0"]) >> 32 == 0)
        if not (mine and start <= int(x["ts"]) < 11_000_000):  # both runs end alike
            continue
        if t == DECIDE:
            out.append((t, tid, int(x["arg0"]) >> 32))
        else:
            out.append((int(x["ts"]), t, tid, int(x["arg0"]), int(x["arg1"])))
    return out


def test_composability_pipe_trace_identical(boot: Callable[..., RunResult]) -> None:
    both, alone = boot("df_both"), boot("df_alone")
    assert _errors(both) == [] and _errors(alone) == []
    ring_fires = [f for f in _fires(both) if f in ("b1", "b2")]
    assert len(ring_fires) >= 10  # the other application does run in df_both
    assert not [f for f in _fires(alone) if f in ("b1", "b2")]
    assert _grid_start(both) == _grid_start(alone)
    a, b = _pipe_view(both), _pipe_view(alone)
    assert len(a) > 100
    assert a == b
