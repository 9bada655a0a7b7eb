/*
 * Task notifications (in the style of FreeRTOS's TaskNotify.c / TaskNotifyArray.c), abort
 * delay, the heap and the stack-overflow hook. A controller at priority p drives a waiter at
 * p + 1 (it preempts the controller the moment it is notified) through every action, the
 * wait's clear masks, the indexed slots and the timeouts.
 */
#include "frtest.h"

static TaskHandle_t waiter_h, ctrl_h, sleeper_h, deep_h;
static volatile int phase_done, sleeper_woke_at, deep_done;
static volatile TaskHandle_t overflow_task;
static volatile int malloc_failed;

void vApplicationMallocFailedHook(void)
{
	malloc_failed++;
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
	(void)pcTaskName;
	overflow_task = xTask;
	vTaskDelete(xTask); /* FreeRTOS's hook must not return to the task either */
}

/* The waiter's script: one stage per wait, each recording what it got; it outranks the
 * controller, so it runs the moment a notification releases it. */
static volatile uint32_t res[8];
static volatile BaseType_t ret[8];

static void waiter_task(void *arg)
{
	(void)arg;
	uint32_t v = 0;
	res[0] = ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* A: count, then clear */
	phase_done = 1;
	res[1] = ulTaskNotifyTake(pdFALSE, portMAX_DELAY); /* B: count, then decrement */
	phase_done = 2;
	ret[2] = xTaskNotifyWait(0x0f, 0x0f00, &v, portMAX_DELAY); /* C: masks */
	res[2] = v;
	phase_done = 3;
	ret[3] = xTaskNotifyWaitIndexed(1, 0, ~0u, &v, portMAX_DELAY); /* D: index 1 */
	res[3] = v;
	phase_done = 4;
	TickType_t t0 = xTaskGetTickCount();
	ret[4] = xTaskNotifyWaitIndexed(1, 0, 0, &v, 5); /* E: times out */
	res[4] = xTaskGetTickCount() - t0;
	phase_done = 5;
	ret[5] = xTaskNotifyWaitIndexed(1, 0, 0, &v, portMAX_DELAY); /* F: aborted */
	phase_done = 6;
	vTaskSuspend(NULL);
}

static void sleeper_task(void *arg)
{
	(void)arg;
	TickType_t t0 = xTaskGetTickCount();
	vTaskDelay(1000);
	sleeper_woke_at = (int)(xTaskGetTickCount() - t0);
	vTaskDelete(NULL);
}

/* Uses its stack down into its last KiB (not much: a trap needs room there, and below is the
 * guard page),
 * comes back up and delays: method 2 finds the pattern at the stack's end overwritten when
 * the task leaves its cpu. */
static void __attribute__((noinline)) dig(uintptr_t limit)
{
	size_t n = (uintptr_t)__builtin_frame_address(0) - limit - 960;
	volatile uint8_t frame[n]; /* its low end is 900..960 bytes above the limit */
	for (size_t i = 0; i < n; i++)
		frame[i] = (uint8_t)i;
	__asm__ volatile("" : : "r"(frame[0]) : "memory");
}

static void deep_task(void *arg)
{
	(void)arg;
	uintptr_t top = ((uintptr_t)__builtin_frame_address(0) + 4095) & ~(uintptr_t)4095;
	dig(top - configMINIMAL_STACK_SIZE * sizeof(StackType_t));
	deep_done = 1;
	vTaskDelay(1); /* the check: the hook deletes this task */
	deep_done = 2;
	for (;;)
		vTaskDelay(100);
}

