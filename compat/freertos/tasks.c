/*
 * FreeRTOS tasks on Partita threads (docs/compat.md, "Tasks"). Every call is one or two native
 * calls; the layer keeps only what FreeRTOS exposes and the kernel does not: the FreeRTOS
 * priority, the name, and whether vTaskSuspend suspended the task.
 */
#include <partita/config.h> /* PT_KIND_APERIODIC */
#include <partita/sync.h>
#include "fr_internal.h"

#if configSUPPORT_DYNAMIC_ALLOCATION
static struct tskTaskControlBlock pool[configPARTITA_MAX_TASKS];
#endif

static TaskHandle_t self_or(TaskHandle_t t)
{
	return t ? t : fr_current();
}

/* Every task starts here: FreeRTOS task functions must never return. */
static void trampoline(void *arg)
{
	TaskHandle_t t = arg;
	/* the stack's top is page-aligned and this frame is within its first page */
	uintptr_t top = ((uintptr_t)__builtin_frame_address(0) + PT_PAGE_BYTES - 1) &
			~(uintptr_t)(PT_PAGE_BYTES - 1);
	uint64_t *low = (uint64_t *)(top - t->stack_bytes);
	for (unsigned i = 0; i < FR_STACK_ZONE / 8; i++)
		low[i] = FR_STACK_PAINT;
	t->stack_limit = (uintptr_t)low;
	t->code(t->params);
	configASSERT(0 && "a FreeRTOS task function returned");
}

static unsigned stack_bytes(configSTACK_DEPTH_TYPE words)
{
	uint64_t b = (uint64_t)words * sizeof(StackType_t);
	b = (b + PT_PAGE_BYTES - 1) & ~(uint64_t)(PT_PAGE_BYTES - 1);
	return b < PT_MIN_STACK_BYTES ? PT_MIN_STACK_BYTES : b > PT_MAX_STACK_BYTES ? 0 : (unsigned)b;
}

/* Fill record t and start its thread; inside a critical section so the new task, whatever
 * its priority, starts only when the creator leaves it (as FreeRTOS defers the switch). */
