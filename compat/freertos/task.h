/*
 * FreeRTOS task API on Partita (docs/compat.md, "Tasks"). A task is a Partita thread on the
 * world's core; its handle is the layer's task record (from a static pool, or the caller's
 * StaticTask_t).
 */
#ifndef INC_TASK_H
#define INC_TASK_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include task.h"
#endif

#ifndef configSTACK_DEPTH_TYPE
#define configSTACK_DEPTH_TYPE StackType_t
#endif

struct tskTaskControlBlock;
typedef struct tskTaskControlBlock *TaskHandle_t;
typedef const struct tskTaskControlBlock *ConstTaskHandle_t;

typedef enum {
	eRunning = 0,
	eReady,
	eBlocked,
	eSuspended,
	eDeleted,
	eInvalid
} eTaskState;

#define tskIDLE_PRIORITY ((UBaseType_t)0U)
#define tskKERNEL_VERSION_NUMBER "V11.1.0+partita"
#define tskKERNEL_VERSION_MAJOR 11
#define tskKERNEL_VERSION_MINOR 1
#define tskKERNEL_VERSION_BUILD 0

#define taskSCHEDULER_SUSPENDED ((BaseType_t)0)
#define taskSCHEDULER_NOT_STARTED ((BaseType_t)1)
#define taskSCHEDULER_RUNNING ((BaseType_t)2)

#define taskYIELD() portYIELD()
#define taskENTER_CRITICAL() portENTER_CRITICAL()
#define taskEXIT_CRITICAL() portEXIT_CRITICAL()
#define taskENTER_CRITICAL_FROM_ISR() portSET_INTERRUPT_MASK_FROM_ISR()
#define taskEXIT_CRITICAL_FROM_ISR(x) portCLEAR_INTERRUPT_MASK_FROM_ISR(x)
#define taskDISABLE_INTERRUPTS() portDISABLE_INTERRUPTS()
#define taskENABLE_INTERRUPTS() portENABLE_INTERRUPTS()

#if configSUPPORT_DYNAMIC_ALLOCATION
BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char *const pcName,
		       const configSTACK_DEPTH_TYPE uxStackDepth, void *const pvParameters,
		       UBaseType_t uxPriority, TaskHandle_t *const pxCreatedTask);
#endif
#if configSUPPORT_STATIC_ALLOCATION
TaskHandle_t xTaskCreateStatic(TaskFunction_t pxTaskCode, const char *const pcName,
			       const configSTACK_DEPTH_TYPE uxStackDepth,
			       void *const pvParameters, UBaseType_t uxPriority,
			       StackType_t *const puxStackBuffer, StaticTask_t *const pxTaskBuffer);
#endif
void vTaskDelete(TaskHandle_t xTaskToDelete);

void vTaskDelay(const TickType_t xTicksToDelay);
BaseType_t xTaskDelayUntil(TickType_t *const pxPreviousWakeTime, const TickType_t xTimeIncrement);
#define vTaskDelayUntil(pxPreviousWakeTime, xTimeIncrement) \
	do {                                                 \
		(void)xTaskDelayUntil((pxPreviousWakeTime), (xTimeIncrement)); \
	} while (0)

void vTaskSuspend(TaskHandle_t xTaskToSuspend);
void vTaskResume(TaskHandle_t xTaskToResume);
UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask);
UBaseType_t uxTaskBasePriorityGet(const TaskHandle_t xTask);
void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority);
eTaskState eTaskGetState(TaskHandle_t xTask);

TickType_t xTaskGetTickCount(void);
TickType_t xTaskGetTickCountFromISR(void);
char *pcTaskGetName(TaskHandle_t xTaskToQuery);
TaskHandle_t xTaskGetCurrentTaskHandle(void);
UBaseType_t uxTaskGetNumberOfTasks(void);
BaseType_t xTaskGetSchedulerState(void);

void vTaskStartScheduler(void);
void vTaskSuspendAll(void);
BaseType_t xTaskResumeAll(void);

/* ---- task notifications (notify.c) ---- */
#define tskDEFAULT_INDEX_TO_NOTIFY 0
typedef enum {
	eNoAction = 0,
	eSetBits,
	eIncrement,
	eSetValueWithOverwrite,
	eSetValueWithoutOverwrite
} eNotifyAction;

BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
			      uint32_t ulValue, eNotifyAction eAction,
			      uint32_t *pulPreviousNotificationValue);
BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
				     uint32_t ulValue, eNotifyAction eAction,
				     uint32_t *pulPreviousNotificationValue,
				     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWaitOn, uint32_t ulBitsToClearOnEntry,
				  uint32_t ulBitsToClearOnExit, uint32_t *pulNotificationValue,
				  TickType_t xTicksToWait);
void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
				   BaseType_t *pxHigherPriorityTaskWoken);
uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWaitOn, BaseType_t xClearCountOnExit,
				 TickType_t xTicksToWait);
BaseType_t xTaskGenericNotifyStateClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear);
uint32_t ulTaskGenericNotifyValueClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear,
				       uint32_t ulBitsToClear);

#define xTaskNotify(xTaskToNotify, ulValue, eAction) \
	xTaskGenericNotify((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (ulValue), (eAction), NULL)
#define xTaskNotifyIndexed(xTaskToNotify, uxIndexToNotify, ulValue, eAction) \
	xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), NULL)
#define xTaskNotifyAndQuery(xTaskToNotify, ulValue, eAction, pulPreviousNotifyValue) \
	xTaskGenericNotify((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (ulValue), (eAction), \
			   (pulPreviousNotifyValue))
#define xTaskNotifyAndQueryIndexed(xTaskToNotify, uxIndexToNotify, ulValue, eAction, \
				   pulPreviousNotifyValue) \
	xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), \
			   (pulPreviousNotifyValue))
