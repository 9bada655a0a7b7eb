/*
 * Recursive mutexes and priority inheritance (in the style of FreeRTOS's recmutex.c and the
 * mutex part of GenQTest.c). Three tasks share one recursive mutex:
 *   controller (highest): takes it MAX times, delaying while it holds it so the others try,
 *     gives it back MAX times; one more give must fail; then suspends itself;
 *   blocker (middle): waits for it forever; must get it only once the controller gave it all;
 *   poller (idle priority): polls for it; while it holds it, resumes the controller, which
 *     blocks on the mutex and so lends the poller its priority until the poller gives it.
 * A plain mutex is not recursive: its holder's second take fails after the block time.
 */
#include "frtest.h"
#include "semphr.h"

#define MAX 10

static SemaphoreHandle_t rm, plain;
static TaskHandle_t ctrl_h, block_h, poll_h;
static volatile unsigned long ctrl_cycles, block_cycles, poll_cycles, rm_errors;
static volatile int ctrl_holding;
static unsigned long last_ctrl, last_block, last_poll;
static UBaseType_t ctrl_prio;
static volatile int inherited_seen, disinherited_seen;

static void controller(void *arg)
{
	(void)arg;
	for (;;) {
		for (int i = 0; i < MAX; i++) {
			if (xSemaphoreTakeRecursive(rm, 10) != pdPASS)
				rm_errors++;
			ctrl_holding = 1;
			if (xSemaphoreGetMutexHolder(rm) != ctrl_h)
				rm_errors++;
			vTaskDelay(1); /* the others run and try for it */
		}
		for (int i = 0; i < MAX; i++) {
			vTaskDelay(1);
			if (i == MAX - 1)
				ctrl_holding = 0;
			if (xSemaphoreGiveRecursive(rm) != pdPASS)
				rm_errors++;
		}
		if (xSemaphoreGiveRecursive(rm) != pdFAIL) /* not held any more */
			rm_errors++;
		ctrl_cycles++;
		vTaskSuspend(NULL); /* the poller resumes us */
		/* resumed by the poller while it holds the mutex: block on it (inheritance) */
		if (xSemaphoreTakeRecursive(rm, portMAX_DELAY) != pdPASS)
			rm_errors++;
		if (xSemaphoreGiveRecursive(rm) != pdPASS)
			rm_errors++;
	}
}

static void blocker(void *arg)
{
	(void)arg;
	for (;;) {
		if (xSemaphoreTakeRecursive(rm, portMAX_DELAY) != pdPASS || ctrl_holding)
			rm_errors++;
		if (xSemaphoreGiveRecursive(rm) != pdPASS)
			rm_errors++;
		block_cycles++;
		vTaskDelay(2); /* let the poller have a go */
	}
}

static void poller(void *arg)
{
	(void)arg;
	for (;;) {
		if (xSemaphoreTakeRecursive(rm, 0) == pdPASS) {
			if (ctrl_holding)
				rm_errors++;
			if (eTaskGetState(ctrl_h) == eSuspended) {
				vTaskResume(ctrl_h); /* it runs, blocks on the mutex, lends us its priority */
				if (uxTaskPriorityGet(NULL) == ctrl_prio)
					inherited_seen++;
				else
					rm_errors++;
			}
			if (xSemaphoreGiveRecursive(rm) != pdPASS)
				rm_errors++;
			if (uxTaskPriorityGet(NULL) == tskIDLE_PRIORITY)
				disinherited_seen++;
			poll_cycles++;
		}
		taskYIELD();
	}
}

static void plain_mutex_task(void *arg)
{
	(void)arg;
	frt_check("mutex_give_unheld_fails", xSemaphoreGive(plain) == pdFAIL, 0);
	BaseType_t a = xSemaphoreTake(plain, 0);
	TickType_t t0 = xTaskGetTickCount();
	BaseType_t b = xSemaphoreTake(plain, 3); /* not recursive: fails after the block time */
	TickType_t dt = xTaskGetTickCount() - t0;
	frt_check("mutex_not_recursive", a == pdPASS && b == pdFAIL && dt == 3, (long)dt);
	frt_check("mutex_holder", xSemaphoreGetMutexHolder(plain) == xTaskGetCurrentTaskHandle(), 0);
	frt_check("mutex_give", xSemaphoreGive(plain) == pdPASS && xSemaphoreGetMutexHolder(plain) == NULL,
		  0);
	vSemaphoreDelete(plain);
	vTaskDelete(NULL);
}

void vStartRecursiveMutexTasks(UBaseType_t prio)
{
	rm = xSemaphoreCreateRecursiveMutex();
	plain = xSemaphoreCreateMutex();
	ctrl_prio = prio + 1;
	xTaskCreate(controller, "Rec1", configMINIMAL_STACK_SIZE, NULL, prio + 1, &ctrl_h);
	xTaskCreate(blocker, "Rec2", configMINIMAL_STACK_SIZE, NULL, prio, &block_h);
	xTaskCreate(poller, "Rec3", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY, &poll_h);
	xTaskCreate(plain_mutex_task, "Mtx", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
}

BaseType_t xAreRecursiveMutexTasksStillRunning(void)
{
	BaseType_t ok = !rm_errors && ctrl_cycles > last_ctrl && block_cycles > last_block &&
			poll_cycles > last_poll;
	frt_check("recmutex_errors", rm_errors == 0, (long)rm_errors);
	frt_check("recmutex_all_cycle", ok, (long)(ctrl_cycles * 10000 + block_cycles * 100 + poll_cycles));
	frt_check("mutex_priority_inheritance", inherited_seen > 0 && disinherited_seen > 0,
		  (long)(inherited_seen * 1000 + disinherited_seen));
	last_ctrl = ctrl_cycles, last_block = block_cycles, last_poll = poll_cycles;
	return ok;
}
