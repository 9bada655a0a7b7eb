"""Every configuration `partita config` accepts builds and boots (issue 7): a deterministic
sample of accepted mutants of the fuzzing seed (tests/python/fuzz_config.py) is built and
booted for 20 ms of virtual time each; none may panic, fault the kernel or hang."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from partita.config import ConfigError, load_resolved
from partita.run.run import run_config

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from fuzz_config import SEED, mutated_doc

SAMPLE = int(os.environ.get("PARTITA_FUZZ_BOOTS", "3"))


def _normalized(doc: dict) -> dict:
    doc = dict(doc)
    doc["name"] = "fuzzboot"  # one build directory: only the tables recompile
    for unit in ("ns", "us", "ms", "s"):
        doc.pop(f"run_for_{unit}", None)
    doc["run_for_ms"] = 20  # bounded boot; the mutation is in everything else
    return doc


def accepted_mutants(tmp: Path, n: int) -> list[str]:
    """The first `n` distinct accepted mutants that differ from the seed (derandomized: the
    same ones every run)."""
    found: list[dict] = []
    seed = _normalized(yaml.safe_load(SEED))

    @settings(max_examples=2000, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(mutated_doc())
    def collect(doc: dict) -> None:
        if len(found) >= n or not isinstance(doc, dict):
            return
        doc = _normalized(doc)
        if doc == seed or doc in found:
            return
        p = tmp / "probe.yaml"
        p.write_text(yaml.safe_dump(doc, sort_keys=False))
        try:
            load_resolved(p)
        except ConfigError:
            return
        found.append(doc)

    collect()
    return [yaml.safe_dump(d, sort_keys=False) for d in found]


def test_accepted_mutants_build_and_boot(tmp_path: Path) -> None:
    mutants = accepted_mutants(tmp_path, SAMPLE)
    assert len(mutants) == SAMPLE, "the fuzzer should find accepted mutants"
    for i, text in enumerate(mutants):
        cfg = tmp_path / f"mutant{i}.yaml"
        cfg.write_text(text)
        r = run_config(cfg, tmp_path / f"out{i}", png=False, bounds=False, timeout_s=120)
        assert r.ok, f"mutant {i}:\n{text}\n{r.describe()}"
        assert "PANIC" not in r.boot.console, text
        assert r.timeline is not None and r.timeline.end_ns >= 19_000_000, text