static BaseType_t create(TaskHandle_t t, TaskFunction_t code, const char *name,
			 configSTACK_DEPTH_TYPE depth, void *params, UBaseType_t prio)
{
	configASSERT(code && prio < (configMAX_PRIORITIES));
	if (prio >= (configMAX_PRIORITIES))
		prio = (configMAX_PRIORITIES) - 1; /* FreeRTOS caps it when asserts are off */
	unsigned sb = stack_bytes(depth);
	if (!sb)
		return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
	t->code = code;
	t->params = params;
	t->priority = prio;
	t->crit_nest = 0;
	t->suspended = t->stopped = t->isr = 0;
	t->susp_nest = 0;
	t->notify_sem = t->wait_sem = 0;
	t->waiter = 0;
	for (int k = 0; k < (configTASK_NOTIFICATION_ARRAY_ENTRIES); k++)
		t->notify_value[k] = 0, t->notify_state[k] = FR_NOTIFY_NONE;
	t->stack_bytes = sb;
	t->stack_limit = 0;
	int i = 0;
	for (; name && name[i] && i < (configMAX_TASK_NAME_LEN) - 1; i++)
		t->name[i] = name[i];
	t->name[i] = 0;
	char native_name[PT_THREAD_NAME_MAX + 1];
	for (i = 0; t->name[i] && i < PT_THREAD_NAME_MAX; i++)
		native_name[i] = t->name[i] >= 0x20 && t->name[i] <= 0x7e ? t->name[i] : '_';
	native_name[i] = 0;
	struct pt_thread_attr a = {
		.name = native_name, .entry = trampoline, .arg = t,
		.priority = (uint16_t)fr_native_prio(prio), .cpu = -1, .sched = -1,
		.kind = PT_KIND_APERIODIC /* runs its entry once */, .stack_bytes = sb,
	};
	int tid = pt_thread_create(&a);
	if (tid < 0)
		return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
	t->tid = tid;
	t->magic = FR_TASK_MAGIC;
	fr_register(t);
	return pdPASS;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char *const pcName,
		       const configSTACK_DEPTH_TYPE uxStackDepth, void *const pvParameters,
		       UBaseType_t uxPriority, TaskHandle_t *const pxCreatedTask)
{
	vPortEnterCritical();
	TaskHandle_t t = 0;
	for (int i = 0; i < (configPARTITA_MAX_TASKS) && !t; i++)
		if (!pool[i].from_pool)
			t = &pool[i];
	BaseType_t r = errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
	if (t) {
		t->from_pool = 1;
		r = create(t, pxTaskCode, pcName, uxStackDepth, pvParameters, uxPriority);
		if (r != pdPASS)
			t->from_pool = 0;
	}
#if configUSE_MALLOC_FAILED_HOOK
	if (r != pdPASS)
		vApplicationMallocFailedHook();
#endif
	if (r == pdPASS && pxCreatedTask)
		*pxCreatedTask = t;
	vPortExitCritical();
	return r;
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
/* The stack buffer is not used: a Partita thread's stack comes from its partition's colored
 * pages with a guard page below it (docs/compat.md). */
TaskHandle_t xTaskCreateStatic(TaskFunction_t pxTaskCode, const char *const pcName,
			       const configSTACK_DEPTH_TYPE uxStackDepth,
			       void *const pvParameters, UBaseType_t uxPriority,
			       StackType_t *const puxStackBuffer, StaticTask_t *const pxTaskBuffer)
{
	configASSERT(puxStackBuffer && pxTaskBuffer);
	if (!puxStackBuffer || !pxTaskBuffer)
		return 0;
	TaskHandle_t t = (TaskHandle_t)(void *)pxTaskBuffer;
	vPortEnterCritical();
	t->from_pool = 0;
	BaseType_t r = create(t, pxTaskCode, pcName, uxStackDepth, pvParameters, uxPriority);
	vPortExitCritical();
	return r == pdPASS ? t : 0;
}
#endif

void vTaskDelete(TaskHandle_t xTaskToDelete)
{
	TaskHandle_t me = fr_current();
	TaskHandle_t t = self_or(xTaskToDelete);
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	vPortEnterCritical();
	t->magic = 0;
	fr_unregister(t);
	t->from_pool = 0; /* the record is free for the next xTaskCreate */
	if (t->waiter) /* it leaves the event group it waits on */
		fr_waiter_unlink(t->waiter);
	if (t->notify_sem > 0)
		pt_sem_delete(t->notify_sem);
	if (t->wait_sem > 0)
		pt_sem_delete(t->wait_sem);
	t->notify_sem = t->wait_sem = 0;
	if (t == me)
		pt_thread_delete(0); /* does not return; nothing of the world runs before it ends */
	pt_thread_delete(t->tid);
	vPortExitCritical();
}

void vTaskDelay(const TickType_t xTicksToDelay)
{
	configASSERT(!fr_in_isr());
	fr_stack_check();
	if (xTicksToDelay == 0) {
		pt_thread_yield();
		return;
	}
	/* wake when the tick count has advanced by xTicksToDelay: at a tick boundary */
	fr_sleep_until_tick(fr_ticks64() + xTicksToDelay);
}

BaseType_t xTaskDelayUntil(TickType_t *const pxPreviousWakeTime, const TickType_t xTimeIncrement)
{
	configASSERT(pxPreviousWakeTime && xTimeIncrement > 0 && !fr_in_isr());
	fr_stack_check();
	uint64_t now64 = fr_ticks64();
	TickType_t now = (TickType_t)now64, prev = *pxPreviousWakeTime;
	TickType_t wake = (TickType_t)(prev + xTimeIncrement);
	BaseType_t delay;
	if (now < prev) /* the tick count wrapped since prev: only a wake that wrapped too waits */
		delay = wake < prev && wake > now;
	else
		delay = wake < prev || wake > now;
	*pxPreviousWakeTime = wake;
	if (delay)
		fr_sleep_until_tick(now64 + (TickType_t)(wake - now));
	else
		pt_thread_yield();
	return delay ? pdTRUE : pdFALSE;
}

void vTaskSuspend(TaskHandle_t xTaskToSuspend)
{
	TaskHandle_t t = self_or(xTaskToSuspend);
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	t->suspended = 1;
	if (t == fr_current()) {
		pt_thread_suspend(0);
		return;
	}
	pt_thread_suspend(t->tid);
	/* FreeRTOS takes a suspended task out of its wait: a notification or event-group wait
	 * (which do not re-block) then returns as timed out when the task is resumed. The
	 * native suspension takes effect as the wait ends, so the task does not run meanwhile.
	 * Queue and semaphore waits, which FreeRTOS re-blocks for their remaining time, are
	 * left to end by themselves. */
	bool notify_wait = t->waiter != 0;
	for (int i = 0; i < (configTASK_NOTIFICATION_ARRAY_ENTRIES); i++)
		notify_wait |= t->notify_state[i] == FR_NOTIFY_WAITING;
	if (notify_wait)
		(void)pt_thread_abort_wait(t->tid);
}

void vTaskResume(TaskHandle_t xTaskToResume)
{
	TaskHandle_t t = xTaskToResume;
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	if (t == fr_current() || !t->suspended || t->stopped)
		return;
	t->suspended = 0;
	pt_thread_resume(t->tid);
}

UBaseType_t uxTaskBasePriorityGet(const TaskHandle_t xTask)
{
	TaskHandle_t t = self_or(xTask);
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	return t->priority;
}

/* The priority the task runs at now, inheritance included (as FreeRTOS's uxPriority). */
UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask)
{
	TaskHandle_t t = self_or(xTask);
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	int native = pt_thread_priority(t == fr_current() ? 0 : t->tid);
	if (t->crit_nest || t->susp_nest || native < 0 || (unsigned)native > fr_native_prio(0))
		return t->priority;
	if ((unsigned)native < fr_native_prio((configMAX_PRIORITIES) - 1)) /* boosted from outside */
		return (configMAX_PRIORITIES) - 1;
	return fr_world.ceiling + FR_SUSPEND_OFFSET + (configMAX_PRIORITIES) - (unsigned)native;
}

