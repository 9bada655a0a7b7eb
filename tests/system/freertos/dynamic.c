/*
 * Dynamic priorities, suspension, state and deletion (in the style of FreeRTOS's dynamic.c):
 * a counter task at the idle priority counts continuously; a controller suspends, resumes
 * and re-prioritises it, checks that scheduler suspension holds it off even when it has the
 * higher priority, and creates and deletes tasks.
 */
static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}
#include "frtest.h"

static volatile unsigned long counter;
static volatile int limited_runs, high_ran, low_ran, self_del_before, self_del_after;
static TaskHandle_t counter_h, limited_h, ctrl_h;

static void counter_task(void *arg)
{
	(void)arg;
	for (;;)
		counter++;
}

/* Runs once per vTaskResume: counts and suspends itself. */
static void limited_task(void *arg)
{
	(void)arg;
	for (;;) {
		limited_runs++;
		vTaskSuspend(NULL);
	}
}

static void sleeper_task(void *arg)
{
	(void)arg;
	for (;;)
		vTaskDelay(1000);
}

static void high_task(void *arg)
{
	(void)arg;
	high_ran = 1;
	vTaskDelete(NULL);
}

static void low_task(void *arg)
{
	(void)arg;
	low_ran = 1;
	vTaskDelete(NULL);
}

static void self_delete_task(void *arg)
{
	(void)arg;
	self_del_before = 1;
	vTaskDelete(NULL);
	self_del_after = 1; /* never reached */
}

static void spin(void)
{
	for (volatile int i = 0; i < 20000; i++)
		;
}

