"""Partition quotas: what the user partitions share of each kernel pool (docs/security.md)."""

from __future__ import annotations

from partita import limits
from partita.config.errors import Problem
from partita.config.schema import SystemCfg

UNLIMITED = 2**32 - 1  # a quota or trace budget that is not limited (kernel partitions)
QUOTA_KEYS = ("threads", "sems", "mutexes", "mqs", "mq_bytes")


def quota_pools(cfg: SystemCfg) -> dict[str, int]:
    """What the user partitions' quotas share: each kernel pool less what boot takes."""
    return {"threads": limits.PT_MAX_THREADS - cfg.ncpus - len(cfg.threads),
            "sems": limits.PT_MAX_SEMS, "mutexes": limits.PT_MAX_MUTEXES,
            "mqs": limits.PT_MAX_MQS, "mq_bytes": limits.PT_MQ_POOL_BYTES}


# Default quota of a user partition: a fair share of the pool, at most this much.
QUOTA_DEFAULT_CAP = {"threads": 8, "sems": 8, "mutexes": 8, "mqs": 4, "mq_bytes": 4096}


def default_quotas(cfg: SystemCfg) -> dict[str, int]:
    n_user = sum(1 for p in cfg.partitions if p.user)
    pools = quota_pools(cfg)
    return {k: max(0, min(QUOTA_DEFAULT_CAP[k], pools[k] // (n_user + 1))) for k in QUOTA_KEYS}


def check_quotas(cfg: SystemCfg) -> list[Problem]:
    """Every user partition can always get its whole quota: together they fit each pool."""
    out: list[Problem] = []
    users = [(i, p) for i, p in enumerate(cfg.partitions) if p.user]
    defaults = default_quotas(cfg)
    pools = quota_pools(cfg)
    for i, p in enumerate(cfg.partitions):
        if not p.user and ("rights" in p.model_fields_set or "quotas" in p.model_fields_set):
            key = "rights" if "rights" in p.model_fields_set else "quotas"
            out.append(Problem(("partitions", i, key),
                               f"{key} apply to user partitions only; {p.name!r} is a kernel "
                               "partition (user: false), whose threads are trusted"))
    for k in QUOTA_KEYS:
        total = 0
        for i, p in users:
            given = getattr(p.quotas, k)
            extra = sum(1 for t in cfg.threads if t.partition == p.name) if k == "threads" else 0
            if given is not None and k == "threads" and given < extra:
                out.append(Problem(("partitions", i, "quotas", k),
                                   f"threads quota {given} is below the partition's {extra} "
                                   "configured threads"))
            total += given if given is not None else defaults[k] + extra
        if total > pools[k] + (len(cfg.threads) if k == "threads" else 0):
            out.append(Problem(("partitions",),
                               f"quotas.{k} of the user partitions add up to {total}, more than "
                               f"the kernel's pool of {pools[k]}"
                               f"{' (after idle and configured threads)' if k == 'threads' else ''}"
                               ": lower them so every partition can always get its quota"))
    names = {s.name for s in cfg.schedulers}
    for i, p in enumerate(cfg.partitions):
        for j, n in enumerate(p.rights.schedulers or []):
            if n not in names:
                out.append(Problem(("partitions", i, "rights", "schedulers", j),
                                   f"unknown scheduler {n!r}"))
    return out
