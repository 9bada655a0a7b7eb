"""Acceptance of issue 14: FreeRTOS's own Demo/Common/Minimal kernel test files, compiled
unchanged against compat/freertos with harness/FreeRTOSConfig.h, run on Partita and
report no error. The files are not part of this repository: point PT_FREERTOS_DEMO_DIR at a
FreeRTOS checkout's FreeRTOS/Demo directory (with Common/Minimal and Common/include); without
it the test is skipped. Each file is first compiled alone (which build), then every file that
builds is linked into one image with main.c, which starts them all and asks each "still
running?" every 2 s (which pass).

Run alone for the per-file table: python tests/system/freertos_demo/test_freertos_demo.py DIR
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness"  # main.c, FreeRTOSConfig.h, the C library calls the demos use
ROOT = HERE.parents[2]
COMPAT = ROOT / "compat" / "freertos"
sys.path.insert(0, str(HERE))
from demos import DEMOS, Demo, header

# Warnings FreeRTOS's demo files give under the kernel's -Wall -Wextra -Werror; the wrapper
# that includes each file unchanged turns these off for it alone.
QUIET = ["unused-parameter", "unused-variable", "unused-but-set-variable", "sign-compare",
         "missing-field-initializers", "unused-function", "type-limits", "implicit-fallthrough",
         "int-to-pointer-cast", "pointer-to-int-cast", "cast-function-type"]
ROUNDS = 3


def demo_dir() -> Path | None:
    d = os.environ.get("PT_FREERTOS_DEMO_DIR")
    return Path(d) if d and (Path(d) / "Common" / "Minimal").is_dir() else None


def wrapper(src: Path) -> str:
    pragmas = "".join(f'#pragma GCC diagnostic ignored "-W{w}"\n' for w in QUIET)
    return f"/* generated: {src.name}, unchanged */\n{pragmas}#include \"{src}\"\n"


def compile_alone(d: Demo, demo: Path, work: Path) -> str:
    """'' when the file compiles against the layer, else the first error lines."""
    w = work / f"w_{d.file}"
    w.write_text(wrapper(demo / "Common" / "Minimal" / d.file))
    p = subprocess.run(
        ["riscv64-unknown-elf-gcc", "-march=rv64imac_zicsr_zifencei", "-mabi=lp64", "-std=c11",
         "-fsyntax-only", "-ffreestanding", "-Wall", "-Wextra", "-Werror", f"-I{HARNESS}",
         f"-I{COMPAT}", f"-I{ROOT / 'kernel/include'}", f"-I{ROOT / 'apps'}",
         f"-I{demo / 'Common' / 'include'}", str(w)],
        check=False, capture_output=True, text=True)
    if p.returncode == 0:
        return ""
    errs = [ln for ln in p.stderr.splitlines() if "error" in ln]
    return "; ".join(e.split("error: ", 1)[-1] for e in errs[:3])


def build_dir(demos: list[Demo], demo: Path, work: Path) -> Path:
    """The out-of-tree application directory of the image: a wrapper per demo file, the
    generated demo_list.h, and links to the demos' headers."""
    app = work / "demoapp"
    app.mkdir(exist_ok=True)
    for d in demos:
        (app / f"w_{d.file}").write_text(wrapper(demo / "Common" / "Minimal" / d.file))
    for h in (demo / "Common" / "include").glob("*.h"):
        link = app / h.name
        if not link.exists():
            link.symlink_to(h)
    for d in demos:
        if d.extra:
            (app / f"x_{d.file}").write_text(d.extra)
    (app / "demo_list.h").write_text(header(demos, ROUNDS))
    return app


def config(app: Path, work: Path) -> Path:
    y = work / "freertos_demo.yaml"
    y.write_text(f"""name: t_freertos_demo
ncpus: 1
icount_shift: 0
run_for_ms: {ROUNDS * 2000 + 500}
apps: [{HARNESS}, {app}, {COMPAT}]
schedulers:
  - {{name: fp0, policy: fp, cpus: [0], rr_slice_ms: 1}}
partitions:
  - {{name: rtos, heap: {{mode: os, bytes: 131072}}}}
threads:
  - {{name: freertos, entry: freertos_main_entry, cpu: 0, kind: aperiodic, priority: 32, partition: rtos}}
""")
    return y


def run(demo: Path, work: Path) -> tuple[dict[str, str], dict[str, str], str]:
    """(build error per file, run verdict per linked file, console)."""
    from partita.run.run import run_config

    only = os.environ.get("PT_FREERTOS_DEMOS")  # a comma list of files, to look at a few
    demos = [d for d in DEMOS if not only or d.file in only.split(",")]
    built = {d.file: compile_alone(d, demo, work) for d in demos}
    ok = [d for d in demos if not built[d.file]]
    app = build_dir(ok, demo, work)
    r = run_config(config(app, work), work / "out", png=False)
    console = r.boot.console if r.boot else (r.error or "")
    failed = set(re.findall(r"^demo: FAIL (\S+)", console, re.MULTILINE))
    rounds = len(re.findall(r"^demo: round \d+", console, re.MULTILINE))
    verdict = {}
    for d in ok:
        name = d.file[:-2]
        verdict[d.file] = ("FAIL" if name in failed else
                           "pass" if rounds == ROUNDS else f"no verdict ({rounds} rounds)")
    return built, verdict, console


@pytest.mark.skipif(demo_dir() is None,
                    reason="PT_FREERTOS_DEMO_DIR is not set to a FreeRTOS checkout's "
                           "FreeRTOS/Demo directory (the demo files are not in this repository)")
def test_freertos_demo_minimal_files_pass(tmp_path: Path) -> None:
    demo = demo_dir()
    assert demo is not None
    built, verdict, console = run(demo, tmp_path)
    bad = {f: e for f, e in built.items() if e}
    failed = {f: v for f, v in verdict.items() if v != "pass"}
    assert not failed and not bad, (bad, failed, console[-3000:])


if __name__ == "__main__":
    import tempfile

    os.environ["PT_FREERTOS_DEMO_DIR"] = sys.argv[1]
    with tempfile.TemporaryDirectory() as t:
        built, verdict, console = run(Path(sys.argv[1]), Path(t))
    print("\n".join(ln for ln in console.splitlines() if ln.startswith(("demo:", "freertos:"))
                    or "PANIC" in ln or "FAULT" in ln))
    for f, e in built.items():
        print(f"{f:26} {'build: ' + e if e else verdict.get(f, '?')}")
