/*
 * Task notifications, indexed (docs/compat.md, "Task notifications"): each task record holds
 * configTASK_NOTIFICATION_ARRAY_ENTRIES values and states, as FreeRTOS's TCB does. The state
 * changes inside the world's critical section (no task and no interrupt context of the world
 * runs meanwhile); a waiting task blocks on a native binary semaphore of its own, created at
 * its first wait, which a notification gives only while the task waits on that index.
 *
 * A give can outlive the wait it was meant for (the waiter timed out, then a notifier saw it
 * still waiting): the waiter reads the state after its wait, so it still sees the
 * notification, and the stale count is drained at the start of its next wait.
 */
#include <partita/sync.h>
#include "fr_internal.h"

static TaskHandle_t task_or_self(TaskHandle_t t)
{
	t = t ? t : fr_current();
	configASSERT(t && t->magic == FR_TASK_MAGIC && !t->isr);
	return t;
}

/* In the critical section: t will wait on index i; false when no semaphore is left. */
static bool prepare_wait(TaskHandle_t t, UBaseType_t i)
{
	if (t->notify_sem <= 0) {
		int id = pt_sem_create(0, 1);
		if (id < 0) {
#if configUSE_MALLOC_FAILED_HOOK
			vApplicationMallocFailedHook();
#endif
			return false;
		}
		t->notify_sem = id;
	}
	while (pt_sem_take(t->notify_sem, PT_NO_WAIT) == PT_OK) /* a stale give */
		;
	t->notify_state[i] = FR_NOTIFY_WAITING;
	return true;
}

/* The notification itself (critical section held); *woke: the target was waiting on i. */
static BaseType_t notify(TaskHandle_t t, UBaseType_t i, uint32_t v, eNotifyAction a,
			 uint32_t *prev, bool *woke)
{
	BaseType_t r = pdPASS;
	if (prev)
		*prev = t->notify_value[i];
	uint8_t old = t->notify_state[i];
	t->notify_state[i] = FR_NOTIFY_RECEIVED;
	switch (a) {
	case eSetBits: t->notify_value[i] |= v; break;
	case eIncrement: t->notify_value[i]++; break;
	case eSetValueWithOverwrite: t->notify_value[i] = v; break;
	case eSetValueWithoutOverwrite:
		if (old != FR_NOTIFY_RECEIVED)
			t->notify_value[i] = v;
		else
			r = pdFAIL; /* the previous value was not read yet */
		break;
	case eNoAction: break;
	default: configASSERT(0 && "eNotifyAction"); /* as FreeRTOS */
	}
	*woke = old == FR_NOTIFY_WAITING;
	if (*woke)
		pt_sem_give(t->notify_sem); /* it runs when it outranks us and we leave the section */
	return r;
}

BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
			      uint32_t ulValue, eNotifyAction eAction,
			      uint32_t *pulPreviousNotificationValue)
{
	configASSERT(xTaskToNotify && uxIndexToNotify < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(xTaskToNotify);
	bool woke;
	vPortEnterCritical();
	BaseType_t r = notify(t, uxIndexToNotify, ulValue, eAction, pulPreviousNotificationValue,
			      &woke);
	vPortExitCritical();
	return r;
}

/* pdTRUE in *woken when the notification released a waiting task of higher priority than
 * the caller's (from the interrupt context: than any, the interrupt outranks them all). */
static void set_woken(BaseType_t *woken, TaskHandle_t t, bool woke)
{
	TaskHandle_t me = fr_current();
	if (woken && woke && (!me || me->isr || t->priority > me->priority))
		*woken = pdTRUE;
}

BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
				     uint32_t ulValue, eNotifyAction eAction,
				     uint32_t *pulPreviousNotificationValue,
				     BaseType_t *pxHigherPriorityTaskWoken)
{
	configASSERT(xTaskToNotify && uxIndexToNotify < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(xTaskToNotify);
	bool woke;
	vPortEnterCritical();
	BaseType_t r = notify(t, uxIndexToNotify, ulValue, eAction, pulPreviousNotificationValue,
			      &woke);
	vPortExitCritical();
	set_woken(pxHigherPriorityTaskWoken, t, woke);
	return r;
}

void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
				   BaseType_t *pxHigherPriorityTaskWoken)
{
	(void)xTaskGenericNotifyFromISR(xTaskToNotify, uxIndexToNotify, 0, eIncrement, NULL,
					pxHigherPriorityTaskWoken);
}

BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWaitOn, uint32_t ulBitsToClearOnEntry,
				  uint32_t ulBitsToClearOnExit, uint32_t *pulNotificationValue,
				  TickType_t xTicksToWait)
{
	configASSERT(uxIndexToWaitOn < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(0);
	UBaseType_t i = uxIndexToWaitOn;
	uint64_t timeout = fr_timeout_ns(xTicksToWait);
	bool wait = false;
	vPortEnterCritical();
	if (t->notify_state[i] != FR_NOTIFY_RECEIVED) {
		t->notify_value[i] &= ~ulBitsToClearOnEntry;
		wait = timeout != PT_NO_WAIT && prepare_wait(t, i);
	}
	vPortExitCritical();
	if (wait)
		(void)pt_sem_take(t->notify_sem, timeout); /* given, timed out, or aborted */
	vPortEnterCritical();
	if (pulNotificationValue)
		*pulNotificationValue = t->notify_value[i];
	BaseType_t r = pdFALSE;
	if (t->notify_state[i] == FR_NOTIFY_RECEIVED) {
		t->notify_value[i] &= ~ulBitsToClearOnExit;
		r = pdTRUE;
	}
	t->notify_state[i] = FR_NOTIFY_NONE;
	vPortExitCritical();
	return r;
}

uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWaitOn, BaseType_t xClearCountOnExit,
				 TickType_t xTicksToWait)
{
	configASSERT(uxIndexToWaitOn < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(0);
	UBaseType_t i = uxIndexToWaitOn;
	uint64_t timeout = fr_timeout_ns(xTicksToWait);
	bool wait = false;
	vPortEnterCritical();
	if (t->notify_value[i] == 0)
		wait = timeout != PT_NO_WAIT && prepare_wait(t, i);
	vPortExitCritical();
	if (wait)
		(void)pt_sem_take(t->notify_sem, timeout);
	vPortEnterCritical();
	uint32_t v = t->notify_value[i];
	if (v)
		t->notify_value[i] = xClearCountOnExit ? 0 : v - 1;
	t->notify_state[i] = FR_NOTIFY_NONE;
	vPortExitCritical();
	return v;
}

BaseType_t xTaskGenericNotifyStateClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear)
{
	configASSERT(uxIndexToClear < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(xTask);
	vPortEnterCritical();
	BaseType_t r = t->notify_state[uxIndexToClear] == FR_NOTIFY_RECEIVED;
	if (r)
		t->notify_state[uxIndexToClear] = FR_NOTIFY_NONE;
	vPortExitCritical();
	return r ? pdPASS : pdFAIL;
}

uint32_t ulTaskGenericNotifyValueClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear,
				       uint32_t ulBitsToClear)
{
	configASSERT(uxIndexToClear < (configTASK_NOTIFICATION_ARRAY_ENTRIES));
	TaskHandle_t t = task_or_self(xTask);
	vPortEnterCritical();
	uint32_t v = t->notify_value[uxIndexToClear];
	t->notify_value[uxIndexToClear] &= ~ulBitsToClear;
	vPortExitCritical();
	return v;
}
