/*
 * From-ISR calls from the tick hook (in the style of FreeRTOS's IntSemTest.c, IntQueue.c and
 * the tick-hook halves of TaskNotify.c): the hook gives a semaphore every 10 ticks, notifies a
 * task at ticks 5 mod 10, sends its tick count to a queue and resumes a suspended task on
 * request. The tasks check that each wake-up happens at the hook's tick, that a critical
 * section holds the interrupt context off (it catches the ticks up afterwards) and that a
 * suspended scheduler does not.
 */
#include "frtest.h"
#include "queue.h"
#include "semphr.h"

static SemaphoreHandle_t isr_sem;
static QueueHandle_t isr_q;
static TaskHandle_t notified_h, resumed_h;
static volatile uint32_t notes_sent, hook_calls, hook_woken, resume_req, resumed_runs, hook_send_fail;
static volatile TickType_t resumed_at;

void vIsrTestTickHook(void)
{
	TickType_t now = xTaskGetTickCountFromISR();
	BaseType_t woken = pdFALSE;
	hook_calls++;
	if (!isr_sem)
		return;
	if (now % 10 == 0 && now <= 100) {
		xSemaphoreGiveFromISR(isr_sem, &woken);
		hook_woken += woken == pdTRUE;
	}
	if (now % 10 == 5 && notes_sent < 4) { /* the task takes 4, then ends */
		vTaskNotifyGiveFromISR(notified_h, &woken);
		notes_sent++;
	}
	if (now % 20 == 0 && now <= 100 && xQueueSendFromISR(isr_q, &now, &woken) != pdPASS)
		hook_send_fail++;
	if (resume_req && xTaskResumeFromISR(resumed_h) == pdTRUE)
		resume_req = 0;
	portYIELD_FROM_ISR(woken);
}

static void sem_task(void *arg)
{
	(void)arg;
	int late = 0, n = 0;
	while (n < 5) {
		xSemaphoreTake(isr_sem, portMAX_DELAY);
		late += xTaskGetTickCount() % 10 != 0;
		n++;
	}
	frt_check("isr_sem_give_wakes_at_its_tick", late == 0 && hook_woken >= 5, late);
	TickType_t v, prev = 0;
	int bad = 0;
	for (int i = 0; i < 3; i++) {
		if (xQueueReceive(isr_q, &v, 50) != pdPASS || v % 20 != 0 || v <= prev)
			bad++;
		prev = v;
	}
	frt_check("isr_queue_send_received_in_order", bad == 0 && hook_send_fail == 0, bad);
	vTaskDelete(NULL);
}

static void notified_task(void *arg)
{
	(void)arg;
	int late = 0;
	for (int n = 0; n < 4; n++) {
		uint32_t c = ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
		late += c != 1 || xTaskGetTickCount() % 10 != 5;
	}
	frt_check("isr_notify_give_wakes_at_its_tick", late == 0, late);
	vTaskDelete(NULL);
}

static void resumed_task(void *arg)
{
	(void)arg;
	for (;;) {
		vTaskSuspend(NULL);
		resumed_runs++;
		resumed_at = xTaskGetTickCount();
	}
}

static void spin_ticks(TickType_t n)
{
	TickType_t t0 = xTaskGetTickCount();
	while (xTaskGetTickCount() - t0 < n)
		;
}

static void ctl_task(void *arg)
{
	(void)arg;
	vTaskDelay(120);
	/* a critical section masks the interrupt context; it catches the ticks up after */
	taskENTER_CRITICAL();
	uint32_t h0 = hook_calls;
	spin_ticks(3);
	uint32_t h1 = hook_calls;
	TickType_t t1 = xTaskGetTickCount();
	taskEXIT_CRITICAL();
	uint32_t h2 = hook_calls;
	frt_check("critical_section_masks_tick_hook", h1 == h0, (long)(h1 - h0));
	frt_check("tick_hook_catches_up_missed_ticks", h2 - h0 >= 3 && h2 == t1, (long)(h2 - h0));
	/* a suspended scheduler does not */
	vTaskSuspendAll();
	h0 = hook_calls;
	spin_ticks(3);
	h1 = hook_calls;
	xTaskResumeAll();
	frt_check("suspended_scheduler_lets_tick_hook_run", h1 - h0 >= 2, (long)(h1 - h0));
	/* xTaskResumeFromISR */
	vTaskDelay(1);
	TickType_t asked = xTaskGetTickCount();
	resume_req = 1;
	vTaskDelay(3);
	frt_check("isr_resume_from_isr", resumed_runs == 1 && resumed_at == asked + 1,
		  (long)(resumed_at - asked));
	frt_check("tick_hook_every_tick", hook_calls == xTaskGetTickCount(),
		  (long)hook_calls - (long)xTaskGetTickCount());
	vTaskDelete(NULL);
}

void vStartIsrTasks(UBaseType_t prio)
{
	isr_q = xQueueCreate(8, sizeof(TickType_t));
	xTaskCreate(sem_task, "ISem", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
	xTaskCreate(notified_task, "INote", configMINIMAL_STACK_SIZE, NULL, prio, &notified_h);
	xTaskCreate(resumed_task, "IRes", configMINIMAL_STACK_SIZE, NULL, prio + 1, &resumed_h);
	xTaskCreate(ctl_task, "ICtl", configMINIMAL_STACK_SIZE, NULL, prio + 2, NULL);
	isr_sem = xSemaphoreCreateBinary(); /* last: the hook starts using it now */
}