static void controller_task(void *arg)
{
	UBaseType_t my = (UBaseType_t)(uintptr_t)arg;
	frt_check("dyn_current_handle", xTaskGetCurrentTaskHandle() == ctrl_h, 0);
	frt_check("dyn_name", streq(pcTaskGetName(NULL), "DynCtrl") &&
			      streq(pcTaskGetName(counter_h), "DynCount"), 0);
	frt_check("dyn_priority_get", uxTaskPriorityGet(NULL) == my &&
				      uxTaskPriorityGet(counter_h) == tskIDLE_PRIORITY, 0);
	/* the counter shares the idle priority with the other modules' busy tasks, a tick each in
	 * turn: 20 ticks are enough for it to get a turn */
	unsigned long c0 = counter;
	vTaskDelay(20);
	frt_check("dyn_counter_runs_while_controller_blocks", counter > c0, 0);
	frt_check("dyn_state_running_ready", eTaskGetState(ctrl_h) == eRunning &&
				eTaskGetState(counter_h) == eReady, eTaskGetState(counter_h));

	vTaskSuspend(counter_h);
	frt_check("dyn_state_suspended", eTaskGetState(counter_h) == eSuspended, 0);
	unsigned long c1 = counter;
	vTaskDelay(2);
	frt_check("dyn_suspended_does_not_run", counter == c1, (long)(counter - c1));
	vTaskResume(counter_h);
	/* back in the round robin of the idle-priority busy tasks (seven to nine of them here,
	 * one tick each, behind the higher-priority modules' work): it gets a turn within a few
	 * rounds, how many depends on where the rotation stands */
	for (int k = 0; k < 10 && counter == c1; k++)
		vTaskDelay(20);
	frt_check("dyn_resumed_runs", counter > c1, 0);

	/* resume of a higher-priority task preempts at once */
	int l0 = limited_runs;
	vTaskResume(limited_h);
	frt_check("dyn_resume_preempts", limited_runs == l0 + 1, limited_runs - l0);
	frt_check("dyn_limited_suspended_itself", eTaskGetState(limited_h) == eSuspended, 0);

	vTaskPrioritySet(counter_h, 1);
	frt_check("dyn_priority_set", uxTaskPriorityGet(counter_h) == 1, (long)uxTaskPriorityGet(counter_h));
	vTaskPrioritySet(counter_h, tskIDLE_PRIORITY);

	/* with the scheduler suspended, a task raised above the caller still does not run */
	vTaskSuspendAll();
	frt_check("dyn_scheduler_state_suspended", xTaskGetSchedulerState() == taskSCHEDULER_SUSPENDED, 0);
	vTaskPrioritySet(counter_h, my + 1);
	unsigned long c2 = counter;
	spin();
	int held = counter == c2;
	vTaskPrioritySet(counter_h, tskIDLE_PRIORITY);
	xTaskResumeAll();
	frt_check("dyn_suspend_all_holds_higher_task", held, (long)(counter - c2));
	frt_check("dyn_scheduler_state_running", xTaskGetSchedulerState() == taskSCHEDULER_RUNNING, 0);

	/* a critical section likewise */
	taskENTER_CRITICAL();
	vTaskPrioritySet(counter_h, my + 1);
	c2 = counter;
	spin();
	held = counter == c2;
	vTaskPrioritySet(counter_h, tskIDLE_PRIORITY);
	taskEXIT_CRITICAL();
	frt_check("dyn_critical_holds_higher_task", held, 0);

	/* raising a task above the caller outside a critical section preempts at once */
	vTaskSuspend(counter_h);
	vTaskPrioritySet(limited_h, my + 1);
	l0 = limited_runs;
	vTaskResume(limited_h);
	frt_check("dyn_raised_task_preempts", limited_runs == l0 + 1, 0);
	vTaskResume(counter_h);

	/* creation: a higher-priority task runs before xTaskCreate returns, a lower one later */
	UBaseType_t n0 = uxTaskGetNumberOfTasks();
	xTaskCreate(high_task, "DynHigh", configMINIMAL_STACK_SIZE, NULL, my + 1, NULL);
	frt_check("dyn_create_higher_runs_at_once", high_ran == 1, 0);
	xTaskCreate(low_task, "DynLow", configMINIMAL_STACK_SIZE, NULL, my - 1, NULL);
	int low_early = low_ran;
	vTaskDelay(1);
	frt_check("dyn_create_lower_runs_later", low_early == 0 && low_ran == 1, low_early);

	/* counted with the scheduler suspended: other modules' tasks delete themselves too */
	TaskHandle_t sl;
	vTaskSuspendAll();
	n0 = uxTaskGetNumberOfTasks();
	xTaskCreate(sleeper_task, "DynSleep", configMINIMAL_STACK_SIZE, NULL, my + 1, &sl);
	UBaseType_t n1 = uxTaskGetNumberOfTasks();
	xTaskResumeAll(); /* the sleeper runs now and blocks */
	frt_check("dyn_number_of_tasks", n1 == n0 + 1, (long)n1 - (long)n0);
	frt_check("dyn_state_blocked", eTaskGetState(sl) == eBlocked, eTaskGetState(sl));
	vTaskSuspendAll();
	n0 = uxTaskGetNumberOfTasks();
	vTaskDelete(sl);
	n1 = uxTaskGetNumberOfTasks();
	xTaskResumeAll();
	frt_check("dyn_delete_other", eTaskGetState(sl) == eDeleted && n1 + 1 == n0, (long)n1 - (long)n0);

	TaskHandle_t sd;
	xTaskCreate(self_delete_task, "DynSelfDel", configMINIMAL_STACK_SIZE, NULL, my - 1, &sd);
	vTaskDelay(2);
	frt_check("dyn_delete_self", self_del_before && !self_del_after && eTaskGetState(sd) == eDeleted, 0);
	vTaskDelete(NULL);
}

void vStartDynamicPriorityTasks(UBaseType_t prio)
{
	xTaskCreate(counter_task, "DynCount", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY, &counter_h);
	xTaskCreate(limited_task, "DynLim", configMINIMAL_STACK_SIZE, NULL, prio + 1, &limited_h);
	xTaskCreate(controller_task, "DynCtrl", configMINIMAL_STACK_SIZE, (void *)(uintptr_t)prio, prio,
		    &ctrl_h);
}