void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority)
{
	TaskHandle_t t = self_or(xTask);
	configASSERT(t && t->magic == FR_TASK_MAGIC && uxNewPriority < (configMAX_PRIORITIES));
	if (uxNewPriority >= (configMAX_PRIORITIES))
		uxNewPriority = (configMAX_PRIORITIES) - 1;
	t->priority = uxNewPriority;
	fr_apply_priority(t); /* the kernel keeps an inherited priority while it is better */
}

eTaskState eTaskGetState(TaskHandle_t xTask)
{
	TaskHandle_t t = xTask;
	configASSERT(t);
	if (t->magic != FR_TASK_MAGIC)
		return eDeleted;
	if (t == fr_current())
		return eRunning;
	if (t->suspended || t->stopped)
		return eSuspended;
	switch (pt_thread_state(t->tid)) {
	case PT_THREAD_RUNNING: return eRunning;
	case PT_THREAD_READY: return eReady;
	case PT_THREAD_BLOCKED: return eBlocked;
	case PT_THREAD_SUSPENDED: return eSuspended;
	case PT_THREAD_WAIT_PERIOD: return eBlocked;
	case PT_THREAD_STOPPED: return eSuspended;
	default: return eDeleted;
	}
}

TickType_t xTaskGetTickCount(void)
{
	return (TickType_t)fr_ticks64();
}

TickType_t xTaskGetTickCountFromISR(void)
{
	return (TickType_t)fr_ticks64();
}

char *pcTaskGetName(TaskHandle_t xTaskToQuery)
{
	TaskHandle_t t = self_or(xTaskToQuery);
	configASSERT(t);
	return t->name;
}

TaskHandle_t xTaskGetCurrentTaskHandle(void)
{
	return fr_current();
}

UBaseType_t uxTaskGetNumberOfTasks(void)
{
	UBaseType_t n = 0;
	for (int s = 0; s < PT_MAX_THREADS; s++) {
		TaskHandle_t t = fr_registered(s);
		n += t && t->magic == FR_TASK_MAGIC && !t->isr;
	}
	/* main()'s thread is no task before the start; from the start FreeRTOS counts its idle
	 * task, which is main()'s thread with an idle hook and otherwise does not exist here */
	return n - !fr_world.started + (fr_world.started && !(configUSE_IDLE_HOOK));
}

