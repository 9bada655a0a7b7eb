"""Static analysis of (cyclo-static) synchronous data-flow graphs: what `partita config`
checks of a `dataflow:` graph before anything runs.

A graph is actors joined by FIFOs; a FIFO has one producer and one consumer, a rate per CSDF
phase on each side (SDF: one phase), a capacity and initial tokens. The checks, in order:

1. consistency (Lee & Messerschmitt 1987; Bilsen et al. 1996 for CSDF): the balance equations
   q[src] * P(e) = q[dst] * C(e) for every FIFO e, where P and C are the tokens produced and
   consumed over a full cycle of the actor's phases, have a positive solution; its smallest
   integer form times each actor's phase count is the repetition vector (firings per
   iteration). No solution: the FIFO whose equation breaks is named.
2. deadlock freedom with the given initial tokens: symbolic execution of one iteration with
   unbounded FIFOs. A FIFO graph is a marked graph (every place one producer, one consumer),
   so firing an enabled actor never disables another and a greedy order completes the
   iteration iff any order does; when it cannot, the blocked actors and the FIFOs they wait
   on are named.
3. buffer sizes: the same execution with each FIFO's capacity (a producer also needs space),
   after the static minimum (capacity >= the largest rate on either side and >= the initial
   tokens). An iteration that completes with unbounded FIFOs but not with the given ones
   names the FIFOs whose producers wait for space. A completed iteration returns every FIFO
   to its initial tokens (consistency), so the schedule repeats forever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, lcm


@dataclass(frozen=True)
class Fifo:
    name: str
    src: str
    dst: str
    produce: tuple[int, ...]  # per phase of src
    consume: tuple[int, ...]  # per phase of dst
    size: int                 # capacity in tokens
    initial: int = 0


@dataclass(frozen=True)
class Graph:
    actors: tuple[str, ...]
    fifos: tuple[Fifo, ...]
    phases: dict[str, int] = field(default_factory=dict)  # actor -> CSDF phases (default 1)

    def nphases(self, actor: str) -> int:
        return self.phases.get(actor, 1)


@dataclass(frozen=True)
class Issue:
    """One problem, naming what it is about: ('fifo', name) or ('actor', name)."""

    kind: str   # "rates" | "deadlock" | "buffer" | "phases"
    where: tuple[str, str]
    message: str


def check_phases(g: Graph) -> list[Issue]:
    """Every port of an actor has one rate per phase of the actor."""
    out = []
    for f in g.fifos:
        for actor, rates, side in ((f.src, f.produce, "produce"), (f.dst, f.consume, "consume")):
            if len(rates) != g.nphases(actor):
                out.append(Issue("phases", ("fifo", f.name),
                                 f"{side} has {len(rates)} rate(s) but actor {actor!r} has "
                                 f"{g.nphases(actor)} phase(s)"))
    return out


def repetition_vector(g: Graph) -> tuple[dict[str, int] | None, list[Issue]]:
    """Firings of each actor per iteration, or the FIFOs whose balance equation fails."""
    adj: dict[str, list[tuple[Fifo, str]]] = {a: [] for a in g.actors}
    for f in g.fifos:
        adj[f.src].append((f, f.dst))
        adj[f.dst].append((f, f.src))
    cycles: dict[str, Fraction] = {}  # full phase cycles per iteration, relative
    issues: list[Issue] = []
    for root in g.actors:
        if root in cycles:
            continue
        cycles[root] = Fraction(1)
        comp, stack = [root], [root]
        while stack:
            a = stack.pop()
            for f, b in adj[a]:
                p, c = sum(f.produce), sum(f.consume)
                if p == 0 or c == 0:
                    if p != c:
                        issues.append(Issue("rates", ("fifo", f.name),
                                            f"{f.src} produces {p} and {f.dst} consumes {c} "
                                            "tokens per cycle of phases: the FIFO fills up "
                                            "or starves"))
                    continue
                # q[src] * p = q[dst] * c
                want = cycles[a] * (Fraction(p, c) if a == f.src else Fraction(c, p))
                if b not in cycles:
                    cycles[b] = want
                    comp.append(b)
                    stack.append(b)
                elif cycles[b] != want:
                    ratio = cycles[f.src] / cycles[f.dst]
                    issues.append(Issue(
                        "rates", ("fifo", f.name),
                        f"rates do not balance: {f.src} produces {p} and {f.dst} consumes "
                        f"{c} per cycle of phases, but the rest of the graph "
                        f"makes them cycle in ratio {ratio.numerator}:{ratio.denominator} "
                        "(inconsistent graph)"))
        # smallest integers for this connected component
        den = lcm(*(cycles[a].denominator for a in comp))
        ints = [int(cycles[a] * den) for a in comp]
        div = gcd(*ints)
        for a, n in zip(comp, ints, strict=True):
            cycles[a] = Fraction(n // div)
    if issues:
        # an issue is reported once per FIFO (both ends of a cycle may see it)
        seen: set[tuple[str, str]] = set()
        uniq = [i for i in issues if not (i.where in seen or seen.add(i.where))]
        return None, uniq
    return {a: int(cycles[a]) * g.nphases(a) for a in g.actors}, []


def _execute(g: Graph, reps: dict[str, int], bounded: bool
             ) -> tuple[dict[str, int], dict[str, int]]:
    """Fire greedily until each actor fired reps[a] times or nothing can fire.
    Returns (firings done, tokens per FIFO at the end)."""
    tokens = {f.name: f.initial for f in g.fifos}
    ins: dict[str, list[Fifo]] = {a: [] for a in g.actors}
    outs: dict[str, list[Fifo]] = {a: [] for a in g.actors}
    for f in g.fifos:
        outs[f.src].append(f)
        ins[f.dst].append(f)
    done = dict.fromkeys(g.actors, 0)
    progress = True
    while progress:
        progress = False
        for a in g.actors:
            while done[a] < reps[a]:
                ph = done[a] % g.nphases(a)
                if any(tokens[f.name] < f.consume[ph] for f in ins[a]):
                    break
                if bounded and any(tokens[f.name] + f.produce[ph] > f.size
                                   for f in outs[a] if f not in ins[a]):
                    break
                if bounded and any(tokens[f.name] - f.consume[ph] + f.produce[ph] > f.size
                                   for f in outs[a] if f in ins[a]):
                    break
                for f in ins[a]:
                    tokens[f.name] -= f.consume[ph]
                for f in outs[a]:
                    tokens[f.name] += f.produce[ph]
                done[a] += 1
                progress = True
    return done, tokens


def check_buffers_static(g: Graph) -> list[Issue]:
    out = []
    for f in g.fifos:
        need = max((*f.produce, *f.consume, f.initial))
        if f.size < need:
            what = ("its initial tokens" if need == f.initial and need > max(
                (*f.produce, *f.consume)) else "one firing's tokens")
            out.append(Issue("buffer", ("fifo", f.name),
                             f"size {f.size} cannot hold {what} ({need})"))
    return out


def check_liveness(g: Graph, reps: dict[str, int]) -> list[Issue]:
    """Deadlock with the initial tokens (unbounded FIFOs), then with the given sizes."""
    done, tokens = _execute(g, reps, bounded=False)
    blocked = [a for a in g.actors if done[a] < reps[a]]
    if blocked:
        out = []
        for a in blocked:
            ph = done[a] % g.nphases(a)
            short = [f"{f.name} ({tokens[f.name]} of {f.consume[ph]} tokens)"
                     for f in g.fifos if f.dst == a and tokens[f.name] < f.consume[ph]]
            out.append(Issue("deadlock", ("actor", a),
                             f"deadlock: after {done[a]} of {reps[a]} firings it waits for "
                             f"{', '.join(short)}; add initial tokens on a FIFO of the cycle"))
        return out
    done, tokens = _execute(g, reps, bounded=True)
    out = []
    for a in g.actors:
        if done[a] >= reps[a]:
            continue
        ph = done[a] % g.nphases(a)
        for f in g.fifos:
            if f.src == a and tokens[f.name] + f.produce[ph] - (
                    f.consume[ph] if f.dst == a else 0) > f.size:
                out.append(Issue("buffer", ("fifo", f.name),
                                 f"size {f.size} too small: {a} (firing {done[a] + 1} of "
                                 f"{reps[a]}) needs {f.produce[ph]} free slots with "
                                 f"{tokens[f.name]} held, and the graph deadlocks"))
    if not out:  # blocked on inputs only: a cycle through full buffers elsewhere
        out = [Issue("buffer", ("actor", a), "the iteration deadlocks with the given FIFO "
                     "sizes (it completes with unbounded FIFOs): enlarge the FIFOs around it")
               for a in g.actors if done[a] < reps[a]]
    return out


@dataclass(frozen=True)
class Analysis:
    repetition: dict[str, int] | None
    issues: list[Issue]


def analyze(g: Graph) -> Analysis:
    """All checks; later checks run only when the earlier ones pass."""
    issues = check_phases(g)
    if issues:
        return Analysis(None, issues)
    reps, issues = repetition_vector(g)
    if reps is None:
        return Analysis(None, issues)
    issues = check_buffers_static(g)
    if issues:
        return Analysis(reps, issues)
    return Analysis(reps, check_liveness(g, reps))
