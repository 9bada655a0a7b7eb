"""`partita run --gdb` (issue 11, item 7): QEMU waits halted with its gdb stub, the printed
gdb-multiarch command attaches with symbols, and every hart is one gdb thread."""

from __future__ import annotations

import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from partita.run.build import ROOT

CFG = Path(__file__).resolve().parent.parent / "api" / "kstack.yaml"  # 2 harts


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


@pytest.mark.skipif(shutil.which("gdb-multiarch") is None,
                    reason="gdb-multiarch not installed (scripts/bootstrap.sh installs it)")
def test_gdb_session_attaches_with_one_thread_per_hart(tmp_path: Path) -> None:
    port = _free_port()
    run = subprocess.Popen([sys.executable, "-m", "partita.cli", "run", str(CFG), "--gdb",
                            "--gdb-port", str(port), "--out", str(tmp_path), "--quiet",
                            "--no-png"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        assert run.stdout is not None
        lines = []
        for line in run.stdout:  # the build comes first: no time limit but the test's own
            lines.append(line)
            if line.strip().startswith("gdb-multiarch"):
                break
        cmd = shlex.split(lines[-1].strip())
        assert cmd[:3] == ["gdb-multiarch", "-q", str(ROOT / "build/t_kstack/partita.elf")]
        assert "2 hart(s) = gdb threads 1..2" in "".join(lines)
        deadline = time.monotonic() + 120
        while True:  # the stub listens once QEMU is up
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "".join(lines)
                time.sleep(0.2)
        gdb = subprocess.run([*cmd, "-batch", "-ex", "info threads", "-ex", "break pt_kmain",
                              "-ex", "continue", "-ex", "kill"], capture_output=True,
                             text=True, timeout=120, check=False)
        out = gdb.stdout + gdb.stderr
        assert "Thread 1.1 (CPU#0" in out and "Thread 1.2 (CPU#1" in out, out
        assert "pt_kmain (cpu=" in out, out  # symbols loaded
    finally:
        run.kill()
        run.wait()
