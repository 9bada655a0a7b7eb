"""Checks that need more than the fields themselves (issue 11, item 6), run by
`load_resolved` after the schema and `partita.config.checks`:

- every `entry:` is a function defined by the application sources the image can link
  (`partita.config.apps`), with a "did you mean" from the closest names;
- a role that the schema accepts but nothing implements yet (`proxy`) is an error;
  a role only a subsystem implements (`io`, `coproc`) needs a subsystem section claiming that cpu
  (`roles` and `claims` of partita.subsys);
- a field that the thread's scheduling policy ignores (`priority:` under edf or gedf) is a
  warning naming the field.

Errors are `Problem`s (the caller adds the line); warnings are `ConfigWarning`s, given to
Python's `warnings` machinery so a notebook sees them once and the CLI prints them as
`warning: FILE:LINE: FIELD: ...`.
"""

from __future__ import annotations

from collections.abc import Sequence

from partita.config.apps import AppDir
from partita.config.checks import scheduler_of
from partita.config.errors import Problem, did_you_mean
from partita.config.schema import Policy, Role, SystemCfg

# Roles that parse but have no implementation behind them yet. Remove one from here when its
# subsystem lands (and document it in docs/user-guide.md).
UNIMPLEMENTED_ROLES = {
    Role.proxy: "proxy kernels are not implemented yet",
}

__all__ = ["ConfigWarning", "UNIMPLEMENTED_ROLES", "did_you_mean", "lint"]


class ConfigWarning(UserWarning):
    """A configuration that works but probably does not say what its author meant."""


def _entries(cfg: SystemCfg, dirs: Sequence[AppDir]) -> list[Problem]:
    defined: dict[str, str] = {}
    for d in dirs:
        for name in d.functions():
            defined.setdefault(name, d.label)
    out = []
    searched = ", ".join(d.label for d in dirs)
    for i, t in enumerate(cfg.threads):
        if t.entry not in defined:
            out.append(Problem(("threads", i, "entry"),
                               f"thread {t.name}: no function {t.entry!r} in the application "
                               f"sources ({searched}){did_you_mean(t.entry, defined)}"))
    return out


def _roles(cfg: SystemCfg) -> list[Problem]:
    out = []
    from partita import subsys

    needs = subsys.role_needs()  # roles only a subsystem implements: one must claim the cpu
    claimed = {(cpu, role) for name, raw in cfg.subsys.items()
               for cpu, role in subsys.get(name).claims(raw).items()}
    for i, c in enumerate(cfg.cpus):
        why = UNIMPLEMENTED_ROLES.get(c.role)
        if why is not None:
            out.append(Problem(("cpus", i, "role"),
                               f"cpu {c.id}: role {c.role.value} is not supported: {why} "
                               "(use role: idle for a hart that only idles)"))
        elif c.role.value in needs and (c.id, c.role.value) not in claimed:
            out.append(Problem(("cpus", i, "role"), f"cpu {c.id}: role {c.role.value} "
                               + needs[c.role.value].format(cpu=c.id)))
    return out


def _ignored_fields(cfg: SystemCfg) -> list[Problem]:
    out = []
    for i, t in enumerate(cfg.threads):
        s = scheduler_of(cfg, t)
        if s is not None and s.policy in (Policy.edf, Policy.gedf) and t.priority is not None:
            out.append(Problem(("threads", i, "priority"),
                               f"thread {t.name}: priority is ignored by the {s.policy.value} "
                               "scheduler (jobs are ordered by absolute deadline)"))
    return out


def lint(cfg: SystemCfg, dirs: Sequence[AppDir]) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) of a schema-valid, consistent configuration."""
    return _roles(cfg) + _entries(cfg, dirs), _ignored_fields(cfg)
