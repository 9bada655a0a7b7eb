/*
 * Blocking queues (in the style of FreeRTOS's BlockQ.c): three producer/consumer pairs,
 *   1. consumer above producer: the consumer blocks on receive, each send wakes it at once;
 *   2. producer above consumer: the producer blocks on a full queue;
 *   3. both at the idle priority, both blocking with timeouts.
 * Every consumer checks that it receives the producer's sequence, without gap or repeat.
 */
#include "frtest.h"
#include "queue.h"

struct pair {
	QueueHandle_t q;
	TickType_t send_block, recv_block;
	volatile unsigned long sent, received, errors;
};

static struct pair pairs[3];
static unsigned long last_received[3];

static void producer(void *arg)
{
	struct pair *p = arg;
	uint16_t v = 0;
	for (;;) {
		if (xQueueSend(p->q, &v, p->send_block) == pdPASS) {
			v++;
			p->sent++;
		} else if (p->send_block == 0) {
			p->errors++; /* pair 1: the consumer empties the queue before we send again */
		}
		if (p->send_block == 0)
			taskYIELD();
	}
}

static void consumer(void *arg)
{
	struct pair *p = arg;
	uint16_t expect = 0, got;
	for (;;) {
		if (xQueueReceive(p->q, &got, p->recv_block) == pdPASS) {
			if (got != expect)
				p->errors++;
			expect = (uint16_t)(got + 1);
			p->received++;
		}
	}
}

void vStartBlockingQueueTasks(UBaseType_t prio)
{
	const UBaseType_t prod[3] = { tskIDLE_PRIORITY, prio, tskIDLE_PRIORITY };
	const UBaseType_t cons[3] = { prio, tskIDLE_PRIORITY, tskIDLE_PRIORITY };
	const UBaseType_t len[3] = { 1, 1, 5 };
	pairs[0].send_block = 0, pairs[0].recv_block = 100;
	pairs[1].send_block = 100, pairs[1].recv_block = 0;
	pairs[2].send_block = 10, pairs[2].recv_block = 10;
	for (int i = 0; i < 3; i++) {
		pairs[i].q = xQueueCreate(len[i], sizeof(uint16_t));
		configASSERT(pairs[i].q);
		xTaskCreate(consumer, "QConsB", configMINIMAL_STACK_SIZE, &pairs[i], cons[i], NULL);
		xTaskCreate(producer, "QProdB", configMINIMAL_STACK_SIZE, &pairs[i], prod[i], NULL);
	}
}

BaseType_t xAreBlockingQueuesStillRunning(void)
{
	BaseType_t ok = pdTRUE;
	for (int i = 0; i < 3; i++) {
		unsigned long r = pairs[i].received;
		if (pairs[i].errors || r == last_received[i] || r < 20)
			ok = pdFALSE;
		frt_check(i == 0 ? "blockq_pair1_sequence" : i == 1 ? "blockq_pair2_sequence"
								     : "blockq_pair3_sequence",
			  !pairs[i].errors && r >= 20, (long)(pairs[i].errors * 1000000 + r));
		last_received[i] = r;
	}
	return ok;
}
