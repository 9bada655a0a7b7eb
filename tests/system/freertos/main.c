/*
 * The FreeRTOS application of the system tests: an ordinary FreeRTOS main() that creates the
 * test tasks of each module (in the style of FreeRTOS's Demo/Common/Minimal kernel tests),
 * a check task, and starts the scheduler. Every check prints one console line; the check task
 * ends with "frt: done pass=N fail=M" (tests/system/freertos/test_freertos.py reads them).
 */
#include <partita/api.h>
#include "frtest.h"
#include "lib/ufmt.h"

#define MAX_CHECKS 160

static struct {
	const char *name;
	int ok;
	long detail;
} checks[MAX_CHECKS];
static int nchecks;
static unsigned long idle_calls;
static TaskHandle_t bad_h;
static volatile int bad_went_on;
static volatile int idle_memory_asked, timer_memory_asked;

/* A bad call: configASSERT reports this task, the file and the line, and stops it. */
static void bad_task(void *arg)
{
	(void)arg;
	vTaskResume(NULL); /* FreeRTOS asserts: resuming needs a task */
	bad_went_on = 1;
	for (;;)
		vTaskDelay(10);
}

void frt_check(const char *name, int ok, long detail)
{
	taskENTER_CRITICAL();
	if (nchecks < MAX_CHECKS) {
		checks[nchecks].name = name;
		checks[nchecks].ok = ok;
		checks[nchecks].detail = detail;
		nchecks++;
	}
	taskEXIT_CRITICAL();
}

static void say(char *b, int *k, const char *s)
{
	while (*s && *k < 150)
		b[(*k)++] = *s++;
}

static void print_check(const char *name, int ok, long detail)
{
	char b[160];
	int k = 0;
	say(b, &k, ok ? "frt: ok " : "frt: FAIL ");
	say(b, &k, name);
	if (!ok) {
		say(b, &k, " (");
		pt_ufmt_i64(b, &k, detail);
		say(b, &k, ")");
	}
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}

static void check_task(void *arg)
{
	(void)arg;
	TickType_t last = 0;
	vTaskDelayUntil(&last, FRT_END_TICK);
	vReportLayerCosts();
	frt_check("still_running_blockq", xAreBlockingQueuesStillRunning(), 0);
	frt_check("still_running_pollq", xArePollingQueuesStillRunning(), 0);
	frt_check("still_running_countsem", xAreCountingSemaphoreTasksStillRunning(), 0);
	frt_check("still_running_recmutex", xAreRecursiveMutexTasksStillRunning(), 0);
	frt_check("idle_hook_ran", idle_calls > 0, (long)idle_calls);
	frt_check("static_idle_task_memory_asked_once", idle_memory_asked == 1, idle_memory_asked);
	frt_check("static_timer_task_memory_asked_once", timer_memory_asked == 1, timer_memory_asked);
	frt_check("assert_stops_the_task", !bad_went_on && eTaskGetState(bad_h) == eSuspended, 0);
	int pass = 0, fail = 0;
	for (int i = 0; i < nchecks; i++) {
		print_check(checks[i].name, checks[i].ok, checks[i].detail);
		if (checks[i].ok)
			pass++;
		else
			fail++;
	}
	char b[64];
	int k = 0;
	say(b, &k, "frt: done pass=");
	pt_ufmt_i64(b, &k, pass);
	say(b, &k, " fail=");
	pt_ufmt_i64(b, &k, fail);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	vTaskDelete(NULL);
}

void vApplicationIdleHook(void)
{
	idle_calls++;
}

void vApplicationTickHook(void)
{
	vIsrTestTickHook();
	vTimerTestTickHook();
}

/* configSUPPORT_STATIC_ALLOCATION: the idle task's memory, as every FreeRTOS application
 * with static allocation provides it */
static StaticTask_t idle_tcb;
static StackType_t idle_stack[configMINIMAL_STACK_SIZE];

void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer,
				   StackType_t **ppxIdleTaskStackBuffer,
				   configSTACK_DEPTH_TYPE *puxIdleTaskStackSize)
{
	*ppxIdleTaskTCBBuffer = &idle_tcb;
	*ppxIdleTaskStackBuffer = idle_stack;
	*puxIdleTaskStackSize = configMINIMAL_STACK_SIZE;
	idle_memory_asked++;
}

static StaticTask_t timer_tcb;
static StackType_t timer_stack[configTIMER_TASK_STACK_DEPTH];

void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer,
				    StackType_t **ppxTimerTaskStackBuffer,
				    configSTACK_DEPTH_TYPE *puxTimerTaskStackSize)
{
	*ppxTimerTaskTCBBuffer = &timer_tcb;
	*ppxTimerTaskStackBuffer = timer_stack;
	*puxTimerTaskStackSize = configTIMER_TASK_STACK_DEPTH;
	timer_memory_asked++;
}

int main(void)
{
	frt_check("scheduler_not_started", xTaskGetSchedulerState() == taskSCHEDULER_NOT_STARTED, 0);
	vStartDelayTasks(3);
	vStartDynamicPriorityTasks(2);
	vStartTimeSliceTasks(1);
	vStartBlockingQueueTasks(2);
	vStartPolledQueueTasks(1);
	vStartCountingSemaphoreTasks(1);
	vStartRecursiveMutexTasks(2);
	vStartGenericQueueTasks(2);
	vStartNotifyTasks(3);
	vStartIsrTasks(4);
	vStartTimerTests(3);
	vStartEventTests(3);
	xTaskCreate(bad_task, "Bad", configMINIMAL_STACK_SIZE, NULL, 1, &bad_h);
	xTaskCreate(check_task, "Check", configMINIMAL_STACK_SIZE, NULL, configMAX_PRIORITIES - 1,
		    NULL);
	vTaskStartScheduler();
	return 0; /* not reached */
}
