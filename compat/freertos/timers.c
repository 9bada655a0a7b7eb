/*
 * FreeRTOS software timers (docs/compat.md, "Software timers"), as FreeRTOS builds them: a
 * timer service task owns every timer's state; the API sends it commands on a queue of
 * configTIMER_QUEUE_LENGTH (a native queue), from tasks (waiting up to the block time for
 * space) or from the interrupt context (never waiting). The service task waits on the queue
 * until the first active timer's expiry, so nothing runs while no timer is due; callbacks run
 * in it, in expiry order (FIFO among equal expiries). Times are 64-bit ticks inside, so no
 * overflow list is needed.
 */
#include "fr_internal.h"
#include "queue.h"

#if configUSE_TIMERS
#include "timers.h"

#define FR_TIMER_MAGIC 0x46525449u /* "FRTI" */

struct tmrTimerControl {
	uint32_t magic;
	uint8_t from_pool, active, auto_reload, deleted;
	const char *name;
	TickType_t period;
	void *id;
	TimerCallbackFunction_t callback;
	uint64_t expiry;               /* 64-bit tick of the next expiry, while active */
	struct tmrTimerControl *next;  /* the active list, by expiry (service task only) */
};

#if configSUPPORT_STATIC_ALLOCATION
_Static_assert(sizeof(struct tmrTimerControl) <= sizeof(StaticTimer_t),
	       "StaticTimer_t must hold the layer's timer record");
#endif

struct fr_timer_cmd {
	BaseType_t id;
	TimerHandle_t timer;
	TickType_t value; /* start/reset: the tick it was sent at; change period: the period */
	PendedFunction_t fn;
	void *arg1;
	uint32_t arg2;
};

static QueueHandle_t cmdq;
static TaskHandle_t daemon;
static struct tmrTimerControl *active_list;
#if configSUPPORT_DYNAMIC_ALLOCATION
static struct tmrTimerControl tpool[configPARTITA_MAX_TIMERS];
#endif
#if configSUPPORT_STATIC_ALLOCATION
static StaticQueue_t cmdq_buf;
#endif

/* The command queue exists from the first timer created (timers may be started before the
 * scheduler, as on FreeRTOS). */
static bool have_queue(void)
{
	vPortEnterCritical();
	if (!cmdq) {
#if configSUPPORT_STATIC_ALLOCATION
		static uint8_t storage[sizeof(struct fr_timer_cmd)]; /* unused: docs/compat.md */
		cmdq = xQueueCreateStatic(configTIMER_QUEUE_LENGTH, sizeof(struct fr_timer_cmd),
					  storage, &cmdq_buf);
#else
		cmdq = xQueueCreate(configTIMER_QUEUE_LENGTH, sizeof(struct fr_timer_cmd));
#endif
	}
	vPortExitCritical();
	return cmdq != 0;
}

