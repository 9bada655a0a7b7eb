/*
 * Cost of a few layer calls beside the native calls they translate to, in guest cycles
 * (icount: exact and repeatable), averaged over 64 calls with nothing to wake. Printed as
 * "frt: cost NAME native=N layer=M"; informative (docs/compat.md), not a pass/fail check.
 */
#include <partita/api.h>
#include <partita/sync.h>
#include "frtest.h"
#include "semphr.h"
#include "lib/ufmt.h"

#define N 64

static void say(char *b, int *k, const char *s)
{
	while (*s)
		b[(*k)++] = *s++;
}

static void report(const char *name, uint64_t native, uint64_t layer)
{
	char b[96];
	int k = 0;
	say(b, &k, "frt: cost ");
	say(b, &k, name);
	say(b, &k, " native=");
	pt_ufmt_i64(b, &k, (int64_t)(native / N));
	say(b, &k, " layer=");
	pt_ufmt_i64(b, &k, (int64_t)(layer / N));
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}

void vReportLayerCosts(void)
{
	SemaphoreHandle_t s = xSemaphoreCreateCounting(N, 0);
	QueueHandle_t q = xQueueCreate(N, sizeof(uint32_t));
	int ns = pt_sem_create(0, N), nq = pt_mq_create(sizeof(uint32_t), N);
	uint32_t v = 1;
	uint64_t t0, a, b;

	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		pt_sem_give(ns), pt_sem_take(ns, PT_NO_WAIT);
	a = pt_time_cycles() - t0;
	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		xSemaphoreGive(s), xSemaphoreTake(s, 0);
	b = pt_time_cycles() - t0;
	report("sem_give_take", a, b);

	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		pt_mq_send(nq, &v, PT_NO_WAIT), pt_mq_recv(nq, &v, PT_NO_WAIT);
	a = pt_time_cycles() - t0;
	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		xQueueSend(q, &v, 0), xQueueReceive(q, &v, 0);
	b = pt_time_cycles() - t0;
	report("queue_send_receive", a, b);

	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		pt_thread_set_priority(0, 40), pt_thread_set_priority(0, 33);
	a = pt_time_cycles() - t0;
	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++) {
		taskENTER_CRITICAL();
		taskEXIT_CRITICAL();
	}
	b = pt_time_cycles() - t0;
	report("critical_enter_exit", a, b);

	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		(void)pt_time_cycles();
	a = pt_time_cycles() - t0;
	t0 = pt_time_cycles();
	for (int i = 0; i < N; i++)
		(void)xTaskGetTickCount();
	b = pt_time_cycles() - t0;
	report("tick_count", a, b);

	vSemaphoreDelete(s);
	vQueueDelete(q);
	pt_sem_delete(ns);
	pt_mq_delete(nq);
}
