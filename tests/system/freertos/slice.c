/*
 * Time slicing (configUSE_TIME_SLICING): two busy tasks of equal priority share the cpu tick
 * by tick; without slicing the first would hold it for the whole window.
 */
#include "frtest.h"

#define START 200
#define LEN 30

static volatile unsigned ticks_seen[2];

static void slice_task(void *arg)
{
	int me = (int)(uintptr_t)arg;
	TickType_t last = 0;
	vTaskDelayUntil(&last, START);
	TickType_t prev = (TickType_t)-1;
	for (TickType_t now; (now = xTaskGetTickCount()) < START + LEN;) {
		if (now != prev)
			ticks_seen[me]++; /* a tick during which this task ran */
		prev = now;
	}
	if (me == 1) {
		vTaskDelay(2); /* the other one is done as well */
		unsigned a = ticks_seen[0], b = ticks_seen[1];
		unsigned lo = a < b ? a : b, hi = a < b ? b : a;
		frt_check("time_slicing_equal_priorities_share", lo > 0 && lo * 10 >= hi * 6,
			  (long)(a * 1000 + b));
	}
	vTaskDelete(NULL);
}

void vStartTimeSliceTasks(UBaseType_t prio)
{
	xTaskCreate(slice_task, "Slice0", configMINIMAL_STACK_SIZE, (void *)0, prio, NULL);
	xTaskCreate(slice_task, "Slice1", configMINIMAL_STACK_SIZE, (void *)1, prio, NULL);
}
