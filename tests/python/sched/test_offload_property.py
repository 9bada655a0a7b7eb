"""Property test: the offloaded scheduler (kernel/sched/offload + the scheduler service behind
subsys/coproc) decides exactly as in-line FP (kernel/sched/fp) for the same random command
sequences: after every command the best ready thread, the running thread, the cpu a woken
thread preempts and the key order agree (offload_harness.c, built for the host here)."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
SRCS = [
    "tests/python/sched/offload_harness.c",
    "kernel/sched/sched.c", "kernel/sched/fp/fp.c", "kernel/sched/edf/edf.c",
    "kernel/sched/edf/edf_rq.c", "kernel/sched/gedf/gedf.c", "kernel/sched/tdm/tdm.c",
    "kernel/sched/offload/offload.c", "kernel/sched/offload/schedsvc.c",
    "subsys/coproc/coproc.c", "kernel/svc/ring.c", "kernel/svc/lock.c", "kernel/svc/wait.c",
    "tests/unit/fake_hal.c", "tests/unit/sched/policy_services.c",
]
ADD, WAKE, BLOCK, SETPRIO, DISPATCH, ROTATE, DELETE, CMP = range(8)
NSLOTS = 128


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no host C compiler")
    out = tmp_path_factory.mktemp("offload") / "harness.so"
    subprocess.run([cc, "-std=c11", "-D_DEFAULT_SOURCE", "-O1", "-shared", "-fPIC", "-Wall",
                    "-Werror", "-Ikernel/include", "-Ikernel", "-Itests/unit", "-o", str(out),
                    *SRCS], cwd=ROOT, check=True)
    h = ctypes.CDLL(str(out))
    h.h_step.argtypes = [ctypes.c_int] * 4 + [ctypes.POINTER(ctypes.c_int32)]
    h.h_commands.restype = ctypes.c_uint64
    return h


# Few slots and few priorities make ties (round robin, FIFO among equals) frequent; a slot
# drawn from all 128 now and then exercises the whole handle space.
slots = st.integers(0, 4 * NSLOTS - 1).map(lambda x: x % 5 if x < 3 * NSLOTS else x % NSLOTS)
prios = st.integers(0, 4 * 256 - 1).map(lambda x: x % 3 if x < 3 * 256 else x % 256)
command = st.tuples(st.sampled_from([ADD, ADD, WAKE, WAKE, WAKE, BLOCK, BLOCK, SETPRIO,
                                     DISPATCH, DISPATCH, DISPATCH, ROTATE, DELETE, CMP]),
                    slots, prios, slots)


def _run(lib: ctypes.CDLL, high_first: int, cmds: list[tuple[int, int, int, int]]) -> int:
    lib.h_reset(high_first)
    out = (ctypes.c_int32 * 8)()
    applied = 0
    for i, (op, slot, prio, other) in enumerate(cmds):
        if lib.h_step(op, slot, prio, other, out) == 0:
            applied += 1
        v = list(out)
        where = f"command {i} {(op, slot, prio, other)} of {cmds[:i + 1]}"
        assert v[0] == v[1], f"best ready thread: in-line {v[0]}, offloaded {v[1]} at {where}"
        assert v[2] == v[3], f"running thread: in-line {v[2]}, offloaded {v[3]} at {where}"
        assert v[4] == v[5], f"preempt_cpu: in-line {v[4]}, offloaded {v[5]} at {where}"
        assert v[6] == v[7], f"key_cmp: in-line {v[6]}, offloaded {v[7]} at {where}"
    return applied


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(high_first=st.integers(0, 1), cmds=st.lists(command, min_size=100, max_size=250))
def test_offloaded_decides_as_inline_fp(lib: ctypes.CDLL, high_first: int,
                                        cmds: list[tuple[int, int, int, int]]) -> None:
    _run(lib, high_first, cmds)


def test_the_harness_can_fail(lib: ctypes.CDLL) -> None:
    """A fixed sequence with preemption, round robin and a slot reuse: both sides agree and
    the offloaded side really posted commands (the comparison is not vacuous)."""
    cmds = [(ADD, 1, 10, 0), (ADD, 2, 10, 0), (ADD, 3, 5, 0), (WAKE, 1, 0, 0),
            (WAKE, 2, 0, 0), (DISPATCH, 0, 0, 0), (ROTATE, 0, 0, 0), (WAKE, 3, 0, 0),
            (DISPATCH, 0, 0, 0), (SETPRIO, 1, 1, 0), (DISPATCH, 0, 0, 0), (DELETE, 1, 0, 0),
            (ADD, 1, 7, 0), (WAKE, 1, 0, 0), (DISPATCH, 0, 0, 0), (CMP, 1, 0, 2)]
    assert _run(lib, 0, cmds) == len(cmds)
    assert lib.h_commands() >= 10
    out = (ctypes.c_int32 * 8)()
    lib.h_step(DISPATCH, 0, 0, 0, out)
    assert out[2] == out[3] == 4  # tid of slot 3 (priority 5 beats the others' 7 and 10)
