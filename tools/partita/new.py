"""`partita new app NAME [--dir DIR]`: write a working application skeleton outside the tree.

DIR/NAME/ (default ./NAME) gets:
- NAME.c: a periodic job body that computes and prints through the trace (pt_printf);
- NAME.yaml: a one-hart system running it for 100 ms of virtual time, `apps: [.]` so the
  directory is linked beside the kernel (only it, apps/lib and the kernel);
- test_NAME.py: a pytest that builds, boots and checks the run (`partita run` gate, jobs,
  printed lines).

    partita new app blinky && partita run blinky/blinky.yaml && pytest -q blinky
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

SOURCE = """\
/* {name}: one job of the periodic task `{name}` ({name}.yaml). The kernel calls
 * {name}_job once per release; the job completes when it returns. arg = loop iterations. */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>

static uint32_t jobs; /* application globals are private to each user partition */

void {name}_job(void *arg)
{{
	uint64_t n = (uint64_t)(uintptr_t)arg;
	volatile uint64_t acc = 0; /* volatile: the loop is the work, keep it */
	for (uint64_t i = 0; i < n; i++)
		acc += i * i;
	jobs++;
	if (jobs % 5 == 1) /* through the trace: costs this job a few us, never another core */
		pt_printf("{name}: job %u sum %lu\\n", (unsigned)jobs, (unsigned long)acc);
}}
"""

CONFIG = """\
# {name}: one periodic task on one hart (`partita run {name}.yaml`). apps: [.] links this
# directory beside the kernel; see docs/user-guide.md for every field.
name: {name}
ncpus: 1
run_for_ms: 100
apps: [.]
schedulers: [{{name: fp0, policy: fp, cpus: [0]}}]
partitions: [{{name: user, user: true}}]
threads:
  - {{name: {name}, entry: {name}_job, arg: 1000, partition: user, period_ms: 10, wcet_ms: 1}}
"""

TEST = """\
\"\"\"{name} builds, boots under QEMU, meets every deadline and prints.\"\"\"

from pathlib import Path

from partita.run.run import gate, run_config

HERE = Path(__file__).resolve().parent


def test_{name}_runs(tmp_path: Path) -> None:
    r = run_config(HERE / "{name}.yaml", tmp_path, png=False, bounds=False)
    assert gate(r) == [], r.describe()
    st = r.stats["{name}"]
    assert st.completed >= 9 and st.misses == 0, st
    printed = (tmp_path / "print.log").read_text()
    assert "{name}: job 1 sum 332833500" in printed, printed
    assert printed.count("{name}: job") == 2  # jobs 1 and 6 of the first 10
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=["app"], help="what to create")
    p.add_argument("name", help="C identifier, at most 11 characters (thread name + _job)")
    p.add_argument("--dir", type=Path, default=Path("."), help="parent directory (default .)")


def run(args: argparse.Namespace) -> int:
    name: str = args.name
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,10}", name):
        print(f"error: app name {name!r}: a C identifier of at most 11 characters",
              file=sys.stderr)
        return 2
    target = args.dir / name
    if target.exists():
        print(f"error: {target} already exists", file=sys.stderr)
        return 1
    target.mkdir(parents=True)
    files = {f"{name}.c": SOURCE, f"{name}.yaml": CONFIG, f"test_{name}.py": TEST}
    for fname, text in files.items():
        (target / fname).write_text(text.format(name=name))
    print(f"wrote {', '.join(str(target / f) for f in files)}\n"
          f"next: partita run {target / (name + '.yaml')} ; pytest -q {target}")
    return 0