static void init(TimerHandle_t t, const char *name, TickType_t period, BaseType_t reload,
		 void *id, TimerCallbackFunction_t cb)
{
	t->name = name;
	t->period = period;
	t->auto_reload = reload != pdFALSE;
	t->id = id;
	t->callback = cb;
	t->active = t->deleted = 0;
	t->expiry = 0;
	t->next = 0;
	t->magic = FR_TIMER_MAGIC;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TimerHandle_t xTimerCreate(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
			   const BaseType_t xAutoReload, void *const pvTimerID,
			   TimerCallbackFunction_t pxCallbackFunction)
{
	configASSERT(xTimerPeriodInTicks > 0);
	if (!have_queue())
		return 0;
	TimerHandle_t t = 0;
	vPortEnterCritical();
	for (int i = 0; i < (configPARTITA_MAX_TIMERS) && !t; i++)
		if (!tpool[i].from_pool)
			t = &tpool[i];
	if (t)
		t->from_pool = 1;
	vPortExitCritical();
	if (!t) {
#if configUSE_MALLOC_FAILED_HOOK
		vApplicationMallocFailedHook();
#endif
		return 0;
	}
	init(t, pcTimerName, xTimerPeriodInTicks, xAutoReload, pvTimerID, pxCallbackFunction);
	return t;
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TimerHandle_t xTimerCreateStatic(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
				 const BaseType_t xAutoReload, void *const pvTimerID,
				 TimerCallbackFunction_t pxCallbackFunction,
				 StaticTimer_t *pxTimerBuffer)
{
	configASSERT(xTimerPeriodInTicks > 0 && pxTimerBuffer);
	if (!pxTimerBuffer || !have_queue())
		return 0;
	TimerHandle_t t = (TimerHandle_t)(void *)pxTimerBuffer;
	t->from_pool = 0;
	init(t, pcTimerName, xTimerPeriodInTicks, xAutoReload, pvTimerID, pxCallbackFunction);
	return t;
}
#endif

static bool valid(TimerHandle_t t)
{
	return t && t->magic == FR_TIMER_MAGIC;
}

BaseType_t xTimerGenericCommandFromTask(TimerHandle_t xTimer, const BaseType_t xCommandID,
					const TickType_t xOptionalValue,
					BaseType_t *const pxHigherPriorityTaskWoken,
					const TickType_t xTicksToWait)
{
	(void)pxHigherPriorityTaskWoken;
	configASSERT(valid(xTimer) && cmdq);
	struct fr_timer_cmd c = {.id = xCommandID, .timer = xTimer, .value = xOptionalValue};
	/* before the start, and while the scheduler is suspended, a command never waits */
	TickType_t wait = fr_world.started && !fr_world.susp_nest ? xTicksToWait : 0;
	return xQueueSend(cmdq, &c, wait);
}

BaseType_t xTimerGenericCommandFromISR(TimerHandle_t xTimer, const BaseType_t xCommandID,
				       const TickType_t xOptionalValue,
				       BaseType_t *const pxHigherPriorityTaskWoken,
				       const TickType_t xTicksToWait)
{
	(void)xTicksToWait;
	configASSERT(valid(xTimer) && cmdq);
	struct fr_timer_cmd c = {.id = xCommandID, .timer = xTimer, .value = xOptionalValue};
	return xQueueSendFromISR(cmdq, &c, pxHigherPriorityTaskWoken);
}

BaseType_t xTimerPendFunctionCall(PendedFunction_t xFunctionToPend, void *pvParameter1,
				  uint32_t ulParameter2, TickType_t xTicksToWait)
{
	configASSERT(xFunctionToPend && cmdq);
	struct fr_timer_cmd c = {.id = tmrCOMMAND_EXECUTE_CALLBACK, .fn = xFunctionToPend,
				 .arg1 = pvParameter1, .arg2 = ulParameter2};
	return xQueueSend(cmdq, &c, xTicksToWait);
}

BaseType_t xTimerPendFunctionCallFromISR(PendedFunction_t xFunctionToPend, void *pvParameter1,
					 uint32_t ulParameter2,
					 BaseType_t *pxHigherPriorityTaskWoken)
{
	configASSERT(xFunctionToPend && cmdq);
	struct fr_timer_cmd c = {.id = tmrCOMMAND_EXECUTE_CALLBACK_FROM_ISR, .fn = xFunctionToPend,
				 .arg1 = pvParameter1, .arg2 = ulParameter2};
	return xQueueSendFromISR(cmdq, &c, pxHigherPriorityTaskWoken);
}

/* ---- the service task's side: the active list ---- */
static void unlink(TimerHandle_t t)
{
	for (struct tmrTimerControl **p = &active_list; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	t->next = 0;
}

static void insert(TimerHandle_t t, uint64_t expiry)
{
	unlink(t);
	t->expiry = expiry;
	struct tmrTimerControl **p = &active_list;
	while (*p && (*p)->expiry <= expiry) /* after equal expiries: FIFO */
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	vPortEnterCritical();
	t->active = 1;
	vPortExitCritical();
}

static void deactivate(TimerHandle_t t)
{
	unlink(t);
	vPortEnterCritical();
	t->active = 0;
	vPortExitCritical();
}

/* A 32-bit (or 16-bit) tick a command carries, as the 64-bit tick it names: the latest one
 * not after now with those low bits. */
static uint64_t widen(TickType_t v, uint64_t now)
{
	uint64_t w = (now & ~(uint64_t)(TickType_t)~(TickType_t)0) | v;
	return w > now ? w - ((uint64_t)(TickType_t)~(TickType_t)0 + 1) : w;
}

/* The first timer expired at or before now: call it; an auto-reload timer is re-armed a
 * period after the expiry it had (not after now), once per period missed, as FreeRTOS. */
static void expire(TimerHandle_t t, uint64_t now)
{
	if (t->auto_reload) {
		uint64_t e = t->expiry;
		insert(t, e + t->period);
		t->callback(t);
		while (t->active && t->auto_reload && t->expiry <= now) {
			insert(t, t->expiry + t->period);
			t->callback(t);
		}
	} else {
		deactivate(t);
		t->callback(t);
	}
}

static void command(const struct fr_timer_cmd *c)
{
	uint64_t now = fr_ticks64();
	if (c->id == tmrCOMMAND_EXECUTE_CALLBACK || c->id == tmrCOMMAND_EXECUTE_CALLBACK_FROM_ISR) {
		c->fn(c->arg1, c->arg2);
		return;
	}
	TimerHandle_t t = c->timer;
	if (!valid(t))
		return; /* deleted meanwhile */
	switch (c->id) {
	case tmrCOMMAND_START:
	case tmrCOMMAND_START_DONT_TRACE:
	case tmrCOMMAND_RESET:
	case tmrCOMMAND_START_FROM_ISR:
	case tmrCOMMAND_RESET_FROM_ISR:
		/* relative to when the command was sent; already due: expires now */
		insert(t, widen(c->value, now) + t->period);
		if (t->expiry <= now)
			expire(t, now);
		break;
	case tmrCOMMAND_STOP:
	case tmrCOMMAND_STOP_FROM_ISR:
		deactivate(t);
		break;
	case tmrCOMMAND_CHANGE_PERIOD:
	case tmrCOMMAND_CHANGE_PERIOD_FROM_ISR:
		configASSERT(c->value > 0);
		t->period = c->value;
		insert(t, now + t->period); /* relative to now, as FreeRTOS */
		break;
	case tmrCOMMAND_DELETE:
		deactivate(t);
		t->magic = 0;
		t->from_pool = 0; /* back to the pool (a static buffer is the application's) */
		break;
	default:
		break;
	}
}

static void service_task(void *arg)
{
	(void)arg;
#if configUSE_DAEMON_TASK_STARTUP_HOOK
	vApplicationDaemonTaskStartupHook();
#endif
	struct fr_timer_cmd c;
	for (;;) {
		uint64_t now = fr_ticks64();
		while (active_list && active_list->expiry <= now)
			expire(active_list, now);
		TickType_t wait = portMAX_DELAY;
		if (active_list) {
			uint64_t d = active_list->expiry - now;
			wait = d < (uint64_t)portMAX_DELAY ? (TickType_t)d : portMAX_DELAY - 1;
		}
		if (xQueueReceive(cmdq, &c, wait) == pdPASS) {
			do
				command(&c);
			while (xQueueReceive(cmdq, &c, 0) == pdPASS);
		}
	}
}

void fr_timers_start(void)
{
	configASSERT(have_queue());
#if configSUPPORT_STATIC_ALLOCATION
	StaticTask_t *tcb = 0;
	StackType_t *stack = 0;
	configSTACK_DEPTH_TYPE depth = 0;
	vApplicationGetTimerTaskMemory(&tcb, &stack, &depth);
	daemon = xTaskCreateStatic(service_task, "Tmr Svc", depth, NULL,
				   (configTIMER_TASK_PRIORITY), stack, tcb);
#else
	xTaskCreate(service_task, "Tmr Svc", configTIMER_TASK_STACK_DEPTH, NULL,
		    (configTIMER_TASK_PRIORITY), &daemon);
#endif
	configASSERT(daemon);
}

TaskHandle_t xTimerGetTimerDaemonTaskHandle(void)
{
	configASSERT(daemon);
	return daemon;
}

void *pvTimerGetTimerID(const TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	vPortEnterCritical();
	void *id = xTimer->id;
	vPortExitCritical();
	return id;
}

void vTimerSetTimerID(TimerHandle_t xTimer, void *pvNewID)
{
	configASSERT(valid(xTimer));
	vPortEnterCritical();
	xTimer->id = pvNewID;
	vPortExitCritical();
}

BaseType_t xTimerIsTimerActive(TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	return xTimer->active ? pdTRUE : pdFALSE;
}

const char *pcTimerGetName(TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	return xTimer->name;
}

void vTimerSetReloadMode(TimerHandle_t xTimer, const BaseType_t xAutoReload)
{
	configASSERT(valid(xTimer));
	vPortEnterCritical();
	xTimer->auto_reload = xAutoReload != pdFALSE;
	vPortExitCritical();
}

BaseType_t xTimerGetReloadMode(TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	return xTimer->auto_reload ? pdTRUE : pdFALSE;
}

UBaseType_t uxTimerGetReloadMode(TimerHandle_t xTimer)
{
	return (UBaseType_t)xTimerGetReloadMode(xTimer);
}

TickType_t xTimerGetPeriod(TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	return xTimer->period;
}

TickType_t xTimerGetExpiryTime(TimerHandle_t xTimer)
{
	configASSERT(valid(xTimer));
	return (TickType_t)xTimer->expiry;
}
#endif
