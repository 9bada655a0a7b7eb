/*
 * Event groups, stream and message buffers, queue sets (in the style of FreeRTOS's
 * EventGroupsDemo.c, StreamBufferDemo.c, MessageBufferDemo.c and QueueSet.c): a controller
 * at priority p drives helpers at p + 1, which run the moment what they wait for happens.
 */
#include "frtest.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"

static EventGroupHandle_t eg;
static StaticEventGroup_t eg_static;
static StreamBufferHandle_t sb;
static MessageBufferHandle_t mb;
static uint8_t mb_storage[64];
static StaticMessageBuffer_t mb_static;
static QueueSetHandle_t set;
static QueueHandle_t q1, q2;
static SemaphoreHandle_t s1;
static TaskHandle_t any_h, all_h, sync_h, sb_h;
static volatile EventBits_t any_got, all_got, sync_got;
static volatile int any_n, all_n, sync_n, sb_n;
static volatile size_t sb_got[4];
static volatile TickType_t sb_at[4];

static void any_task(void *arg)
{
	(void)arg;
	for (;;) { /* any of 0x3, not cleared */
		any_got = xEventGroupWaitBits(eg, 0x3, pdFALSE, pdFALSE, portMAX_DELAY);
		any_n++;
		vTaskSuspend(NULL);
	}
}

static void all_task(void *arg)
{
	(void)arg;
	for (;;) { /* all of 0x30, cleared on exit */
		all_got = xEventGroupWaitBits(eg, 0x30, pdTRUE, pdTRUE, portMAX_DELAY);
		all_n++;
		vTaskSuspend(NULL);
	}
}

static void sync_task(void *arg)
{
	(void)arg;
	sync_got = xEventGroupSync(eg, 0x100, 0x700, portMAX_DELAY);
	sync_n++;
	vTaskDelete(NULL);
}

static void sb_task(void *arg)
{
	(void)arg;
	uint8_t buf[32];
	for (int i = 0; i < 2; i++) {
		TickType_t t0 = xTaskGetTickCount();
		sb_got[i] = xStreamBufferReceive(sb, buf, sizeof buf, 20);
		sb_at[i] = xTaskGetTickCount() - t0;
		sb_n++;
	}
	vTaskDelete(NULL);
}

