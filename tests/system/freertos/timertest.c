/*
 * Software timers (in the style of FreeRTOS's TimerDemo.c): one-shot and auto-reload timers
 * expire at exact ticks; stop, reset, change period and delete take effect; IDs, names,
 * periods and reload modes read back; a function call pended from a task and one from the
 * tick hook run in the timer service task; a timer started from the tick hook expires a
 * period after the tick it was started at.
 */
#include "frtest.h"
#include "timers.h"

#define NAUTO 4

static TimerHandle_t one_shot, auto_t, reset_t, del_t, isr_t;
static volatile TickType_t one_shot_at, reset_at, isr_t_at, isr_started_at;
static volatile TickType_t auto_at[NAUTO + 4];
static volatile int auto_n, del_n, one_shot_n, in_daemon, pended_ok, isr_pended_ok;
static volatile int isr_start_req, isr_pend_req;
static StaticTimer_t static_timer;

static void cb(TimerHandle_t t)
{
	TickType_t now = xTaskGetTickCount();
	in_daemon += xTaskGetCurrentTaskHandle() == xTimerGetTimerDaemonTaskHandle();
	if (t == one_shot) {
		one_shot_at = now;
		one_shot_n++;
	} else if (t == auto_t) {
		if (auto_n < NAUTO + 4)
			auto_at[auto_n] = now;
		auto_n++;
	} else if (t == reset_t) {
		reset_at = now;
	} else if (t == del_t) {
		del_n++;
	} else if (t == isr_t) {
		isr_t_at = now;
	}
}

static void pended(void *a1, uint32_t a2)
{
	pended_ok = a1 == (void *)&pended_ok && a2 == 42 &&
		    xTaskGetCurrentTaskHandle() == xTimerGetTimerDaemonTaskHandle();
}

static void isr_pended(void *a1, uint32_t a2)
{
	isr_pended_ok = a1 == 0 && a2 == 7;
}

void vTimerTestTickHook(void)
{
	BaseType_t woken = pdFALSE;
	if (isr_start_req && xTimerStartFromISR(isr_t, &woken) == pdPASS) {
		isr_started_at = xTaskGetTickCountFromISR();
		isr_start_req = 0;
	}
	if (isr_pend_req && xTimerPendFunctionCallFromISR(isr_pended, 0, 7, &woken) == pdPASS)
		isr_pend_req = 0;
	portYIELD_FROM_ISR(woken);
}

static void timer_task(void *arg)
{
	(void)arg;
	vTaskDelay(3);
	/* one-shot, 10 ticks */
	TickType_t t0 = xTaskGetTickCount();
	xTimerStart(one_shot, 0);
	vTaskDelay(1);
	int active_before = xTimerIsTimerActive(one_shot) == pdTRUE;
	vTaskDelay(12);
	frt_check("timer_one_shot_expires_at_period",
		  one_shot_n == 1 && one_shot_at == t0 + 10 && active_before &&
			  xTimerIsTimerActive(one_shot) == pdFALSE,
		  (long)(one_shot_at - t0));
	/* auto-reload, 5 ticks: 4 expiries, then stopped */
	t0 = xTaskGetTickCount();
	xTimerStart(auto_t, 0);
	vTaskDelay(22);
	xTimerStop(auto_t, 0);
	vTaskDelay(12);
	int periodic = auto_n == NAUTO;
	for (int i = 0; i < NAUTO && periodic; i++)
		periodic = auto_at[i] == t0 + 5 * (TickType_t)(i + 1);
	frt_check("timer_auto_reload_periodic_then_stopped", periodic, auto_n);
	/* change period: the auto-reload timer restarts with 7 ticks from now */
	t0 = xTaskGetTickCount();
	xTimerChangePeriod(auto_t, 7, 0);
	vTaskDelay(16);
	xTimerStop(auto_t, 0);
	frt_check("timer_change_period", auto_n == NAUTO + 2 && auto_at[NAUTO] == t0 + 7 &&
						 auto_at[NAUTO + 1] == t0 + 14 &&
						 xTimerGetPeriod(auto_t) == 7,
		  auto_n);
	/* reset: a 10-tick one-shot reset after 5 ticks expires 10 ticks after the reset */
	t0 = xTaskGetTickCount();
	xTimerStart(reset_t, 0);
	vTaskDelay(5);
	xTimerReset(reset_t, 0);
	vTaskDelay(12);
	frt_check("timer_reset_restarts_period", reset_at == t0 + 15, (long)(reset_at - t0));
	/* delete: a started timer deleted before its expiry never calls back */
	xTimerStart(del_t, 0);
	xTimerDelete(del_t, 0);
	vTaskDelay(8);
	frt_check("timer_delete", del_n == 0, del_n);
	/* pended function calls, from this task and from the tick hook */
	xTimerPendFunctionCall(pended, (void *)&pended_ok, 42, 0);
	isr_pend_req = 1;
	vTaskDelay(3);
	frt_check("timer_pend_function_call", pended_ok && isr_pended_ok, pended_ok);
	/* started from the interrupt context */
	isr_start_req = 1;
	vTaskDelay(8);
	frt_check("timer_start_from_isr", isr_t_at == isr_started_at + 4, (long)(isr_t_at - isr_started_at));
	/* attributes */
	vTimerSetTimerID(one_shot, (void *)0x1234);
	vTimerSetReloadMode(reset_t, pdTRUE);
	int name_ok = pcTimerGetName(one_shot)[0] == 'O' && pcTimerGetName(isr_t)[0] == 'I';
	frt_check("timer_attributes", pvTimerGetTimerID(one_shot) == (void *)0x1234 && name_ok &&
					      xTimerGetReloadMode(reset_t) == pdTRUE &&
					      uxTimerGetReloadMode(one_shot) == 0 &&
					      xTimerGetPeriod(one_shot) == 10,
		  name_ok);
	frt_check("timer_callbacks_in_service_task", in_daemon == one_shot_n + auto_n + 2, in_daemon);
	vTaskDelete(NULL);
}

void vStartTimerTests(UBaseType_t prio)
{
	one_shot = xTimerCreate("OneShot", 10, pdFALSE, 0, cb);
	auto_t = xTimerCreate("Auto", 5, pdTRUE, 0, cb);
	reset_t = xTimerCreate("Reset", 10, pdFALSE, 0, cb);
	del_t = xTimerCreate("Del", 4, pdFALSE, 0, cb);
	isr_t = xTimerCreateStatic("Isr", 4, pdFALSE, 0, cb, &static_timer);
	xTaskCreate(timer_task, "Tmr", configMINIMAL_STACK_SIZE, NULL, prio, NULL);
}
