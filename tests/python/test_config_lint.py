"""Mistakes caught at `partita config` time (issue 11, item 6): entries against the
application sources, unimplemented roles, fields a policy ignores, "did you mean"."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from partita.cli import main
from partita.config import ConfigError, ConfigWarning, load_resolved
from partita.config.apps import functions_in

EDF = """
name: t
ncpus: 1
schedulers: [{name: e0, policy: edf, cpus: [0]}]
threads:
  - {name: a, entry: app_fir, period_ms: 10, wcet_ms: 1, priority: 3}
"""


def _write(tmp_path: Path, text: str, name: str = "cfg.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_priority_under_edf_is_a_warning_naming_the_field(tmp_path: Path) -> None:
    with pytest.warns(ConfigWarning) as got:
        load_resolved(_write(tmp_path, EDF))
    want = (f"{tmp_path / 'cfg.yaml'}:6: threads[0].priority: thread a: priority is ignored by "
            "the edf scheduler (jobs are ordered by absolute deadline)")
    assert [str(w.message) for w in got] == [want]


def test_no_warning_for_priority_under_fp(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_resolved(_write(tmp_path, EDF.replace("policy: edf", "policy: fp")))


def test_cli_prints_the_warning_once_and_still_succeeds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--check", str(_write(tmp_path, EDF))]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "threads[0].priority" in err[0]


def test_unknown_field_suggests_the_unit_form(tmp_path: Path) -> None:
    text = EDF.replace("period_ms: 10", "periodms: 10").replace(", priority: 3", "")
    with pytest.raises(ConfigError) as ei:
        load_resolved(_write(tmp_path, text))
    lines = ei.value.lines()
    assert any("threads[0].periodms: unknown field (did you mean 'period_ms'?)" in ln
               for ln in lines), lines
    assert len(lines) == len(set(lines))  # no duplicated messages


def test_entry_in_an_app_dir_outside_the_tree(tmp_path: Path) -> None:
    mine = tmp_path / "myapp"
    mine.mkdir()
    (mine / "task.c").write_text("#include <stdint.h>\n/* app_mine(void) { */\n"
                                 "void\nmy_task(void *arg)\n{\n\t(void)arg;\n}\n")
    cfg = _write(tmp_path, EDF.replace("app_fir", "my_task").replace(", priority: 3", ""))
    with pytest.raises(ConfigError, match="no function 'my_task'"):
        load_resolved(cfg)
    assert load_resolved(cfg, app_dirs=[mine]).threads[0].entry == "my_task"
    named = _write(tmp_path, cfg.read_text() + "apps: [myapp]\n", "named.yaml")
    assert load_resolved(named).apps == ["myapp"]
    bad = _write(tmp_path, cfg.read_text() + "apps: [nothere]\n", "bad.yaml")
    with pytest.raises(ConfigError, match=r"apps: application directory 'nothere' not found"):
        load_resolved(bad)


def test_function_scan() -> None:
    src = """
#define X(a) a
static void hidden(void *arg) { }
int visible(int a,
            int (*cb)(int)) {
	if (a) { return 0; }
	return 1;
}
void proto(void);
/* void commented(void) { } */
const char *
named(void)
{
}
"""
    assert functions_in(src) == ["visible", "named"]