static void ev_task(void *arg)
{
	UBaseType_t prio = (UBaseType_t)(uintptr_t)arg;
	vTaskDelay(4);
	/* ---- event groups ---- */
	xTaskCreate(any_task, "EvAny", configMINIMAL_STACK_SIZE, NULL, prio + 1, &any_h);
	xTaskCreate(all_task, "EvAll", configMINIMAL_STACK_SIZE, NULL, prio + 1, &all_h);
	EventBits_t r = xEventGroupSetBits(eg, 0x10); /* neither condition */
	int none = any_n == 0 && all_n == 0 && r == 0x10;
	xEventGroupSetBits(eg, 0x2); /* "any" released; bits stay */
	int any_ok = any_n == 1 && all_n == 0 && any_got == 0x12;
	r = xEventGroupSetBits(eg, 0x20); /* "all" released and clears 0x30 */
	frt_check("event_group_wait_any_and_all",
		  none && any_ok && all_n == 1 && all_got == 0x32 && r == 0x2 &&
			  xEventGroupGetBits(eg) == 0x2,
		  (long)all_got);
	frt_check("event_group_clear_returns_previous",
		  xEventGroupClearBits(eg, 0x2) == 0x2 && xEventGroupGetBits(eg) == 0, 0);
	TickType_t t0 = xTaskGetTickCount();
	r = xEventGroupWaitBits(eg, 0x1, pdTRUE, pdTRUE, 6);
	frt_check("event_group_wait_times_out", r == 0 && xTaskGetTickCount() - t0 == 6,
		  (long)(xTaskGetTickCount() - t0));
	/* sync: three parties, 0x100 (helper), 0x200 (ISR-style set), 0x400 (us) */
	xTaskCreate(sync_task, "EvSync", configMINIMAL_STACK_SIZE, NULL, prio + 1, &sync_h);
	BaseType_t woken = pdFALSE;
	xEventGroupSetBitsFromISR(eg, 0x200, &woken);
	int before = sync_n;
	r = xEventGroupSync(eg, 0x400, 0x700, 10);
	frt_check("event_group_sync", before == 0 && sync_n == 1 && r == 0x700 && sync_got == 0x700 &&
					      xEventGroupGetBits(eg) == 0,
		  (long)r);
	EventGroupHandle_t eg2 = xEventGroupCreateStatic(&eg_static);
	xEventGroupSetBits(eg2, 0x5);
	frt_check("event_group_static_and_from_isr", xEventGroupGetBitsFromISR(eg2) == 0x5 &&
							     xEventGroupClearBitsFromISR(eg2, 0x1) == pdPASS &&
							     xEventGroupGetBits(eg2) == 0x4,
		  0);
	vEventGroupDelete(eg2);

	/* ---- stream buffer: 32 bytes, trigger level 8 ---- */
	xTaskCreate(sb_task, "SbRx", configMINIMAL_STACK_SIZE, NULL, prio + 1, &sb_h);
	size_t n1 = xStreamBufferSend(sb, "abcde", 5, 0); /* below the trigger: not released */
	int held = sb_n == 0;
	size_t n2 = xStreamBufferSend(sb, "fghij", 5, 0); /* 10 >= 8: released, reads 10 */
	frt_check("stream_buffer_trigger_level", n1 == 5 && n2 == 5 && held && sb_n == 1 &&
							 sb_got[0] == 10,
		  (long)sb_got[0]);
	vTaskDelay(25); /* the second receive times out after 20 ticks with nothing */
	frt_check("stream_buffer_receive_times_out", sb_n == 2 && sb_got[1] == 0 && sb_at[1] == 20,
		  (long)sb_at[1]);
	uint8_t big[40], out[40];
	for (int i = 0; i < 40; i++)
		big[i] = (uint8_t)i;
	size_t part = xStreamBufferSend(sb, big, 40, 0); /* writes what fits */
	int full = xStreamBufferIsFull(sb) == pdTRUE && xStreamBufferSpacesAvailable(sb) == 0;
	size_t got = xStreamBufferReceive(sb, out, 40, 0);
	int same = 1;
	for (size_t i = 0; i < got; i++)
		same &= out[i] == big[i];
	frt_check("stream_buffer_partial_write_and_read", part == 32 && full && got == 32 && same &&
								   xStreamBufferIsEmpty(sb) == pdTRUE,
		  (long)part);
	BaseType_t hw = pdFALSE;
	frt_check("stream_buffer_from_isr", xStreamBufferSendFromISR(sb, "xy", 2, &hw) == 2 &&
						    xStreamBufferReceiveFromISR(sb, out, 8, &hw) == 2 &&
						    out[0] == 'x' && xStreamBufferReset(sb) == pdPASS,
		  0);

	/* ---- message buffer: boundaries kept, a message too long for the reader stays ---- */
	xMessageBufferSend(mb, "hello", 5, 0);
	xMessageBufferSend(mb, "partita!", 8, 0);
	size_t l0 = xMessageBufferNextLengthBytes(mb);
	size_t small = xMessageBufferReceive(mb, out, 3, 0); /* 5 > 3: nothing */
	size_t m1 = xMessageBufferReceive(mb, out, 40, 0);
	int m1ok = m1 == 5 && out[0] == 'h' && out[4] == 'o';
	size_t m2 = xMessageBufferReceive(mb, out, 40, 0);
	frt_check("message_buffer_boundaries", l0 == 5 && small == 0 && m1ok && m2 == 8 &&
						       out[7] == '!' && xMessageBufferIsEmpty(mb) == pdTRUE,
		  (long)m2);
	size_t toolong = xMessageBufferSend(mb, big, 60, 50); /* can never fit: no wait */
	frt_check("message_buffer_never_fits_returns_at_once", toolong == 0, (long)toolong);

	/* ---- queue set: two queues and a semaphore ---- */
	uint32_t v = 7;
	xQueueSend(q2, &v, 0);
	xSemaphoreGive(s1);
	v = 9;
	xQueueSend(q1, &v, 0);
	QueueSetMemberHandle_t a = xQueueSelectFromSet(set, 0);
	QueueSetMemberHandle_t b = xQueueSelectFromSet(set, 0);
	QueueSetMemberHandle_t c = xQueueSelectFromSet(set, 0);
	uint32_t got2 = 0, got1 = 0;
	int order = a == q2 && b == s1 && c == q1 && xQueueReceive(q2, &got2, 0) == pdPASS &&
		    xSemaphoreTake(s1, 0) == pdPASS && xQueueReceive(q1, &got1, 0) == pdPASS;
	t0 = xTaskGetTickCount();
	QueueSetMemberHandle_t none_h = xQueueSelectFromSet(set, 4);
	frt_check("queue_set_selects_in_order", order && got2 == 7 && got1 == 9 && !none_h &&
							xTaskGetTickCount() - t0 == 4,
		  order);
	xQueueSend(q1, &v, 0);
	frt_check("queue_set_remove_needs_empty", xQueueRemoveFromSet(q1, set) == pdFAIL &&
							  xQueueSelectFromSetFromISR(set) == q1 &&
							  xQueueReceive(q1, &got1, 0) == pdPASS &&
							  xQueueRemoveFromSet(q1, set) == pdPASS,
		  0);
	vTaskDelete(NULL);
}

void vStartEventTests(UBaseType_t prio)
{
	eg = xEventGroupCreate();
	sb = xStreamBufferCreate(32, 8);
	mb = xMessageBufferCreateStatic(sizeof mb_storage, mb_storage, &mb_static);
	set = xQueueCreateSet(4 + 4 + 1);
	q1 = xQueueCreate(4, sizeof(uint32_t));
	q2 = xQueueCreate(4, sizeof(uint32_t));
	s1 = xSemaphoreCreateBinary();
	xQueueAddToSet(q1, set);
	xQueueAddToSet(q2, set);
	xQueueAddToSet(s1, set);
	xTaskCreate(ev_task, "EvCtl", configMINIMAL_STACK_SIZE, (void *)(uintptr_t)prio, prio, NULL);
}
