"""The FreeRTOS API layer (compat/freertos) in QEMU: the test programs of this directory
(FreeRTOS-style kernel tests: delays, dynamic priorities, time slicing, blocking and polled
queues, queue ends, counting semaphores, recursive mutexes, priority inheritance, task
notifications, abort delay, the heap, hooks, from-ISR calls from the tick hook) report one
line per check; and a FreeRTOS world on one core beside a native partition on another, both
keeping their timing."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from partita.run.run import RunResult, gate, run_config

HERE = Path(__file__).resolve().parent
COMPAT = HERE.parents[2] / "compat" / "freertos"

# every check the programs make: a module that stops reporting fails the test
EXPECTED = {
    "scheduler_not_started", "tasks_start_after_scheduler", "tick_starts_at_zero", "ms_to_ticks",
    "delay_exact_ticks", "delay_native_time", "delay_zero_returns", "delay_until_period",
    "delay_until_no_drift", "delay_until_late_returns_false",
    "dyn_current_handle", "dyn_name", "dyn_priority_get",
    "dyn_counter_runs_while_controller_blocks", "dyn_state_running_ready", "dyn_state_suspended",
    "dyn_suspended_does_not_run", "dyn_resumed_runs", "dyn_resume_preempts",
    "dyn_limited_suspended_itself", "dyn_priority_set", "dyn_scheduler_state_suspended",
    "dyn_suspend_all_holds_higher_task", "dyn_scheduler_state_running",
    "dyn_critical_holds_higher_task", "dyn_raised_task_preempts", "dyn_create_higher_runs_at_once",
    "dyn_create_lower_runs_later", "dyn_number_of_tasks", "dyn_state_blocked", "dyn_delete_other",
    "dyn_delete_self", "time_slicing_equal_priorities_share",
    "blockq_pair1_sequence", "blockq_pair2_sequence", "blockq_pair3_sequence",
    "still_running_blockq", "pollq_sequence", "still_running_pollq",
    "sem_binary_starts_empty", "sem_take_times_out_after_block_time", "sem_binary_give_take",
    "countsem_cycles", "still_running_countsem",
    "mutex_give_unheld_fails", "mutex_not_recursive", "mutex_holder", "mutex_give",
    "recmutex_errors", "recmutex_all_cycle", "mutex_priority_inheritance",
    "still_running_recmutex",
    "queue_front_back_peek_order", "queue_receive_times_out_after_block_time",
    "queue_blocked_peek_leaves_item", "queue_overwrite", "idle_hook_ran", "assert_stops_the_task",
    "static_idle_task_memory_asked_once",
    # notifytest.c: notifications, abort delay, heap, stack-overflow hook
    "notify_take_counts_and_clears", "notify_take_decrements",
    "notify_and_query_previous_after_entry_clear", "notify_without_overwrite_fails_when_pending",
    "notify_wait_value_and_exit_clear", "notify_other_index_does_not_wake", "notify_state_clear",
    "notify_indexed_wakes_and_clears", "notify_wait_times_out", "abort_delay_ends_notify_wait",
    "abort_delay_on_suspended_task_fails", "abort_delay_ends_delay", "heap_malloc_counts",
    "heap_too_big_fails_with_hook", "heap_free_returns", "stack_overflow_hook_names_task",
    # isrtest.c: from-ISR calls from the tick hook
    "isr_sem_give_wakes_at_its_tick", "isr_queue_send_received_in_order",
    "isr_notify_give_wakes_at_its_tick", "critical_section_masks_tick_hook",
    "tick_hook_catches_up_missed_ticks", "suspended_scheduler_lets_tick_hook_run",
    "isr_resume_from_isr", "tick_hook_every_tick",
    # timertest.c: software timers
    "static_timer_task_memory_asked_once", "timer_one_shot_expires_at_period",
    "timer_auto_reload_periodic_then_stopped", "timer_change_period", "timer_reset_restarts_period",
    "timer_delete", "timer_pend_function_call", "timer_start_from_isr", "timer_attributes",
    "timer_callbacks_in_service_task",
    # evtest.c: event groups, stream and message buffers, queue sets
    "event_group_wait_any_and_all", "event_group_clear_returns_previous",
    "event_group_wait_times_out", "event_group_sync", "event_group_static_and_from_isr",
    "stream_buffer_trigger_level", "stream_buffer_receive_times_out",
    "stream_buffer_partial_write_and_read", "stream_buffer_from_isr", "message_buffer_boundaries",
    "message_buffer_never_fits_returns_at_once", "queue_set_selects_in_order",
    "queue_set_remove_needs_empty",
}


def checks_of(r: RunResult) -> dict[str, bool]:
    console = r.boot.console
    got = {m.group(2): m.group(1) == "ok"
           for m in re.finditer(r"^frt: (ok|FAIL) (\w+)", console, re.MULTILINE)}
    done = re.search(r"^frt: done pass=(\d+) fail=(\d+)$", console, re.MULTILINE)
    assert done, r.describe()
    assert int(done.group(1)) + int(done.group(2)) == len(got), r.describe()
    return got


@pytest.mark.parametrize("cfg", ["freertos.yaml", "freertos_user.yaml"])
def test_freertos_programs_pass(boot: Callable[..., RunResult], cfg: str) -> None:
    # kernel partition, and user partition (every call a checked system call)
    r = boot(str(HERE / cfg))
    got = checks_of(r)
    failed = sorted(n for n, ok in got.items() if not ok)
    assert not failed, failed
    assert set(got) == EXPECTED, (sorted(EXPECTED - set(got)), sorted(set(got) - EXPECTED))
    # the one bad call (main.c's task Bad): reported with its task, thread, file and line
    asserts = re.findall(r"^freertos: assert failed: task (\w+) \(tid (\d+)\) at (\S+):(\d+)$",
                         r.boot.console, re.MULTILINE)
    assert len(asserts) == 1 and asserts[0][0] == "Bad", r.describe()
    assert asserts[0][2].endswith("compat/freertos/tasks.c") and int(asserts[0][1]) > 0


def test_freertos_world_and_native_partition_keep_their_timing(tmp_path: Path) -> None:
    # bounds: every native job is checked against its response-time analysis bound
    r = run_config(HERE / "freertos_native.yaml", tmp_path, png=False, bounds=True)
    assert r.ok, r.describe()
    assert gate(r) == [], gate(r)  # no miss, no budget abort, no job above its bound
    got = checks_of(r)
    assert all(got.values()), sorted(n for n, ok in got.items() if not ok)
    assert got["delay_until_no_drift"] and got["delay_exact_ticks"]
    # every native release in 500 ms completed: 100 jobs of 5 ms, 50 of 10 ms
    assert r.stats["fir_fast"].completed == 100 and r.stats["iir_ctl"].completed == 50, r.stats
    assert r.stats["fir_fast"].misses == 0 and r.stats["iir_ctl"].misses == 0


@pytest.mark.parametrize("option, message", [
    ("#define configUSE_PREEMPTION 0", "always preemptive"),
    ("#define configNUMBER_OF_CORES 2", "runs on one core"),
    ("#define configCHECK_FOR_STACK_OVERFLOW 3", "0, 1 or 2"),
    ("#define configTICK_RATE_HZ 3", "must divide 10^9"),
    ("#define configUSE_CO_ROUTINES 1", "not implemented on Partita"),
    ("#define configUSE_MPU_WRAPPERS 1", "partition"),
])
def test_options_partita_cannot_honour_are_compile_errors(tmp_path: Path, option: str,
                                                          message: str) -> None:
    base = (HERE / "FreeRTOSConfig.h").read_text()
    name = option.split()[1]
    lines = [ln for ln in base.splitlines() if not ln.startswith(f"#define {name} ")]
    cfg = "\n".join(lines).replace("#endif", f"{option}\n#endif")
    (tmp_path / "FreeRTOSConfig.h").write_text(cfg)
    src = tmp_path / "app.c"
    src.write_text('#include "FreeRTOS.h"\n#include "task.h"\n')
    p = subprocess.run(["riscv64-unknown-elf-gcc", "-fsyntax-only", "-ffreestanding",
                        f"-I{tmp_path}", f"-I{COMPAT}", f"-I{HERE.parents[2] / 'kernel/include'}",
                        str(src)], check=False, capture_output=True, text=True)
    assert p.returncode != 0 and message in p.stderr, p.stderr


def test_the_test_configuration_compiles_cleanly(tmp_path: Path) -> None:
    src = tmp_path / "app.c"
    src.write_text('#include "FreeRTOS.h"\n#include "task.h"\n#include "semphr.h"\n')
    p = subprocess.run(["riscv64-unknown-elf-gcc", "-fsyntax-only", "-ffreestanding", "-Wall",
                        "-Werror", f"-I{HERE}", f"-I{COMPAT}",
                        f"-I{HERE.parents[2] / 'kernel/include'}", str(src)],
                       check=False, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_time_slicing_without_the_cores_round_robin_is_refused(
        boot: Callable[..., RunResult]) -> None:
    r = boot(str(HERE / "freertos_norr.yaml"))
    console = r.boot.console
    assert ("freertos: configUSE_TIME_SLICING needs the world's fp scheduler to have "
            "rr_slice_ns: 1000000 (it has 0)") in console, r.describe()
    assert re.search(r"^freertos: assert failed: task main \(tid \d+\) at \S+/port\.c:\d+$",
                     console, re.MULTILINE), r.describe()
    assert "frt: " not in console  # no task of the world ran
