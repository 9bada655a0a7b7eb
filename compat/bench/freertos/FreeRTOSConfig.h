/* FreeRTOSConfig.h of the FreeRTOS-API benchmark (compat/bench/freertos, `make bench`). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 0 /* no round-robin slice inside a measurement */
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 512
#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configPARTITA_MAX_TASKS 16
#endif