static void ctrl_task(void *arg)
{
	UBaseType_t prio = (UBaseType_t)(uintptr_t)arg;
	int done;
	uint32_t prev = 0;
	vTaskDelay(2);
	xTaskCreate(waiter_task, "NWait", configMINIMAL_STACK_SIZE, NULL, prio + 1, &waiter_h);

	/* A: three gives while the scheduler is suspended: one take returns 3 */
	vTaskSuspendAll();
	xTaskNotifyGive(waiter_h);
	xTaskNotifyGive(waiter_h);
	xTaskNotifyGive(waiter_h);
	done = phase_done;
	xTaskResumeAll();
	frt_check("notify_take_counts_and_clears", done == 0 && phase_done >= 1 && res[0] == 3,
		  (long)res[0]);
	/* B: two gives; the take returns 2 and leaves 1 */
	vTaskSuspendAll();
	xTaskNotifyGive(waiter_h);
	xTaskNotifyGive(waiter_h);
	xTaskResumeAll();
	frt_check("notify_take_decrements", phase_done >= 2 && res[1] == 2, (long)res[1]);
	/* C: the wait cleared 0x0f (the 1 left) on entry; bits accumulate; a value without
	 * overwrite fails while one is pending; the exit clears 0x0f00 */
	vTaskSuspendAll();
	BaseType_t r2 = xTaskNotifyAndQuery(waiter_h, 0x3000, eSetBits, &prev);
	BaseType_t r1 = xTaskNotify(waiter_h, 0x5, eSetValueWithoutOverwrite);
	xTaskNotify(waiter_h, 0x0f0f, eSetBits);
	xTaskResumeAll();
	frt_check("notify_and_query_previous_after_entry_clear", r2 == pdPASS && prev == 0,
		  (long)prev);
	frt_check("notify_without_overwrite_fails_when_pending", r1 == pdFAIL, (long)r1);
	frt_check("notify_wait_value_and_exit_clear",
		  phase_done >= 3 && ret[2] == pdTRUE && res[2] == 0x3f0f &&
			  ulTaskNotifyValueClear(waiter_h, 0) == 0x300f,
		  (long)res[2]);
	/* D: waiting on index 1; index 0 does not release it */
	done = phase_done;
	xTaskNotifyGive(waiter_h);
	frt_check("notify_other_index_does_not_wake", phase_done == done && done == 3, done);
	frt_check("notify_state_clear", xTaskNotifyStateClear(waiter_h) == pdPASS &&
						xTaskNotifyStateClear(waiter_h) == pdFAIL, 0);
	xTaskNotifyIndexed(waiter_h, 1, 0x77, eSetValueWithOverwrite);
	frt_check("notify_indexed_wakes_and_clears",
		  phase_done >= 4 && ret[3] == pdTRUE && res[3] == 0x77 &&
			  ulTaskNotifyValueClearIndexed(waiter_h, 1, 0) == 0 &&
			  ulTaskNotifyValueClear(waiter_h, 0) == 0x3010,
		  (long)res[3]);
	/* E: the wait times out after exactly 5 ticks */
	vTaskDelay(8);
	frt_check("notify_wait_times_out", phase_done == 5 && ret[4] == pdFALSE && res[4] == 5,
		  (long)res[4]);
	/* F: a wait for ever, aborted */
	vTaskDelay(2);
	BaseType_t ab = xTaskAbortDelay(waiter_h);
	frt_check("abort_delay_ends_notify_wait", ab == pdPASS && phase_done == 6 && ret[5] == pdFALSE,
		  phase_done);
	frt_check("abort_delay_on_suspended_task_fails", xTaskAbortDelay(waiter_h) == pdFAIL, 0);
	xTaskCreate(sleeper_task, "Sleep", configMINIMAL_STACK_SIZE, NULL, prio, &sleeper_h);
	vTaskDelay(3);
	ab = xTaskAbortDelay(sleeper_h);
	vTaskDelay(1);
	frt_check("abort_delay_ends_delay", ab == pdPASS && sleeper_woke_at == 3, sleeper_woke_at);

	/* the heap: configTOTAL_HEAP_SIZE, 16 bytes of header per block */
	size_t free0 = xPortGetFreeHeapSize();
	void *p = pvPortMalloc(1000);
	size_t free1 = xPortGetFreeHeapSize();
	void *big = pvPortMalloc(configTOTAL_HEAP_SIZE);
	frt_check("heap_malloc_counts", p && free0 - free1 == 1016, (long)(free0 - free1));
	frt_check("heap_too_big_fails_with_hook", !big && malloc_failed == 1, malloc_failed);
	vPortFree(p);
	frt_check("heap_free_returns", xPortGetFreeHeapSize() == free0 &&
					      xPortGetMinimumEverFreeHeapSize() <= free1, 0);

	/* the stack-overflow hook (configCHECK_FOR_STACK_OVERFLOW 2) */
	xTaskCreate(deep_task, "Deep", configMINIMAL_STACK_SIZE, NULL, prio, &deep_h);
	vTaskDelay(5);
	frt_check("stack_overflow_hook_names_task", overflow_task == deep_h && deep_done == 1,
		  deep_done);
	vTaskDelete(NULL);
}

void vStartNotifyTasks(UBaseType_t prio)
{
	xTaskCreate(ctrl_task, "NCtrl", configMINIMAL_STACK_SIZE, (void *)(uintptr_t)prio, prio,
		    &ctrl_h);
}
