/*
 * FreeRTOS queues on Partita message queues (docs/compat.md, "Queues and semaphores"). A
 * handle is the layer's queue record: the kind (queue, semaphore, mutex) and the native id.
 */
#ifndef QUEUE_H
#define QUEUE_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include queue.h"
#endif

struct QueueDefinition;
typedef struct QueueDefinition *QueueHandle_t;

#define queueSEND_TO_BACK ((BaseType_t)0)
#define queueSEND_TO_FRONT ((BaseType_t)1)
#define queueOVERWRITE ((BaseType_t)2)

#define queueQUEUE_TYPE_BASE ((uint8_t)0U)
#define queueQUEUE_TYPE_MUTEX ((uint8_t)1U)
#define queueQUEUE_TYPE_COUNTING_SEMAPHORE ((uint8_t)2U)
#define queueQUEUE_TYPE_BINARY_SEMAPHORE ((uint8_t)3U)
#define queueQUEUE_TYPE_RECURSIVE_MUTEX ((uint8_t)4U)
#define queueQUEUE_TYPE_SET ((uint8_t)0U) /* a set is a queue of member handles */

typedef struct QueueDefinition *QueueSetHandle_t;
typedef struct QueueDefinition *QueueSetMemberHandle_t;
#if configUSE_QUEUE_SETS
QueueSetHandle_t xQueueCreateSet(const UBaseType_t uxEventQueueLength);
BaseType_t xQueueAddToSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet);
BaseType_t xQueueRemoveFromSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet);
QueueSetMemberHandle_t xQueueSelectFromSet(QueueSetHandle_t xQueueSet, const TickType_t xTicksToWait);
QueueSetMemberHandle_t xQueueSelectFromSetFromISR(QueueSetHandle_t xQueueSet);
#endif

QueueHandle_t xQueueGenericCreate(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize,
				  const uint8_t ucQueueType);
QueueHandle_t xQueueGenericCreateStatic(const UBaseType_t uxQueueLength,
					const UBaseType_t uxItemSize, uint8_t *pucQueueStorage,
					StaticQueue_t *pxStaticQueue, const uint8_t ucQueueType);
BaseType_t xQueueGenericSend(QueueHandle_t xQueue, const void *const pvItemToQueue,
			     TickType_t xTicksToWait, const BaseType_t xCopyPosition);
BaseType_t xQueueReceive(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait);
BaseType_t xQueuePeek(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait);
UBaseType_t uxQueueMessagesWaiting(const QueueHandle_t xQueue);
UBaseType_t uxQueueSpacesAvailable(const QueueHandle_t xQueue);
void vQueueDelete(QueueHandle_t xQueue);

BaseType_t xQueueGenericSendFromISR(QueueHandle_t xQueue, const void *const pvItemToQueue,
				    BaseType_t *const pxHigherPriorityTaskWoken,
				    const BaseType_t xCopyPosition);
BaseType_t xQueueGiveFromISR(QueueHandle_t xQueue, BaseType_t *const pxHigherPriorityTaskWoken);
BaseType_t xQueueReceiveFromISR(QueueHandle_t xQueue, void *const pvBuffer,
				BaseType_t *const pxHigherPriorityTaskWoken);
BaseType_t xQueuePeekFromISR(QueueHandle_t xQueue, void *const pvBuffer);
UBaseType_t uxQueueMessagesWaitingFromISR(const QueueHandle_t xQueue);
BaseType_t xQueueIsQueueEmptyFromISR(const QueueHandle_t xQueue);
BaseType_t xQueueIsQueueFullFromISR(const QueueHandle_t xQueue);
BaseType_t xQueueGenericReset(QueueHandle_t xQueue, BaseType_t xNewQueue);
#define xQueueReset(xQueue) xQueueGenericReset((xQueue), pdFALSE)

#define xQueueSendFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
	xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), \
				 queueSEND_TO_BACK)
#define xQueueSendToBackFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
	xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), \
				 queueSEND_TO_BACK)
#define xQueueSendToFrontFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
	xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), \
				 queueSEND_TO_FRONT)
#define xQueueOverwriteFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
	xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), \
				 queueOVERWRITE)

#ifndef configQUEUE_REGISTRY_SIZE
#define configQUEUE_REGISTRY_SIZE 0
#endif
#if configQUEUE_REGISTRY_SIZE > 0
void vQueueAddToRegistry(QueueHandle_t xQueue, const char *pcQueueName);
void vQueueUnregisterQueue(QueueHandle_t xQueue);
const char *pcQueueGetName(QueueHandle_t xQueue);
#else
#define vQueueAddToRegistry(xQueue, pcQueueName) ((void)(xQueue), (void)(pcQueueName))
#define vQueueUnregisterQueue(xQueue) ((void)(xQueue))
#endif

#if configSUPPORT_DYNAMIC_ALLOCATION
#define xQueueCreate(uxQueueLength, uxItemSize) \
	xQueueGenericCreate((uxQueueLength), (uxItemSize), queueQUEUE_TYPE_BASE)
#endif
#if configSUPPORT_STATIC_ALLOCATION
#define xQueueCreateStatic(uxQueueLength, uxItemSize, pucQueueStorage, pxQueueBuffer)       \
	xQueueGenericCreateStatic((uxQueueLength), (uxItemSize), (pucQueueStorage), \
				  (pxQueueBuffer), queueQUEUE_TYPE_BASE)
#endif
#define xQueueSend(xQueue, pvItemToQueue, xTicksToWait) \
	xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_BACK)
#define xQueueSendToBack(xQueue, pvItemToQueue, xTicksToWait) \
	xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_BACK)
#define xQueueSendToFront(xQueue, pvItemToQueue, xTicksToWait) \
	xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_FRONT)
#define xQueueOverwrite(xQueue, pvItemToQueue) \
	xQueueGenericSend((xQueue), (pvItemToQueue), 0, queueOVERWRITE)

#endif
