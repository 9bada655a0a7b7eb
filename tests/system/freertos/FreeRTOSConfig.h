/* The FreeRTOS configuration of the system tests (tests/system/freertos): an ordinary
 * application's FreeRTOSConfig.h, plus the Partita pool sizes. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configTICK_RATE_HZ 1000 /* 1 ms ticks; the fp scheduler's rr_slice is one tick */
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 512
#define configMAX_TASK_NAME_LEN 16
#define configUSE_IDLE_HOOK 1
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 2
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 3
#define configTOTAL_HEAP_SIZE (32 * 1024)
#define configQUEUE_REGISTRY_SIZE 8
#define configUSE_TIMERS 1
#define configUSE_QUEUE_SETS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 8
#define configTIMER_TASK_STACK_DEPTH (configMINIMAL_STACK_SIZE * 2)
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configSUPPORT_STATIC_ALLOCATION 1
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configUSE_16_BIT_TICKS 0
#define configPARTITA_MAX_TASKS 48
#define configPARTITA_MAX_QUEUES 32

#endif
