/*
 * FreeRTOS V11 API on Partita (docs/compat.md): types, constants, the configuration an
 * application gives in its FreeRTOSConfig.h, and the port macros. Every call translates onto
 * Partita's native API (<partita/api.h>, <partita/sync.h>): one FreeRTOS task is one Partita
 * thread on the core of the world's startup thread, scheduled by that core's fixed-priority
 * instance; there is no second scheduler and no tick interrupt (tick time is computed from the
 * virtual clock).
 *
 * An option that cannot mean anything on Partita is a compile-time #error saying why; an
 * option for a part of the API not yet written is an #error naming docs/compat.md.
 */
#ifndef INC_FREERTOS_H
#define INC_FREERTOS_H

#include <stddef.h>
#include <stdint.h>

#include "FreeRTOSConfig.h"

/* ---- required configuration (as FreeRTOS requires it) ---- */
#ifndef configMAX_PRIORITIES
#error "FreeRTOSConfig.h must define configMAX_PRIORITIES"
#endif
#ifndef configTICK_RATE_HZ
#error "FreeRTOSConfig.h must define configTICK_RATE_HZ"
#endif
#ifndef configMINIMAL_STACK_SIZE
#error "FreeRTOSConfig.h must define configMINIMAL_STACK_SIZE"
#endif
#ifndef configUSE_PREEMPTION
#error "FreeRTOSConfig.h must define configUSE_PREEMPTION"
#endif

/* ---- defaults (FreeRTOS's own, where Partita can honour them) ---- */
#ifndef configUSE_TIME_SLICING
#define configUSE_TIME_SLICING 1
#endif
#ifndef configUSE_IDLE_HOOK
#define configUSE_IDLE_HOOK 0
#endif
#ifndef configUSE_TICK_HOOK
#define configUSE_TICK_HOOK 0
#endif
#ifndef configUSE_MALLOC_FAILED_HOOK
#define configUSE_MALLOC_FAILED_HOOK 0
#endif
#ifndef configCHECK_FOR_STACK_OVERFLOW
#define configCHECK_FOR_STACK_OVERFLOW 0
#endif
#ifndef configSUPPORT_STATIC_ALLOCATION
#define configSUPPORT_STATIC_ALLOCATION 0
#endif
#ifndef configSUPPORT_DYNAMIC_ALLOCATION
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#endif
#ifndef configUSE_MUTEXES
#define configUSE_MUTEXES 0
#endif
#ifndef configUSE_RECURSIVE_MUTEXES
#define configUSE_RECURSIVE_MUTEXES 0
#endif
#ifndef configUSE_COUNTING_SEMAPHORES
#define configUSE_COUNTING_SEMAPHORES 0
#endif
#ifndef configUSE_TIMERS
#define configUSE_TIMERS 0
#endif
#ifndef configUSE_QUEUE_SETS
#define configUSE_QUEUE_SETS 0
#endif
#ifndef configUSE_TASK_NOTIFICATIONS
#define configUSE_TASK_NOTIFICATIONS 1
#endif
#ifndef configTASK_NOTIFICATION_ARRAY_ENTRIES
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 1
#endif
#ifndef configTOTAL_HEAP_SIZE
#define configTOTAL_HEAP_SIZE ((size_t)(64 * 1024)) /* pvPortMalloc's budget (docs/compat.md) */
#endif
#ifndef configMESSAGE_BUFFER_LENGTH_TYPE
#define configMESSAGE_BUFFER_LENGTH_TYPE size_t
#endif
#ifndef configUSE_DAEMON_TASK_STARTUP_HOOK
#define configUSE_DAEMON_TASK_STARTUP_HOOK 0
#endif
#ifndef INCLUDE_xTaskAbortDelay
#define INCLUDE_xTaskAbortDelay 1
#endif
#ifndef configMAX_TASK_NAME_LEN
#define configMAX_TASK_NAME_LEN 16
#endif
#ifndef configNUMBER_OF_CORES
#define configNUMBER_OF_CORES 1
#endif
#ifndef configUSE_16_BIT_TICKS
#define configUSE_16_BIT_TICKS 0
#endif
#ifndef configTICK_TYPE_WIDTH_IN_BITS
#if configUSE_16_BIT_TICKS
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_16_BITS
#else
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#endif
#endif
/* Partita: how many tasks and queues (incl. semaphores) the layer's static pools hold for the
 * dynamic xTaskCreate / xQueueCreate (the static variants use the caller's buffers). */
#ifndef configPARTITA_MAX_TASKS
#define configPARTITA_MAX_TASKS 32
#endif
#ifndef configPARTITA_MAX_QUEUES
#define configPARTITA_MAX_QUEUES 32
#endif
/* Partita: the native priority of the world's ceiling (critical sections, scheduler
 * suspension, main() before vTaskStartScheduler); FreeRTOS priority p runs at native
 * priority ceiling + configMAX_PRIORITIES - p. A nonzero `arg` of the startup thread in the
 * system configuration overrides it. */
#ifndef configPARTITA_PRIORITY_CEILING
#define configPARTITA_PRIORITY_CEILING 32
#endif

