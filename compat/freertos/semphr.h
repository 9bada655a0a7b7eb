/*
 * FreeRTOS semaphores and mutexes on Partita's (docs/compat.md): binary and counting
 * semaphores are native semaphores, mutexes and recursive mutexes native mutexes (priority
 * inheritance, transitive).
 */
#ifndef SEMAPHORE_H
#define SEMAPHORE_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include semphr.h"
#endif
#include "queue.h"

typedef QueueHandle_t SemaphoreHandle_t;
struct tskTaskControlBlock;

#define semBINARY_SEMAPHORE_QUEUE_LENGTH ((uint8_t)1U)
#define semSEMAPHORE_QUEUE_ITEM_LENGTH ((uint8_t)0U)
#define semGIVE_BLOCK_TIME ((TickType_t)0U)

#if configSUPPORT_DYNAMIC_ALLOCATION
/* deprecated by FreeRTOS, kept by it: created given */
#define vSemaphoreCreateBinary(xSemaphore)                                                  \
	do {                                                                                \
		(xSemaphore) = xQueueGenericCreate(1, semSEMAPHORE_QUEUE_ITEM_LENGTH,       \
						   queueQUEUE_TYPE_BINARY_SEMAPHORE);      \
		if ((xSemaphore) != NULL)                                                   \
			(void)xSemaphoreGive((xSemaphore));                                 \
	} while (0)
#define xSemaphoreCreateBinary() \
	xQueueGenericCreate(1, semSEMAPHORE_QUEUE_ITEM_LENGTH, queueQUEUE_TYPE_BINARY_SEMAPHORE)
#define xSemaphoreCreateCounting(uxMaxCount, uxInitialCount) \
	xQueueCreateCountingSemaphore((uxMaxCount), (uxInitialCount))
#define xSemaphoreCreateMutex() xQueueCreateMutex(queueQUEUE_TYPE_MUTEX)
#define xSemaphoreCreateRecursiveMutex() xQueueCreateMutex(queueQUEUE_TYPE_RECURSIVE_MUTEX)
QueueHandle_t xQueueCreateCountingSemaphore(const UBaseType_t uxMaxCount,
					    const UBaseType_t uxInitialCount);
QueueHandle_t xQueueCreateMutex(const uint8_t ucQueueType);
#endif
#if configSUPPORT_STATIC_ALLOCATION
#define xSemaphoreCreateBinaryStatic(pxSemaphoreBuffer)                                  \
	xQueueGenericCreateStatic(1, semSEMAPHORE_QUEUE_ITEM_LENGTH, NULL, (pxSemaphoreBuffer), \
				  queueQUEUE_TYPE_BINARY_SEMAPHORE)
#define xSemaphoreCreateCountingStatic(uxMaxCount, uxInitialCount, pxSemaphoreBuffer) \
	xQueueCreateCountingSemaphoreStatic((uxMaxCount), (uxInitialCount), (pxSemaphoreBuffer))
#define xSemaphoreCreateMutexStatic(pxMutexBuffer) \
	xQueueCreateMutexStatic(queueQUEUE_TYPE_MUTEX, (pxMutexBuffer))
#define xSemaphoreCreateRecursiveMutexStatic(pxStaticSemaphore) \
	xQueueCreateMutexStatic(queueQUEUE_TYPE_RECURSIVE_MUTEX, (pxStaticSemaphore))
QueueHandle_t xQueueCreateCountingSemaphoreStatic(const UBaseType_t uxMaxCount,
						  const UBaseType_t uxInitialCount,
						  StaticQueue_t *pxStaticQueue);
QueueHandle_t xQueueCreateMutexStatic(const uint8_t ucQueueType, StaticQueue_t *pxStaticQueue);
#endif

BaseType_t xQueueSemaphoreTake(QueueHandle_t xQueue, TickType_t xTicksToWait);
BaseType_t xQueueSemaphoreGive(QueueHandle_t xQueue);
BaseType_t xQueueTakeMutexRecursive(QueueHandle_t xMutex, TickType_t xTicksToWait);
BaseType_t xQueueGiveMutexRecursive(QueueHandle_t xMutex);
struct tskTaskControlBlock *xQueueGetMutexHolder(QueueHandle_t xSemaphore);
UBaseType_t uxQueueSemaphoreCount(QueueHandle_t xSemaphore);

#define xSemaphoreTake(xSemaphore, xBlockTime) xQueueSemaphoreTake((xSemaphore), (xBlockTime))
#define xSemaphoreGive(xSemaphore) xQueueSemaphoreGive((xSemaphore))
#define xSemaphoreTakeRecursive(xMutex, xBlockTime) xQueueTakeMutexRecursive((xMutex), (xBlockTime))
#define xSemaphoreGiveRecursive(xMutex) xQueueGiveMutexRecursive((xMutex))
#define xSemaphoreGetMutexHolder(xSemaphore) xQueueGetMutexHolder((xSemaphore))
#define uxSemaphoreGetCount(xSemaphore) uxQueueSemaphoreCount((xSemaphore))
#define uxSemaphoreGetCountFromISR(xSemaphore) uxQueueMessagesWaitingFromISR((xSemaphore))
#define xSemaphoreGiveFromISR(xSemaphore, pxHigherPriorityTaskWoken) \
	xQueueGiveFromISR((QueueHandle_t)(xSemaphore), (pxHigherPriorityTaskWoken))
#define xSemaphoreTakeFromISR(xSemaphore, pxHigherPriorityTaskWoken) \
	xQueueReceiveFromISR((QueueHandle_t)(xSemaphore), NULL, (pxHigherPriorityTaskWoken))
struct tskTaskControlBlock *xQueueGetMutexHolderFromISR(QueueHandle_t xSemaphore);
#define xSemaphoreGetMutexHolderFromISR(xSemaphore) xQueueGetMutexHolderFromISR((xSemaphore))
#define vSemaphoreDelete(xSemaphore) vQueueDelete((QueueHandle_t)(xSemaphore))

#endif
