/* Shared by the FreeRTOS test programs (tests/system/freertos): each module starts its tasks
 * and records its checks; the check task prints them when the run is over. */
#ifndef FRTEST_H
#define FRTEST_H

#include "FreeRTOS.h"
#include "task.h"

/* Record one check: printed as "frt: ok NAME" or "frt: FAIL NAME (detail)" by the check task. */
void frt_check(const char *name, int ok, long detail);
/* The tick at which the check task reports; tasks finish their scenarios before it. */
#define FRT_END_TICK 400

void vStartDelayTasks(UBaseType_t prio);
void vStartDynamicPriorityTasks(UBaseType_t prio);
void vStartTimeSliceTasks(UBaseType_t prio);
void vStartBlockingQueueTasks(UBaseType_t prio);
void vStartPolledQueueTasks(UBaseType_t prio);
void vStartCountingSemaphoreTasks(UBaseType_t prio);
void vStartRecursiveMutexTasks(UBaseType_t prio);
void vStartGenericQueueTasks(UBaseType_t prio);
void vStartNotifyTasks(UBaseType_t prio);
void vStartIsrTasks(UBaseType_t prio);
void vIsrTestTickHook(void);
void vStartTimerTests(UBaseType_t prio);
void vTimerTestTickHook(void);
void vStartEventTests(UBaseType_t prio);

void vReportLayerCosts(void);

/* Each module's "still running" counter check, called by the check task at the end. */
BaseType_t xAreBlockingQueuesStillRunning(void);
BaseType_t xArePollingQueuesStillRunning(void);
BaseType_t xAreCountingSemaphoreTasksStillRunning(void);
BaseType_t xAreRecursiveMutexTasksStillRunning(void);

#endif
