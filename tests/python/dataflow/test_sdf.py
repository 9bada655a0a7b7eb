"""Property tests of the data-flow graph checks (partita.subsys.dataflow.sdf): random
consistent and inconsistent (C)SDF graphs, deadlocks and buffer sizes, against independent
oracles (the balance equations, a random-order execution)."""

from __future__ import annotations

import random
from math import gcd
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from partita.subsys.dataflow.sdf import Fifo, Graph, analyze, repetition_vector


def _split(total: int, phases: int, rnd: random.Random) -> tuple[int, ...]:
    """total tokens spread over phases (some may be 0)."""
    cuts = sorted(rnd.randint(0, total) for _ in range(phases - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    return tuple(parts)


@st.composite
def consistent_graphs(draw: st.DrawFn, live: bool = True) -> tuple[Graph, dict[str, int]]:
    """A connected graph built from a chosen repetition (in cycles of phases) q: every FIFO
    u -> v gets P = k q[v] / g and C = k q[u] / g, so q balances it. Initial tokens and sizes
    large enough for any order when `live`."""
    n = draw(st.integers(1, 7))
    actors = tuple(f"a{i}" for i in range(n))
    q = {a: draw(st.integers(1, 6)) for a in actors}
    phases = {a: draw(st.integers(1, 3)) for a in actors}
    rnd = random.Random(draw(st.integers(0, 2**32)))
    edges = [(actors[rnd.randrange(i)], actors[i]) for i in range(1, n)]  # spanning tree
    edges += [(rnd.choice(actors), rnd.choice(actors))
              for _ in range(draw(st.integers(0, 5)))]
    fifos = []
    for i, (u, v) in enumerate(edges):
        if u == v:
            continue
        if rnd.random() < 0.5:
            u, v = v, u
        g = gcd(q[u], q[v])
        k = draw(st.integers(1, 3))
        p, c = k * q[v] // g, k * q[u] // g
        per_iter = p * q[u]
        initial = per_iter if live else 0
        fifos.append(Fifo(f"f{i}", u, v, _split(p, phases[u], rnd), _split(c, phases[v], rnd),
                          size=2 * per_iter + p + c, initial=initial))
    d = gcd(*q.values())
    reps = {a: q[a] // d * phases[a] for a in actors}
    return Graph(actors, tuple(fifos), phases), reps


@given(consistent_graphs())
@settings(max_examples=300, deadline=None)
def test_consistent_graph_gets_its_repetition_vector(gr: tuple[Graph, dict[str, int]]) -> None:
    g, reps = gr
    a = analyze(g)
    assert a.issues == []
    assert a.repetition == reps
    for f in g.fifos:  # the balance equations, independently
        assert (a.repetition[f.src] // g.nphases(f.src)) * sum(f.produce) == \
            (a.repetition[f.dst] // g.nphases(f.dst)) * sum(f.consume)


@given(consistent_graphs(), st.integers(0, 2**16))
@settings(max_examples=300, deadline=None)
def test_one_rate_off_on_a_cycle_is_inconsistent(gr: tuple[Graph, dict[str, int]],
                                                 seed: int) -> None:
    g, _ = gr
    # a FIFO parallel to an existing one with a different ratio closes an unbalanced cycle
    if not g.fifos:
        return
    f = random.Random(seed).choice(g.fifos)
    p, c = sum(f.produce), sum(f.consume)
    bad = Fifo("bad", f.src, f.dst, (p + 1,) + (0,) * (g.nphases(f.src) - 1),
               (c,) + (0,) * (g.nphases(f.dst) - 1), size=1000, initial=0)
    a = analyze(Graph(g.actors, (*g.fifos, bad), g.phases))
    assert a.repetition is None
    assert any(i.kind == "rates" for i in a.issues)
    assert all(i.where[0] == "fifo" for i in a.issues)


def _random_order_completes(g: Graph, reps: dict[str, int], seed: int) -> bool:
    """Oracle: fire random enabled actors (bounded FIFOs) until an iteration completes."""
    rnd = random.Random(seed)
    tokens = {f.name: f.initial for f in g.fifos}
    done = dict.fromkeys(g.actors, 0)
    while True:
        enabled = []
        for a in g.actors:
            if done[a] == reps[a]:
                continue
            ph = done[a] % g.nphases(a)
            after = dict(tokens)
            for f in g.fifos:
                if f.dst == a:
                    after[f.name] -= f.consume[ph]
            for f in g.fifos:
                if f.src == a:
                    after[f.name] += f.produce[ph]
            if all(after[f.name] >= 0 and (after[f.name] <= f.size or f.src != a)
                   for f in g.fifos if a in (f.src, f.dst)):
                enabled.append((a, after))
        if not enabled:
            return all(done[a] == reps[a] for a in g.actors)
        a, tokens = rnd.choice(enabled)
        done[a] += 1


@given(consistent_graphs(live=False), st.integers(0, 2**16), st.integers(0, 2**16))
@settings(max_examples=300, deadline=None)
def test_liveness_agrees_with_random_order(gr: tuple[Graph, dict[str, int]], seed: int,
                                           seed2: int) -> None:
    g, reps = gr
    rnd = random.Random(seed)
    # some initial tokens, some sizes smaller: a mix of live, deadlocked and too-small graphs
    fifos = []
    for f in g.fifos:
        init = rnd.choice([0, sum(f.consume), f.initial, sum(f.produce) * 3])
        size = max((*f.produce, *f.consume, init)) + rnd.choice([0, 1, sum(f.produce), 50])
        fifos.append(Fifo(f.name, f.src, f.dst, f.produce, f.consume, size, init))
    g = Graph(g.actors, tuple(fifos), g.phases)
    a = analyze(g)
    assert a.repetition == reps
    assert (a.issues == []) == _random_order_completes(g, reps, seed2)
    for i in a.issues:
        assert i.kind in ("deadlock", "buffer")
        assert i.where[1] in g.actors or i.where[1] in {f.name for f in g.fifos}


def test_cycle_without_tokens_names_its_actors() -> None:
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (1,), (1,), 2),
                           Fifo("ba", "b", "a", (1,), (1,), 2)))
    a = analyze(g)
    assert {i.where for i in a.issues} == {("actor", "a"), ("actor", "b")}
    assert all("deadlock" in i.message for i in a.issues)
    ok = analyze(Graph(g.actors, (g.fifos[0], Fifo("ba", "b", "a", (1,), (1,), 2, 1))))
    assert ok.issues == [] and ok.repetition == {"a": 1, "b": 1}


def test_small_buffer_is_named() -> None:
    # a produces 3, b consumes 2: a FIFO needs 3 + 2 - gcd(3, 2) = 4 slots (3 holds one
    # firing, then a waits for 3 free slots with 1 held, and b for a second token)
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (3,), (2,), 2),))
    a = analyze(g)
    assert [(i.kind, i.where) for i in a.issues] == [("buffer", ("fifo", "ab"))]
    assert "cannot hold one firing" in a.issues[0].message
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (3,), (2,), 3),))
    a = analyze(g)
    assert [(i.kind, i.where) for i in a.issues] == [("buffer", ("fifo", "ab"))]
    assert "too small" in a.issues[0].message
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (3,), (2,), 4),))
    assert analyze(g).issues == []