#define TICK_TYPE_WIDTH_16_BITS 0
#define TICK_TYPE_WIDTH_32_BITS 1
#define TICK_TYPE_WIDTH_64_BITS 2

/* ---- options Partita cannot honour ---- */
#if configUSE_PREEMPTION == 0
#error "configUSE_PREEMPTION 0: Partita's fixed-priority scheduler is always preemptive; cooperative scheduling cannot be expressed (docs/compat.md)"
#endif
#if configNUMBER_OF_CORES != 1
#error "configNUMBER_OF_CORES: a FreeRTOS world on Partita runs on one core; run several worlds on several cores instead (docs/compat.md)"
#endif
#if defined(configUSE_CORE_AFFINITY) && configUSE_CORE_AFFINITY
#error "configUSE_CORE_AFFINITY: a FreeRTOS world on Partita runs on one core (docs/compat.md)"
#endif
#if (defined(configUSE_MPU_WRAPPERS) && configUSE_MPU_WRAPPERS) || (defined(configENABLE_MPU) && configENABLE_MPU)
#error "FreeRTOS-MPU: isolation on Partita is the partition (user: true in the system configuration), not MPU wrappers (docs/compat.md)"
#endif
#if defined(configENABLE_TRUSTZONE) && configENABLE_TRUSTZONE
#error "configENABLE_TRUSTZONE: Partita runs on RISC-V, which has no TrustZone"
#endif
#if configCHECK_FOR_STACK_OVERFLOW < 0 || configCHECK_FOR_STACK_OVERFLOW > 2
#error "configCHECK_FOR_STACK_OVERFLOW: 0, 1 or 2 (docs/compat.md)"
#endif
#if (1000000000u % (configTICK_RATE_HZ)) != 0
#error "configTICK_RATE_HZ must divide 10^9: Partita's clock counts nanoseconds and a tick that is not a whole number of them would drift"
#endif
#if (configMAX_PRIORITIES) < 1 || (configMAX_PRIORITIES) + (configPARTITA_PRIORITY_CEILING) + 2 > 255
#error "configMAX_PRIORITIES: FreeRTOS priorities 0 .. configMAX_PRIORITIES-1 map onto native levels configPARTITA_PRIORITY_CEILING+3 .. 255 (the ceiling, the interrupt level and the scheduler-suspension level above them)"
#endif
#if configSUPPORT_STATIC_ALLOCATION == 0 && configSUPPORT_DYNAMIC_ALLOCATION == 0
#error "configSUPPORT_STATIC_ALLOCATION and configSUPPORT_DYNAMIC_ALLOCATION are both 0"
#endif
/* ---- parts of the API not written yet (docs/compat.md, "Not yet implemented") ---- */
#if configUSE_TIMERS
#ifndef configTIMER_TASK_PRIORITY
#error "configUSE_TIMERS needs configTIMER_TASK_PRIORITY (as FreeRTOS)"
#endif
#ifndef configTIMER_QUEUE_LENGTH
#error "configUSE_TIMERS needs configTIMER_QUEUE_LENGTH (as FreeRTOS)"
#endif
#ifndef configTIMER_TASK_STACK_DEPTH
#error "configUSE_TIMERS needs configTIMER_TASK_STACK_DEPTH (as FreeRTOS)"
#endif
#endif
#ifndef configPARTITA_MAX_TIMERS
#define configPARTITA_MAX_TIMERS 16 /* the pool of xTimerCreate */
#endif

#if defined(configUSE_CO_ROUTINES) && configUSE_CO_ROUTINES
#error "configUSE_CO_ROUTINES: co-routines (croutine.h) are not implemented on Partita (docs/compat.md)"
#endif

/* ---- portable types (RV64: the register width, as FreeRTOS's RISC-V port) ---- */
typedef int64_t BaseType_t;
typedef uint64_t UBaseType_t;
typedef uintptr_t StackType_t;
#if configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_16_BITS
typedef uint16_t TickType_t;
#define portMAX_DELAY ((TickType_t)0xffffu)
#elif configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_32_BITS
typedef uint32_t TickType_t;
#define portMAX_DELAY ((TickType_t)0xffffffffu)
#elif configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_64_BITS
typedef uint64_t TickType_t;
#define portMAX_DELAY ((TickType_t)0xffffffffffffffffull)
#else
#error "configTICK_TYPE_WIDTH_IN_BITS: one of TICK_TYPE_WIDTH_16_BITS, _32_BITS, _64_BITS"
#endif
#define portSTACK_TYPE StackType_t
#define portBASE_TYPE BaseType_t
#define portTICK_TYPE_IS_ATOMIC 1
#define portTICK_PERIOD_MS ((TickType_t)1000 / (configTICK_RATE_HZ))
#define portBYTE_ALIGNMENT 16
#define portSTACK_GROWTH (-1)
#define portPOINTER_SIZE_TYPE uintptr_t
#define portNOP() __asm__ volatile("nop")
#define portCHAR char
#define portFLOAT float
#define portDOUBLE double
#define portLONG long
#define portSHORT short
/* Floating point: Partita builds for rv64imac (no FPU registers to save): compiled code uses
 * software floating point, so every task may use it and nothing needs declaring. */
