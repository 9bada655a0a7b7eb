"""`partita new app NAME` writes a skeleton outside the tree that builds, links only its own
sources beside the kernel, boots, prints through the trace and passes its own test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from partita.cli import main
from partita.run.build import ROOT


def test_skeleton_builds_boots_and_passes_its_own_test(tmp_path: Path) -> None:
    assert main(["new", "app", "skel_ci", "--dir", str(tmp_path)]) == 0
    app = tmp_path / "skel_ci"
    assert sorted(p.name for p in app.iterdir()) == ["skel_ci.c", "skel_ci.yaml",
                                                     "test_skel_ci.py"]
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        str(app)], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                       check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed" in p.stdout
    # only the skeleton and apps/lib were linked beside the kernel
    mk = (ROOT / "build" / "skel_ci" / "apps.mk").read_text()
    assert mk.splitlines()[-1] == f"APP_DIRS := apps/lib {app.resolve()}"
    objs = {q.parent.name for q in (ROOT / "build/skel_ci/obj/apps").rglob("*.o")}
    assert "automotive" not in objs and "test" not in objs


def test_new_refuses_a_bad_name(tmp_path: Path) -> None:
    assert main(["new", "app", "9lives", "--dir", str(tmp_path)]) == 2
    assert main(["new", "app", "ok", "--dir", str(tmp_path)]) == 0
    assert main(["new", "app", "ok", "--dir", str(tmp_path)]) == 1  # never overwrites


def test_build_names_the_first_real_error_first(tmp_path: Path) -> None:
    import pytest
    from partita.run.build import BuildError, build

    assert main(["new", "app", "skel_bad", "--dir", str(tmp_path)]) == 0
    src = tmp_path / "skel_bad" / "skel_bad.c"
    src.write_text(src.read_text().replace("jobs++;", "jobs++ oops;"))
    with pytest.raises(BuildError) as ei:
        build(tmp_path / "skel_bad" / "skel_bad.yaml", quiet=True)
    first = str(ei.value).splitlines()[0]
    assert first.startswith(f"kernel build failed: {src.resolve()}:"), first
    assert "error:" in first


def test_run_with_app_dir_builds_analyses_and_reports(tmp_path: Path) -> None:
    """`--app-dir` reaches every step of `partita run`: config checks, link, analysis."""
    import json

    assert main(["new", "app", "skel_dir", "--dir", str(tmp_path)]) == 0
    app = tmp_path / "skel_dir"
    cfg = tmp_path / "elsewhere.yaml"
    cfg.write_text((app / "skel_dir.yaml").read_text().replace("apps: [.]\n", ""))
    assert main(["config", "--check", str(cfg)]) == 2  # the entry is nowhere without it
    p = subprocess.run([sys.executable, "-m", "partita.cli", "run", str(cfg), "--app-dir",
                        str(app), "--out", str(tmp_path / "out"), "--quiet", "--no-png"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    bounds = json.loads((tmp_path / "out" / "bounds.json").read_text())
    assert bounds["tasks"]["skel_dir"]["schedulable"] is True