BaseType_t xTaskGetSchedulerState(void)
{
	if (!fr_world.started)
		return taskSCHEDULER_NOT_STARTED;
	return fr_world.susp_nest ? taskSCHEDULER_SUSPENDED : taskSCHEDULER_RUNNING;
}

/* Scheduler suspension: the caller runs at the world's suspension level until
 * xTaskResumeAll, above every other task of the world and below its interrupt context (the
 * tick hook still runs, as FreeRTOS's interrupts do); it may not block meanwhile (as in
 * FreeRTOS). Nothing of the native scheduler is locked: other partitions run on. */
void vTaskSuspendAll(void)
{
	TaskHandle_t t = fr_current();
	configASSERT(t && !t->isr);
	vPortEnterCritical();
	fr_world.susp_nest++;
	t->susp_nest++;
	vPortExitCritical(); /* to the suspension level: fr_apply_priority */
}

BaseType_t xTaskResumeAll(void)
{
	TaskHandle_t t = fr_current();
	configASSERT(t && t->susp_nest > 0);
	vPortEnterCritical();
	fr_world.susp_nest--;
	t->susp_nest--;
	vPortExitCritical(); /* back to the task's level: a task readied meanwhile runs now */
	return pdFALSE; /* any switch happened inside the exit; the caller need not yield */
}

/* xTaskAbortDelay: the native pt_thread_abort_wait (kernel/core/abort_wait.c) ends the wait
 * as a timeout would; only a task in the Blocked state, as FreeRTOS. */
BaseType_t xTaskAbortDelay(TaskHandle_t xTask)
{
	TaskHandle_t t = xTask;
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	if (t == fr_current() || t->suspended || t->stopped) /* the caller is not blocked */
		return pdFAIL;
	return pt_thread_abort_wait(t->tid) == PT_OK ? pdPASS : pdFAIL;
}

/* From the interrupt context (or a task): vTaskResume; pdTRUE when a task was resumed (it
 * runs when the interrupt context returns to its wait). */
BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume)
{
	TaskHandle_t t = xTaskToResume;
	configASSERT(t && t->magic == FR_TASK_MAGIC);
	if (t == fr_current() || !t->suspended || t->stopped)
		return pdFALSE;
	t->suspended = 0;
	pt_thread_resume(t->tid);
	return pdTRUE;
}

UBaseType_t uxTaskPriorityGetFromISR(const TaskHandle_t xTask)
{
	return uxTaskPriorityGet(xTask);
}

TaskHandle_t xTaskGetIdleTaskHandle(void)
{
	configASSERT(fr_world.started);
	return fr_idle_task();
}

TaskHandle_t xTaskGetHandle(const char *pcNameToQuery)
{
	configASSERT(pcNameToQuery);
	for (int s = 0; s < PT_MAX_THREADS; s++) {
		TaskHandle_t t = fr_registered(s);
		if (!t || t->magic != FR_TASK_MAGIC || t->isr)
			continue;
		int i = 0;
		while (i < (configMAX_TASK_NAME_LEN) && t->name[i] && t->name[i] == pcNameToQuery[i])
			i++;
		if (i == (configMAX_TASK_NAME_LEN) || t->name[i] == pcNameToQuery[i])
			return t;
	}
	return 0;
}

/* xTaskCatchUpTicks: the tick count jumps forward by n (the world's tick 0 moves n ticks
 * back). Tick time is the clock here, so nothing was missed: a task already waiting keeps the
 * moment of the clock it waits for (FreeRTOS would wake those whose time the jump passed). */
BaseType_t xTaskCatchUpTicks(TickType_t xTicksToCatchUp)
{
	vPortEnterCritical();
	fr_world.epoch_cycles -= (uint64_t)xTicksToCatchUp * fr_world.tick_cycles;
	vPortExitCritical();
	return pdFALSE;
}