#define portTASK_USES_FLOATING_POINT()
/* No TrustZone, hence no secure context (as FreeRTOS's non-secure ports) */
#define portALLOCATE_SECURE_CONTEXT(ulSecureStackSize) ((void)(ulSecureStackSize))
#ifndef configMINIMAL_SECURE_STACK_SIZE
#define configMINIMAL_SECURE_STACK_SIZE 0
#endif
#define portTASK_FUNCTION_PROTO(vFunction, pvParameters) void vFunction(void *pvParameters)
#define portTASK_FUNCTION(vFunction, pvParameters) void vFunction(void *pvParameters)
#ifndef mtCOVERAGE_TEST_MARKER
#define mtCOVERAGE_TEST_MARKER()
#endif
#ifndef mtCOVERAGE_TEST_DELAY
#define mtCOVERAGE_TEST_DELAY()
#endif
#ifndef configMIN
#define configMIN(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef configMAX
#define configMAX(a, b) (((a) > (b)) ? (a) : (b))
#endif

/* ---- projdefs.h ---- */
typedef void (*TaskFunction_t)(void *);
#define pdFALSE ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdFALSE_SIGNED ((BaseType_t)0)
#define pdTRUE_SIGNED ((BaseType_t)1)
#define pdFALSE_UNSIGNED ((UBaseType_t)0)
#define pdTRUE_UNSIGNED ((UBaseType_t)1)
#define pdPASS (pdTRUE)
#define pdFAIL (pdFALSE)
#define errQUEUE_EMPTY ((BaseType_t)0)
#define errQUEUE_FULL ((BaseType_t)0)
#define errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY (-1)
#define errQUEUE_BLOCKED (-4)
#define errQUEUE_YIELD (-5)
#ifndef pdMS_TO_TICKS
#define pdMS_TO_TICKS(xTimeInMs) \
	((TickType_t)(((uint64_t)(xTimeInMs) * (uint64_t)(configTICK_RATE_HZ)) / (uint64_t)1000U))
#endif
#ifndef pdTICKS_TO_MS
#define pdTICKS_TO_MS(xTicks) \
	((TickType_t)(((uint64_t)(xTicks) * (uint64_t)1000U) / (uint64_t)(configTICK_RATE_HZ)))
#endif

/* ---- assertions: the hook reports thread, file and line, then stops the calling thread ---- */
void vPartitaAssertFailed(const char *file, int line);
#ifndef configASSERT
#define configASSERT(x)                                   \
	do {                                              \
		if (!(x))                                 \
			vPartitaAssertFailed(__FILE__, __LINE__); \
	} while (0)
#define configASSERT_DEFINED 1
#endif

/* ---- critical sections and yield (port.c): a critical section raises the calling task to
 * the world's ceiling, above every task of the world, so no other task of the world runs
 * until it ends; native threads of higher priority on the same core (other partitions) still
 * may, which cannot touch the world's data. Nesting is counted per task. ---- */
void vPortEnterCritical(void);
void vPortExitCritical(void);
void vPortYield(void);
#define portENTER_CRITICAL() vPortEnterCritical()
#define portEXIT_CRITICAL() vPortExitCritical()
#define portDISABLE_INTERRUPTS() vPortEnterCritical()
#define portENABLE_INTERRUPTS() vPortExitCritical()
#define portYIELD() vPortYield()
#define portYIELD_WITHIN_API() vPortYield()
UBaseType_t uxPortSetInterruptMaskFromISR(void);
void vPortClearInterruptMaskFromISR(UBaseType_t x);
#define portSET_INTERRUPT_MASK_FROM_ISR() uxPortSetInterruptMaskFromISR()
#define portCLEAR_INTERRUPT_MASK_FROM_ISR(x) vPortClearInterruptMaskFromISR(x)
#define portEND_SWITCHING_ISR(x) ((void)(x))
/* An interrupt here is the world's interrupt context, a thread above every task of the world
 * (docs/compat.md, "Interrupts"): a task its calls make ready runs when it returns to its
 * wait, so there is nothing left for a yield from an ISR to do. */
#define portYIELD_FROM_ISR(x) ((void)(x))

/* ---- static allocation buffers: opaque, sized for the layer's own objects ---- */
typedef struct xSTATIC_TCB {
	uint64_t pvDummy[20 + (configTASK_NOTIFICATION_ARRAY_ENTRIES)];
} StaticTask_t;
typedef struct xSTATIC_QUEUE {
	uint64_t pvDummy[7];
} StaticQueue_t;
typedef StaticQueue_t StaticSemaphore_t;

/* ---- the heap: FreeRTOS's pvPortMalloc over the partition's colored heap ---- */
void *pvPortMalloc(size_t xWantedSize);
void vPortFree(void *pv);
size_t xPortGetFreeHeapSize(void);
size_t xPortGetMinimumEverFreeHeapSize(void);
void vPortInitialiseBlocks(void);

#endif
