/*
 * Polled queues (in the style of FreeRTOS's PollQ.c): a producer posts a few values, a
 * consumer drains them; neither blocks on the queue, both delay between polls.
 */
#include "frtest.h"
#include "queue.h"

static QueueHandle_t pq;
static volatile unsigned long polled, poll_errors;
static unsigned long last_polled;

static void poll_producer(void *arg)
{
	(void)arg;
	uint16_t v = 0;
	for (;;) {
		for (int i = 0; i < 3; i++) {
			if (xQueueSend(pq, &v, 0) == pdPASS)
				v++;
			else
				poll_errors++; /* the consumer drains faster than we fill */
		}
		vTaskDelay(3);
	}
}

static void poll_consumer(void *arg)
{
	(void)arg;
	uint16_t expect = 0, got;
	for (;;) {
		while (uxQueueMessagesWaiting(pq)) {
			if (xQueueReceive(pq, &got, 0) != pdPASS || got != expect)
				poll_errors++;
			expect = (uint16_t)(got + 1);
			polled++;
		}
		if (xQueueReceive(pq, &got, 0) != errQUEUE_EMPTY) /* empty now: fails at once */
			poll_errors++;
		vTaskDelay(1);
	}
}

void vStartPolledQueueTasks(UBaseType_t prio)
{
	pq = xQueueCreate(10, sizeof(uint16_t));
	xTaskCreate(poll_consumer, "QConsNB", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
	xTaskCreate(poll_producer, "QProdNB", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
}

BaseType_t xArePollingQueuesStillRunning(void)
{
	BaseType_t ok = !poll_errors && polled > last_polled && polled >= 3 * 100;
	frt_check("pollq_sequence", ok, (long)(poll_errors * 1000000 + polled));
	last_polled = polled;
	return ok;
}