#define xTaskNotifyFromISR(xTaskToNotify, ulValue, eAction, pxHigherPriorityTaskWoken) \
	xTaskGenericNotifyFromISR((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (ulValue), \
				  (eAction), NULL, (pxHigherPriorityTaskWoken))
#define xTaskNotifyIndexedFromISR(xTaskToNotify, uxIndexToNotify, ulValue, eAction, \
				  pxHigherPriorityTaskWoken) \
	xTaskGenericNotifyFromISR((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), NULL, \
				  (pxHigherPriorityTaskWoken))
#define xTaskNotifyAndQueryFromISR(xTaskToNotify, ulValue, eAction, pulPreviousNotificationValue, \
				   pxHigherPriorityTaskWoken) \
	xTaskGenericNotifyFromISR((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (ulValue), \
				  (eAction), (pulPreviousNotificationValue), \
				  (pxHigherPriorityTaskWoken))
#define xTaskNotifyAndQueryIndexedFromISR(xTaskToNotify, uxIndexToNotify, ulValue, eAction, \
					  pulPreviousNotificationValue, \
					  pxHigherPriorityTaskWoken) \
	xTaskGenericNotifyFromISR((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), \
				  (pulPreviousNotificationValue), (pxHigherPriorityTaskWoken))
#define xTaskNotifyWait(ulBitsToClearOnEntry, ulBitsToClearOnExit, pulNotificationValue, \
			xTicksToWait) \
	xTaskGenericNotifyWait(tskDEFAULT_INDEX_TO_NOTIFY, (ulBitsToClearOnEntry), \
			       (ulBitsToClearOnExit), (pulNotificationValue), (xTicksToWait))
#define xTaskNotifyWaitIndexed(uxIndexToWaitOn, ulBitsToClearOnEntry, ulBitsToClearOnExit, \
			       pulNotificationValue, xTicksToWait) \
	xTaskGenericNotifyWait((uxIndexToWaitOn), (ulBitsToClearOnEntry), (ulBitsToClearOnExit), \
			       (pulNotificationValue), (xTicksToWait))
#define xTaskNotifyGive(xTaskToNotify) \
	xTaskGenericNotify((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), (0), eIncrement, NULL)
#define xTaskNotifyGiveIndexed(xTaskToNotify, uxIndexToNotify) \
	xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (0), eIncrement, NULL)
#define vTaskNotifyGiveFromISR(xTaskToNotify, pxHigherPriorityTaskWoken) \
	vTaskGenericNotifyGiveFromISR((xTaskToNotify), (tskDEFAULT_INDEX_TO_NOTIFY), \
				      (pxHigherPriorityTaskWoken))
#define vTaskNotifyGiveIndexedFromISR(xTaskToNotify, uxIndexToNotify, pxHigherPriorityTaskWoken) \
	vTaskGenericNotifyGiveFromISR((xTaskToNotify), (uxIndexToNotify), \
				      (pxHigherPriorityTaskWoken))
#define ulTaskNotifyTake(xClearCountOnExit, xTicksToWait) \
	ulTaskGenericNotifyTake((tskDEFAULT_INDEX_TO_NOTIFY), (xClearCountOnExit), (xTicksToWait))
#define ulTaskNotifyTakeIndexed(uxIndexToWaitOn, xClearCountOnExit, xTicksToWait) \
	ulTaskGenericNotifyTake((uxIndexToWaitOn), (xClearCountOnExit), (xTicksToWait))
#define xTaskNotifyStateClear(xTask) \
	xTaskGenericNotifyStateClear((xTask), (tskDEFAULT_INDEX_TO_NOTIFY))
#define xTaskNotifyStateClearIndexed(xTask, uxIndexToClear) \
	xTaskGenericNotifyStateClear((xTask), (uxIndexToClear))
#define ulTaskNotifyValueClear(xTask, ulBitsToClear) \
	ulTaskGenericNotifyValueClear((xTask), (tskDEFAULT_INDEX_TO_NOTIFY), (ulBitsToClear))
#define ulTaskNotifyValueClearIndexed(xTask, uxIndexToClear, ulBitsToClear) \
	ulTaskGenericNotifyValueClear((xTask), (uxIndexToClear), (ulBitsToClear))

BaseType_t xTaskAbortDelay(TaskHandle_t xTask);
BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume);
BaseType_t xTaskCatchUpTicks(TickType_t xTicksToCatchUp);
TaskHandle_t xTaskGetIdleTaskHandle(void);
TaskHandle_t xTaskGetHandle(const char *pcNameToQuery);
UBaseType_t uxTaskPriorityGetFromISR(const TaskHandle_t xTask);

/* ---- hooks the application provides (as on FreeRTOS) ---- */
#if configUSE_IDLE_HOOK
void vApplicationIdleHook(void);
#endif
#if configUSE_TICK_HOOK
void vApplicationTickHook(void);
#endif
#if configCHECK_FOR_STACK_OVERFLOW
void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName);
#endif
#if configSUPPORT_STATIC_ALLOCATION
void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer,
				   StackType_t **ppxIdleTaskStackBuffer,
				   configSTACK_DEPTH_TYPE *puxIdleTaskStackSize);
#if configUSE_TIMERS
void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer,
				    StackType_t **ppxTimerTaskStackBuffer,
				    configSTACK_DEPTH_TYPE *puxTimerTaskStackSize);
#endif
#endif
#if configUSE_MALLOC_FAILED_HOOK
void vApplicationMallocFailedHook(void);
#endif

#endif
