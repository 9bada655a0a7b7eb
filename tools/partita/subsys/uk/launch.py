"""Start and stop the user-level kernel (uk/, a host process) beside a QEMU boot:
`partita run CFG --uk`. The UK maps the guest RAM file that `partita run` creates; it is
started once QEMU runs (a RAM file of an earlier boot would be the wrong one) and stopped
with SIGTERM at the end (it then marks itself absent). If it dies on its own, the watchdog
marks the mailbox absent in guest RAM, so waiting guest threads fail with PT_UK_EDEAD at
their next poll instead of waiting for their timeout."""

from __future__ import annotations

import mmap
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
UK_BIN = ROOT / "build" / "uk" / "uk"
RAM_BASE = 0x80000000
STATE_OFFSET = 32  # offsetof(struct pt_uk_area, uk_state), <partita/uk_abi.h>
CHAN_BYTES = 1856  # sizeof(struct pt_uk_chan)


@dataclass
class UkOptions:
    """How `partita run --uk` drives the UK: `start_after_s` of wall time after QEMU starts
    (0: at once), `stop_after_s` (None: at the end of the run) with `kill` (SIGKILL instead of
    SIGTERM, the UK gets no chance to say it leaves), `poll` (busy / backoff, default: the
    configuration's), `verbose` (every request on the UK's log), `sandbox` (a directory
    instead of the configuration's)."""

    start_after_s: float = 0.0
    stop_after_s: float | None = None
    kill: bool = False
    poll: str | None = None
    verbose: bool = False
    sandbox: Path | None = None  # instead of the configuration's
    times: Path | None = None  # the UK's per-request host timing log (uk --times)
    stop_when_parked: bool = False  # stop once the UK holds a request it has not answered


def build_uk() -> Path:
    """build/uk/uk, rebuilt by make when stale."""
    r = subprocess.run(["make", "-s", "uk"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"building uk/ failed:\n{r.stdout}{r.stderr}")
    return UK_BIN


def sandbox_dir(cfg: Path, sandbox: str) -> Path:
    """The sandbox of a configuration: `uk.sandbox`, relative to the YAML's folder."""
    p = Path(sandbox)
    return p if p.is_absolute() else (cfg.resolve().parent / p)


class UkProcess:
    """The UK beside one boot: `poll()` every few ms while QEMU runs, `stop()` at the end."""

    def __init__(self, elf: Path, ram_file: Path, sandbox: Path, log: Path, poll_mode: str,
                 opts: UkOptions) -> None:
        from partita.run.qemu import symbol

        self.elf, self.ram_file, self.sandbox, self.log = elf, ram_file, sandbox, log
        self.opts = opts
        self.poll_mode = opts.poll or poll_mode
        self.area_off = symbol(elf, "pt_uk_area")[0] - RAM_BASE
        self.proc: subprocess.Popen[bytes] | None = None
        self.t0 = time.monotonic()
        self.stopped = False
        self.died = False
        self.bin = build_uk()
        sandbox.mkdir(parents=True, exist_ok=True)

    def command(self) -> list[str]:
        cmd = [str(self.bin), "--elf", str(self.elf), "--ram", str(self.ram_file),
               "--sandbox", str(self.sandbox), "--poll", self.poll_mode]
        if self.opts.times is not None:
            cmd += ["--times", str(self.opts.times)]
        return cmd + (["--verbose"] if self.opts.verbose else [])

    def started(self) -> None:
        """QEMU has just started: begin timing (and start the UK if it starts at once)."""
        self.t0 = time.monotonic()
        self.poll()

    def poll(self) -> None:
        now = time.monotonic() - self.t0
        if self.proc is None and not self.stopped and now >= self.opts.start_after_s:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log, "ab") as f:
                self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                             stdout=f, stderr=f)
        if self.proc is None or self.stopped:
            return
        if (self.opts.stop_after_s is not None and now >= self.opts.stop_after_s) or \
                (self.opts.stop_when_parked and self._parked()):
            self._signal(signal.SIGKILL if self.opts.kill else signal.SIGTERM)
            return
        if self.proc.poll() is not None:  # died on its own
            self.died = True
            self.stopped = True
            self._mark_absent()

    def _signal(self, sig: int) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stopped = True
        self._mark_absent()

    def _parked(self) -> bool:
        """The UK holds a request it has not answered: the PK has one pending, the UK has
        taken every request sent, and no reply waits in any reply ring."""
        import struct

        try:
            with open(self.ram_file, "rb") as f, \
                    mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                nharts = struct.unpack_from("<I", m, self.area_off + 12)[0]
                served, _, sent, replied, failed = struct.unpack_from(
                    "<5Q", m, self.area_off + 48)
                unread = 0
                for h in range(min(nharts, 8)):
                    rep = self.area_off + 128 + h * CHAN_BYTES + 128 + 16 * 64
                    head, tail = struct.unpack_from("<I", m, rep)[0], \
                        struct.unpack_from("<I", m, rep + 64)[0]
                    unread += head != tail
        except (OSError, ValueError, struct.error):
            return False
        return sent > replied + failed and served >= sent and not unread

    def _mark_absent(self) -> None:
        """uk_state = ABSENT in guest RAM (what the UK does itself when it can)."""
        try:
            with open(self.ram_file, "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
                if 0 <= self.area_off and self.area_off + 64 <= len(m):
                    m[self.area_off + STATE_OFFSET: self.area_off + STATE_OFFSET + 4] = bytes(4)
        except (OSError, ValueError):
            pass

    def stop(self) -> int | None:
        """Stop the UK (SIGTERM); its exit status (None if it never started)."""
        if self.proc is None:
            return None
        if not self.stopped:
            self._signal(signal.SIGTERM)
        return self.proc.returncode

