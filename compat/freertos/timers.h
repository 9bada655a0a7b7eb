/*
 * FreeRTOS software timers on Partita (docs/compat.md, "Software timers"): the timer service
 * task of FreeRTOS, a task of the world at configTIMER_TASK_PRIORITY fed by a command queue of
 * configTIMER_QUEUE_LENGTH, created by vTaskStartScheduler. It waits on that queue until the
 * next expiry (a tick boundary), so no tick runs while no timer is active.
 */
#ifndef INC_TIMERS_H
#define INC_TIMERS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include timers.h"
#endif
#include "task.h"

#if !configUSE_TIMERS
#error "timers.h needs configUSE_TIMERS 1 in FreeRTOSConfig.h (as FreeRTOS)"
#endif

struct tmrTimerControl;
typedef struct tmrTimerControl *TimerHandle_t;
typedef void (*TimerCallbackFunction_t)(TimerHandle_t xTimer);
typedef void (*PendedFunction_t)(void *arg1, uint32_t arg2);

/* FreeRTOS's command ids (the generic command functions take them) */
#define tmrCOMMAND_EXECUTE_CALLBACK_FROM_ISR ((BaseType_t)-2)
#define tmrCOMMAND_EXECUTE_CALLBACK ((BaseType_t)-1)
#define tmrCOMMAND_START_DONT_TRACE ((BaseType_t)0)
#define tmrCOMMAND_START ((BaseType_t)1)
#define tmrCOMMAND_RESET ((BaseType_t)2)
#define tmrCOMMAND_STOP ((BaseType_t)3)
#define tmrCOMMAND_CHANGE_PERIOD ((BaseType_t)4)
#define tmrCOMMAND_DELETE ((BaseType_t)5)
#define tmrFIRST_FROM_ISR_COMMAND ((BaseType_t)6)
#define tmrCOMMAND_START_FROM_ISR ((BaseType_t)6)
#define tmrCOMMAND_RESET_FROM_ISR ((BaseType_t)7)
#define tmrCOMMAND_STOP_FROM_ISR ((BaseType_t)8)
#define tmrCOMMAND_CHANGE_PERIOD_FROM_ISR ((BaseType_t)9)

#if configSUPPORT_DYNAMIC_ALLOCATION
TimerHandle_t xTimerCreate(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
			   const BaseType_t xAutoReload, void *const pvTimerID,
			   TimerCallbackFunction_t pxCallbackFunction);
#endif
#if configSUPPORT_STATIC_ALLOCATION
typedef struct xSTATIC_TIMER {
	uint64_t pvDummy[12];
} StaticTimer_t;
TimerHandle_t xTimerCreateStatic(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
				 const BaseType_t xAutoReload, void *const pvTimerID,
				 TimerCallbackFunction_t pxCallbackFunction,
				 StaticTimer_t *pxTimerBuffer);
#endif

BaseType_t xTimerGenericCommandFromTask(TimerHandle_t xTimer, const BaseType_t xCommandID,
					const TickType_t xOptionalValue,
					BaseType_t *const pxHigherPriorityTaskWoken,
					const TickType_t xTicksToWait);
BaseType_t xTimerGenericCommandFromISR(TimerHandle_t xTimer, const BaseType_t xCommandID,
				       const TickType_t xOptionalValue,
				       BaseType_t *const pxHigherPriorityTaskWoken,
				       const TickType_t xTicksToWait);
#define xTimerGenericCommand(xTimer, xCommandID, xOptionalValue, pxHigherPriorityTaskWoken, \
			     xTicksToWait) \
	((xCommandID) < tmrFIRST_FROM_ISR_COMMAND \
		 ? xTimerGenericCommandFromTask((xTimer), (xCommandID), (xOptionalValue), \
						(pxHigherPriorityTaskWoken), (xTicksToWait)) \
		 : xTimerGenericCommandFromISR((xTimer), (xCommandID), (xOptionalValue), \
					       (pxHigherPriorityTaskWoken), (xTicksToWait)))

#define xTimerStart(xTimer, xTicksToWait) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_START, (xTaskGetTickCount()), NULL, (xTicksToWait))
#define xTimerStop(xTimer, xTicksToWait) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_STOP, 0U, NULL, (xTicksToWait))
#define xTimerChangePeriod(xTimer, xNewPeriod, xTicksToWait) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_CHANGE_PERIOD, (xNewPeriod), NULL, (xTicksToWait))
#define xTimerDelete(xTimer, xTicksToWait) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_DELETE, 0U, NULL, (xTicksToWait))
#define xTimerReset(xTimer, xTicksToWait) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_RESET, (xTaskGetTickCount()), NULL, (xTicksToWait))
#define xTimerStartFromISR(xTimer, pxHigherPriorityTaskWoken) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_START_FROM_ISR, (xTaskGetTickCountFromISR()), \
			     (pxHigherPriorityTaskWoken), 0U)
#define xTimerStopFromISR(xTimer, pxHigherPriorityTaskWoken) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_STOP_FROM_ISR, 0, (pxHigherPriorityTaskWoken), 0U)
#define xTimerChangePeriodFromISR(xTimer, xNewPeriod, pxHigherPriorityTaskWoken) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_CHANGE_PERIOD_FROM_ISR, (xNewPeriod), \
			     (pxHigherPriorityTaskWoken), 0U)
#define xTimerResetFromISR(xTimer, pxHigherPriorityTaskWoken) \
	xTimerGenericCommand((xTimer), tmrCOMMAND_RESET_FROM_ISR, (xTaskGetTickCountFromISR()), \
			     (pxHigherPriorityTaskWoken), 0U)

void *pvTimerGetTimerID(const TimerHandle_t xTimer);
void vTimerSetTimerID(TimerHandle_t xTimer, void *pvNewID);
BaseType_t xTimerIsTimerActive(TimerHandle_t xTimer);
TaskHandle_t xTimerGetTimerDaemonTaskHandle(void);
const char *pcTimerGetName(TimerHandle_t xTimer);
void vTimerSetReloadMode(TimerHandle_t xTimer, const BaseType_t xAutoReload);
BaseType_t xTimerGetReloadMode(TimerHandle_t xTimer);
UBaseType_t uxTimerGetReloadMode(TimerHandle_t xTimer);
TickType_t xTimerGetPeriod(TimerHandle_t xTimer);
TickType_t xTimerGetExpiryTime(TimerHandle_t xTimer);
BaseType_t xTimerPendFunctionCall(PendedFunction_t xFunctionToPend, void *pvParameter1,
				  uint32_t ulParameter2, TickType_t xTicksToWait);
BaseType_t xTimerPendFunctionCallFromISR(PendedFunction_t xFunctionToPend, void *pvParameter1,
					 uint32_t ulParameter2,
					 BaseType_t *pxHigherPriorityTaskWoken);
#if configUSE_DAEMON_TASK_STARTUP_HOOK
void vApplicationDaemonTaskStartupHook(void);
#endif

#endif