def test_csdf_phase_count_mismatch_names_the_fifo() -> None:
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (1, 0), (1,), 2),), {"a": 3})
    a = analyze(g)
    assert [(i.kind, i.where) for i in a.issues] == [("phases", ("fifo", "ab"))]


def test_csdf_repetition_counts_phases() -> None:
    # a has 2 phases producing 1 then 2 (3 per cycle), b consumes 1: b fires 3x per a cycle
    g = Graph(("a", "b"), (Fifo("ab", "a", "b", (1, 2), (1,), 4),), {"a": 2})
    reps, issues = repetition_vector(g)
    assert issues == [] and reps == {"a": 2, "b": 3}


def test_tdm_tables_name_each_thread_once(tmp_path: Path) -> None:
    """The StS table may repeat a thread; the task table must not (the policy maps a thread
    to one task index)."""
    from partita.config import load_resolved
    from partita.config.gen import generate_c

    root = Path(__file__).resolve().parents[3]
    r = load_resolved(root / "tests/system/dataflow/df_both.yaml")
    c = generate_c(r)
    line = next(ln for ln in c.splitlines() if ln.startswith("static const uint32_t tdm0_tids"))
    assert line.count("/* src */") == 1, line
    assert "static const uint16_t tdm0_order0[] = { 0, 0, 1, 2 };" in c
