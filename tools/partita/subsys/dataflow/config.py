"""The `dataflow:` section: data-flow applications as task graphs (brief 4).

    dataflow:
      tsm: scan                   # task-status manager: scan (the RTOS reads the FIFOs),
                                  # bitmap (kept by counter notifications) or coproc (the
                                  # bitmap on coprocessor `coproc:`, service dftsm, whose
                                  # clients: are the graphs in this order)
      graphs:
        - name: jpeg
          actors:                 # one task each; `phases`: CSDF phases (1 = SDF)
            - {name: vld, cpu: 0}
            - {name: idct, cpu: 1, phases: 2}
          fifos:                  # one producer, one consumer; a rate per phase of each
            - {name: coef, producer: vld, consumer: idct, produce: [2], consume: [1, 1],
               size: 4, initial: 0, token_bytes: 64}

`partita config` checks each graph (partita.subsys.dataflow.sdf): rates balance (the
repetition vector exists), no deadlock with the initial tokens, FIFOs large enough; an error
names the graph, the FIFO or actor, and the line.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from partita.config.errors import Path, Problem, did_you_mean
from partita.subsys.dataflow import sdf

Name = Annotated[str, Field(min_length=1, max_length=15, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
MAX_PHASES = 16  # PT_DF_MAX_PHASES
MAX_TASKS = 64   # PT_DF_MAX_TASKS
MAX_GRAPHS = 16  # DF_MAX_GRAPHS (subsys/dataflow/dataflow.c)
Rates = Annotated[list[Annotated[int, Field(ge=0, le=1 << 20)]],
                  Field(min_length=1, max_length=MAX_PHASES)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Tsm(StrEnum):
    scan = "scan"
    bitmap = "bitmap"
    coproc = "coproc"  # the bitmap on a coprocessor of service dftsm (`coproc:` field)


class ActorCfg(Strict):
    name: Name
    cpu: int = Field(ge=0, description="the core the actor's task runs on")
    phases: int = Field(default=1, ge=1, le=MAX_PHASES, description="CSDF phases")


class FifoCfg(Strict):
    name: Name
    producer: Name
    consumer: Name
    produce: Rates
    consume: Rates
    size: int = Field(ge=1, le=1 << 20, description="capacity in tokens")
    initial: int = Field(default=0, ge=0)
    token_bytes: int = Field(default=4, ge=1, le=1 << 16)


class GraphCfg(Strict):
    name: Name
    actors: list[ActorCfg] = Field(min_length=1, max_length=MAX_TASKS)
    fifos: list[FifoCfg] = Field(default_factory=list)

    def graph(self) -> sdf.Graph:
        return sdf.Graph(
            tuple(a.name for a in self.actors),
            tuple(sdf.Fifo(f.name, f.producer, f.consumer, tuple(f.produce),
                           tuple(f.consume), f.size, f.initial) for f in self.fifos),
            {a.name: a.phases for a in self.actors})


class DataflowCfg(Strict):
    tsm: Tsm = Tsm.scan
    coproc: Name | None = Field(default=None, description="tsm coproc: the coprocessor (a "
                                "`coproc:` entry of service dftsm, clients: the graphs)")
    graphs: list[GraphCfg] = Field(default_factory=list, max_length=MAX_GRAPHS)

    @model_validator(mode="after")
    def _unique_graphs(self) -> DataflowCfg:
        if (self.tsm == Tsm.coproc) != (self.coproc is not None):
            raise ValueError("tsm: coproc names its coprocessor (coproc: NAME), and only it")
        names = [g.name for g in self.graphs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"graph name(s) used twice: {', '.join(dup)}")
        return self


def parse(raw: Any) -> tuple[DataflowCfg | None, list[Problem]]:
    if raw is None:
        return DataflowCfg(), []
    try:
        return DataflowCfg.model_validate(raw), []
    except ValidationError as e:
        return None, [Problem(("dataflow", *err["loc"]), err["msg"].removeprefix(
            "Value error, ")) for err in e.errors()]


def _names(gi: int, g: GraphCfg) -> list[Problem]:
    """Unique names; every FIFO end an actor of the graph, producer != consumer."""
    out = []
    base: Path = ("dataflow", "graphs", gi)
    for kind, items in (("actors", g.actors), ("fifos", g.fifos)):
        seen: set[str] = set()
        for i, x in enumerate(items):
            if x.name in seen:
                out.append(Problem((*base, kind, i, "name"),
                                   f"graph {g.name}: {kind[:-1]} {x.name!r} named twice"))
            seen.add(x.name)
    actors = [a.name for a in g.actors]
    for i, f in enumerate(g.fifos):
        for end in ("producer", "consumer"):
            a = getattr(f, end)
            if a not in actors:
                out.append(Problem((*base, "fifos", i, end),
                                   f"graph {g.name}: fifo {f.name}: no actor {a!r}"
                                   f"{did_you_mean(a, actors)}"))
        if f.producer == f.consumer:
            out.append(Problem((*base, "fifos", i),
                               f"graph {g.name}: fifo {f.name}: producer and consumer are the "
                               "same actor (state belongs inside the task)"))
    return out


def check(section: DataflowCfg, ncpus: int, roles: dict[int, str]) -> list[Problem]:
    out: list[Problem] = []
    for gi, g in enumerate(section.graphs):
        base: Path = ("dataflow", "graphs", gi)
        for ai, a in enumerate(g.actors):
            if a.cpu >= ncpus:
                out.append(Problem((*base, "actors", ai, "cpu"),
                                   f"graph {g.name}: actor {a.name}: cpu {a.cpu} does not "
                                   f"exist ({ncpus} cpus)"))
            elif roles.get(a.cpu, "app") != "app":
                out.append(Problem((*base, "actors", ai, "cpu"),
                                   f"graph {g.name}: actor {a.name}: cpu {a.cpu} has role "
                                   f"{roles[a.cpu]}, not app"))
        names = _names(gi, g)
        if names:
            out += names
            continue
        fi = {f.name: i for i, f in enumerate(g.fifos)}
        ai = {a.name: i for i, a in enumerate(g.actors)}
        for issue in sdf.analyze(g.graph()).issues:
            kind, name = issue.where
            path: Path = ((*base, "fifos", fi[name]) if kind == "fifo"
                          else (*base, "actors", ai[name]))
            out.append(Problem(path, f"graph {g.name}: {kind} {name}: {issue.message}"))
    return out


def repetition(g: GraphCfg) -> dict[str, int]:
    """The repetition vector of a checked graph (firings per iteration)."""
    reps = sdf.analyze(g.graph()).repetition
    assert reps is not None, "repetition() of an unchecked graph"
    return reps
