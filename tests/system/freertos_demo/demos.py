"""FreeRTOS's Demo/Common/Minimal kernel test files: how the harness (main.c) starts each,
asks it whether it still runs, and which interrupt entry point its tick hook calls. The
files are read from a FreeRTOS checkout given at run time (PT_FREERTOS_DEMO_DIR); none is in
this repository."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Demo:
    file: str   # in Demo/Common/Minimal
    start: str  # statement in main()
    check: str  # expression: nonzero while the demo runs without error
    tick: str = ""  # statement in the tick hook (its "interrupt")
    extra: str = ""  # C source the harness adds for it (a port's part of the demo)


P = "tskIDLE_PRIORITY"
INT_QUEUE_TIMER = """/* generated: IntQueue.c's port part, its two timer interrupts from the tick hook */
#include "FreeRTOS.h"
#include "IntQueue.h"
#include "IntQueueTimer.h"
static volatile int on;
static unsigned long n;
void vInitialiseTimerForIntQueueTest(void) { on = 1; }
void vIntQueueTimerTick(void)
{
\tif (!on)
\t\treturn;
\tn++;
\tif (n % 2 == 0)
\t\t(void)xFirstTimerHandler();
\tif (n % 3 == 0)
\t\t(void)xSecondTimerHandler();
}
"""
DEMOS: list[Demo] = [
    Demo("AbortDelay.c", "vCreateAbortDelayTasks();", "xAreAbortDelayTestTasksStillRunning()"),
    Demo("BlockQ.c", f"vStartBlockingQueueTasks({P} + 1);", "xAreBlockingQueuesStillRunning()"),
    Demo("EventGroupsDemo.c", "vStartEventGroupTasks();", "xAreEventGroupTasksStillRunning()",
         "vPeriodicEventGroupsProcessing();"),
    # (GenQTest.h still declares vMutexISRInteractionTest; GenQTest.c no longer defines it)
    Demo("GenQTest.c", f"vStartGenericQueueTasks({P});", "xAreGenericQueueTasksStillRunning()"),
    # IntQueueTimer.{h,c} are a port's: two timer interrupts of different rates, here ticks
    Demo("IntQueue.c", "vStartInterruptQueueTasks();", "xAreIntQueueTasksStillRunning()",
         "vIntQueueTimerTick();", extra=INT_QUEUE_TIMER),
    Demo("IntSemTest.c", "vStartInterruptSemaphoreTasks();",
         "xAreInterruptSemaphoreTasksStillRunning()", "vInterruptSemaphorePeriodicTest();"),
    Demo("MessageBufferAMP.c", "vStartMessageBufferAMPTasks(configMINIMAL_STACK_SIZE);",
         "xAreMessageBufferAMPTasksStillRunning()"),
    Demo("MessageBufferDemo.c", "vStartMessageBufferTasks(configMINIMAL_STACK_SIZE);",
         "xAreMessageBufferTasksStillRunning()"),
    Demo("PollQ.c", f"vStartPolledQueueTasks({P} + 1);", "xArePollingQueuesStillRunning()"),
    Demo("QPeek.c", "vStartQueuePeekTasks();", "xAreQueuePeekTasksStillRunning()"),
    Demo("QueueOverwrite.c", f"vStartQueueOverwriteTask({P});",
         "xIsQueueOverwriteTaskStillRunning()", "vQueueOverwritePeriodicISRDemo();"),
    Demo("QueueSet.c", "vStartQueueSetTasks();", "xAreQueueSetTasksStillRunning()",
         "vQueueSetAccessQueueSetFromISR();"),
    Demo("QueueSetPolling.c", "vStartQueueSetPollingTask();",
         "xAreQueueSetPollTasksStillRunning()", "vQueueSetPollingInterruptAccess();"),
    Demo("StaticAllocation.c", "vStartStaticallyAllocatedTasks();",
         "xAreStaticAllocationTasksStillRunning()"),
    Demo("StreamBufferDemo.c", "vStartStreamBufferTasks();", "xAreStreamBufferTasksStillRunning()",
         "vPeriodicStreamBufferProcessing();"),
    Demo("StreamBufferInterrupt.c", "vStartStreamBufferInterruptDemo();",
         "xIsInterruptStreamBufferDemoStillRunning()", "vBasicStreamBufferSendFromISR();"),
    Demo("TaskNotify.c", "vStartTaskNotifyTask();", "xAreTaskNotificationTasksStillRunning()",
         "xNotifyTaskFromISR();"),
    Demo("TaskNotifyArray.c", "vStartTaskNotifyArrayTask();",
         "xAreTaskNotificationArrayTasksStillRunning()", "xNotifyArrayTaskFromISR();"),
    Demo("TimerDemo.c", "vStartTimerDemoTask(pdMS_TO_TICKS(50));",
         "xAreTimerDemoTasksStillRunning(pdMS_TO_TICKS(2000))", "vTimerPeriodicISRTests();"),
    Demo("blocktim.c", "vCreateBlockTimeTasks();", "xAreBlockTimeTestTasksStillRunning()"),
    Demo("countsem.c", "vStartCountingSemaphoreTasks();",
         "xAreCountingSemaphoreTasksStillRunning()"),
    Demo("death.c", f"vCreateSuicidalTasks({P});", "xIsCreateTaskStillRunning()"),
    Demo("dynamic.c", "vStartDynamicPriorityTasks();", "xAreDynamicPriorityTasksStillRunning()"),
    Demo("recmutex.c", "vStartRecursiveMutexTasks();", "xAreRecursiveMutexTasksStillRunning()"),
    Demo("semtest.c", f"vStartSemaphoreTasks({P} + 1);", "xAreSemaphoreTasksStillRunning()"),
    Demo("flop.c", f"vStartMathTasks({P});", "xAreMathsTaskStillRunning()"),
    Demo("integer.c", f"vStartIntegerMathTasks({P});", "xAreIntegerMathsTaskStillRunning()"),
]


def header(demos: list[Demo], rounds: int) -> str:
    """demo_list.h for main.c: the starts, checks and tick-hook calls of `demos`."""
    incs = "".join(f'#include "{d.file[:-2]}.h"\n' for d in demos)
    if any(d.extra for d in demos):
        incs += "void vIntQueueTimerTick(void);\n"
    starts = " ".join(d.start for d in demos)
    checks = " ".join(
        f'if (!({d.check})) {{ fail++; say("demo: FAIL ", "{d.file[:-2]}"); }}' for d in demos)
    ticks = " ".join(d.tick for d in demos if d.tick)
    return (f"/* generated by test_freertos_demo.py */\n{incs}"
            f"#define DEMO_ROUNDS {rounds}\n#define DEMO_STARTS {starts}\n"
            f"#define DEMO_CHECKS {checks}\n#define DEMO_TICK_HOOKS {ticks}\n")
