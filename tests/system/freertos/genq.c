/*
 * Queue ends (in the style of FreeRTOS's GenQTest.c): send to front and back, peek (also by
 * a blocked higher-priority task, which leaves the item for the receiver), overwrite, the
 * space and message counts, a full queue refusing at once, and a receive timing out after
 * exactly its block time. Static and dynamic creation.
 */
#include "frtest.h"
#include "queue.h"

static QueueHandle_t gq, mbox;
static StaticQueue_t gq_buf;
static uint8_t gq_storage[5 * sizeof(uint32_t)];
static volatile uint32_t peeked;
static volatile int peek_done;

static void peek_task(void *arg)
{
	(void)arg;
	uint32_t v;
	if (xQueuePeek(gq, &v, portMAX_DELAY) == pdPASS) /* blocks: the queue is empty */
		peeked = v;
	peek_done = 1;
	vTaskDelete(NULL);
}

static void genq_task(void *arg)
{
	UBaseType_t my = (UBaseType_t)(uintptr_t)arg;
	uint32_t v, out[5];
	int ok = 1;
	/* back: 10 11; front: 9 8 -> order 8 9 10 11 */
	v = 10, ok &= xQueueSend(gq, &v, 0) == pdPASS;
	v = 11, ok &= xQueueSendToBack(gq, &v, 0) == pdPASS;
	v = 9, ok &= xQueueSendToFront(gq, &v, 0) == pdPASS;
	v = 8, ok &= xQueueSendToFront(gq, &v, 0) == pdPASS;
	ok &= uxQueueMessagesWaiting(gq) == 4 && uxQueueSpacesAvailable(gq) == 1;
	v = 12, ok &= xQueueSend(gq, &v, 0) == pdPASS;
	v = 13, ok &= xQueueSend(gq, &v, 0) == errQUEUE_FULL;
	ok &= xQueueSendToFront(gq, &v, 0) == errQUEUE_FULL && uxQueueSpacesAvailable(gq) == 0;
	ok &= xQueuePeek(gq, &v, 0) == pdPASS && v == 8 && uxQueueMessagesWaiting(gq) == 5;
	for (int i = 0; i < 5; i++)
		ok &= xQueueReceive(gq, &out[i], 0) == pdPASS;
	ok &= out[0] == 8 && out[1] == 9 && out[2] == 10 && out[3] == 11 && out[4] == 12;
	ok &= xQueueReceive(gq, &v, 0) == errQUEUE_EMPTY && xQueuePeek(gq, &v, 0) == errQUEUE_EMPTY;
	frt_check("queue_front_back_peek_order", ok, 0);

	TickType_t t0 = xTaskGetTickCount();
	BaseType_t r = xQueueReceive(gq, &v, 4);
	TickType_t dt = xTaskGetTickCount() - t0;
	frt_check("queue_receive_times_out_after_block_time", r == errQUEUE_EMPTY && dt == 4, (long)dt);

	/* a higher-priority task blocked in peek sees the item first and leaves it */
	xTaskCreate(peek_task, "GQPeek", configMINIMAL_STACK_SIZE, NULL, my + 1, NULL);
	v = 77;
	xQueueSend(gq, &v, 0);
	uint32_t got = 0;
	ok = peek_done && peeked == 77 && xQueueReceive(gq, &got, 0) == pdPASS && got == 77;
	frt_check("queue_blocked_peek_leaves_item", ok, (long)peeked);

	v = 1, ok = xQueueOverwrite(mbox, &v) == pdPASS;
	v = 2, ok &= xQueueOverwrite(mbox, &v) == pdPASS;
	ok &= uxQueueMessagesWaiting(mbox) == 1 && xQueueReceive(mbox, &got, 0) == pdPASS && got == 2;
	frt_check("queue_overwrite", ok, (long)got);

	vQueueDelete(mbox);
	vTaskDelete(NULL);
}

void vStartGenericQueueTasks(UBaseType_t prio)
{
	gq = xQueueCreateStatic(5, sizeof(uint32_t), gq_storage, &gq_buf);
	mbox = xQueueCreate(1, sizeof(uint32_t));
	configASSERT(gq && mbox);
	xTaskCreate(genq_task, "GenQ", configMINIMAL_STACK_SIZE, (void *)(uintptr_t)prio, prio, NULL);
}
