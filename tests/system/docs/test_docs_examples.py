"""docs/python-api.md's session runs as written (the code blocks, in order, in one namespace,
from the repository root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_python_api_session(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dask.distributed")
    text = (ROOT / "docs" / "python-api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 3
    monkeypatch.chdir(ROOT)
    ns: dict[str, object] = {}
    for code in blocks:
        exec(compile(code, "docs/python-api.md", "exec"), ns)  # noqa: S102
    out = capsys.readouterr().out
    assert "sys_fp [(" in out and "with an extra task: False" in out
    assert "\n[]\n" in out  # gate(result): the run passes
    assert "method,accepted,sets,ratio" in out
