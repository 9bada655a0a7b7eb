"""The soundness task-set generator: sets are schedulable by partita.analysis.spm and batch
as phases into valid configurations."""

from __future__ import annotations

from pathlib import Path

import pytest
from partita.config import load_resolved
from partita.subsys.spm import load

pytest.importorskip("partita.analysis.spm")


def test_generated_configs_are_valid_and_schedulable(tmp_path: Path) -> None:
    from partita.subsys.spm.bounds import bounds_for
    from partita.subsys.spm.soundness import write_configs

    paths = write_configs(12, 6, tmp_path, seed=3)
    assert len(paths) == 2
    for p in paths:
        spm = load(load_resolved(p).subsys.get("spm"))
        assert spm.nphases == 6
        b = bounds_for(spm)
        assert all(v["schedulable"] for v in b.values())
