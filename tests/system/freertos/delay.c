/*
 * Delays (in the style of FreeRTOS's blocktim/delay tests): vTaskDelay wakes exactly when
 * the tick count has advanced by the delay, xTaskDelayUntil keeps a period without drift
 * (checked against Partita's own clock), a late xTaskDelayUntil returns pdFALSE at once.
 */
#include <partita/api.h>
#include "frtest.h"

#define TICK_CYCLES (1000000000ull / configTICK_RATE_HZ) /* icount shift 0 */

static void delay_task(void *arg)
{
	(void)arg;
	frt_check("tasks_start_after_scheduler", xTaskGetSchedulerState() == taskSCHEDULER_RUNNING, 0);
	TickType_t t0 = xTaskGetTickCount();
	frt_check("tick_starts_at_zero", t0 <= 1, (long)t0);
	frt_check("ms_to_ticks", pdMS_TO_TICKS(250) == 250 && pdMS_TO_TICKS(1) == 1, 0);

	t0 = xTaskGetTickCount();
	uint64_t c0 = pt_time_cycles();
	vTaskDelay(3);
	uint64_t c1 = pt_time_cycles();
	TickType_t t1 = xTaskGetTickCount();
	frt_check("delay_exact_ticks", t1 - t0 == 3, (long)(t1 - t0));
	/* between 2 and 3 tick periods of real time: it wakes at the third tick boundary */
	frt_check("delay_native_time", c1 - c0 > 2 * TICK_CYCLES && c1 - c0 <= 3 * TICK_CYCLES + 20000,
		  (long)(c1 - c0));

	t0 = xTaskGetTickCount();
	vTaskDelay(0); /* a yield */
	frt_check("delay_zero_returns", xTaskGetTickCount() - t0 <= 1, 0);

	TickType_t last = xTaskGetTickCount();
	TickType_t first = last;
	int ok = 1;
	uint64_t w0 = 0, w10 = 0;
	for (int i = 1; i <= 10; i++) {
		ok &= xTaskDelayUntil(&last, 5) == pdTRUE;
		ok &= xTaskGetTickCount() == last && last == first + 5 * (TickType_t)i;
		if (i == 1)
			w0 = pt_time_cycles();
		w10 = pt_time_cycles();
	}
	frt_check("delay_until_period", ok, (long)(last - first));
	/* nine periods between the first and the tenth wake: 45 ms, the wake-up latency apart */
	long drift = (long)(w10 - w0) - (long)(45 * TICK_CYCLES);
	frt_check("delay_until_no_drift", drift > -20000 && drift < 20000, drift);

	last = xTaskGetTickCount() - 10;
	TickType_t want = last + 5;
	t0 = xTaskGetTickCount();
	BaseType_t r = xTaskDelayUntil(&last, 5);
	frt_check("delay_until_late_returns_false",
		  r == pdFALSE && last == want && xTaskGetTickCount() - t0 <= 1, (long)r);
	vTaskDelete(NULL);
}

void vStartDelayTasks(UBaseType_t prio)
{
	xTaskCreate(delay_task, "Delay", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
}
