"""Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit.

The trace events as IntEnums: `Ev` (the kernel's), one `<Subsys>Ev` per subsystem,
and SUBSYS_RANGES (subsystem -> (first, count)).
"""

from enum import IntEnum


class Ev(IntEnum):
    """The kernel's events (enum pt_trace_event)."""

    BOOT = 1
    THREAD_INFO = 2
    RELEASE = 3
    DISPATCH = 4
    PREEMPT = 5
    COMPLETE = 6
    DEADLINE_MISS = 7
    OVERRUN = 8
    MIGRATE = 9
    BLOCK = 10
    UNBLOCK = 11
    IRQ_ENTER = 12
    IRQ_EXIT = 13
    SYSCALL = 14
    FAULT = 15
    THREAD_STOP = 16
    IDLE = 17
    MARK = 18
    SHUTDOWN = 19
    HEAP_ERROR = 20
    IRQ_CLAIM = 21
    IRQ_HANDLER_WAKE = 22
    IRQ_WAIT = 23
    SUBSYS_FIRST = 32
    SUBSYS_LAST = 255


class SpmEv(IntEnum):
    """Events of subsystem spm (enum pt_spm_trace_event)."""

    SLOT = 32
    LOAD_BEGIN = 33
    LOAD_END = 34
    UNLOAD_BEGIN = 35
    UNLOAD_END = 36
    IDLE_SLOT = 37
    EXEC_BEGIN = 38
    EXEC_END = 39
    RELEASE = 40
    JOB_DONE = 41
    CALIB = 42
    PHASE = 43


class IoEv(IntEnum):
    """Events of subsystem io (enum pt_io_trace_event)."""

    RX = 48
    TX = 49
    DROP = 50
    MIRROR_IN = 51
    MIRROR_OUT = 52
    CONSOLE = 53


class UkEv(IntEnum):
    """Events of subsystem uk (enum pt_uk_trace_event)."""

    SEND = 80
    REPLY = 81
    NOUK = 82
    DEAD = 83
    TIMEOUT = 84
    FULL = 85
    STALE = 86


class DataflowEv(IntEnum):
    """Events of subsystem dataflow (enum pt_dataflow_trace_event)."""

    FIRE = 96
    RTOS_SLOT = 97


SUBSYS_RANGES: dict[str, tuple[int, int]] = {
    "spm": (32, 16),
    "io": (48, 16),
    "uk": (80, 16),
    "dataflow": (96, 16),
}
