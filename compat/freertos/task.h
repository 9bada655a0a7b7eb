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

#if configUSE_IDLE_HOOK
void vApplicationIdleHook(void);
#endif
#if configUSE_MALLOC_FAILED_HOOK
void vApplicationMallocFailedHook(void);
#endif

#endif
