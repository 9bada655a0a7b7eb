/*
 * FreeRTOS queues, semaphores and mutexes on Partita's native objects (docs/compat.md).
 *   queue               -> pt_mq (send to back/front, receive, peek, overwrite, count: native)
 *   binary / counting   -> pt_sem (max 1 / uxMaxCount)
 *   mutex, recursive    -> pt_mutex (priority inheritance; the kernel counts recursion)
 * The layer adds only what FreeRTOS exposes and the kernel does not keep: the holder of a
 * mutex (xSemaphoreGetMutexHolder, and the non-recursive mutex: its holder taking it again
 * blocks, as in FreeRTOS, instead of recursing). Holder and depth are written only by the
 * holder itself, so they need no lock.
 */
#include <partita/sync.h>
#include "fr_internal.h"
#include "queue.h"
#include "semphr.h"

#define FR_QUEUE_MAGIC 0x46525155u /* "FRQU": a live queue record */

enum fr_qkind { FR_Q_QUEUE, FR_Q_SEM, FR_Q_MUTEX, FR_Q_RMUTEX };

struct QueueDefinition {
	uint32_t magic;
	uint8_t kind;       /* enum fr_qkind */
	uint8_t from_pool;
	int32_t id;         /* native object */
	uint32_t length, item_size;
	TaskHandle_t holder; /* mutexes: the task holding it, or NULL */
	uint32_t depth;      /* recursive mutex: takes by the holder not yet given back */
	struct QueueDefinition *set; /* the queue set it belongs to, or NULL */
};

_Static_assert(sizeof(struct QueueDefinition) <= sizeof(StaticQueue_t),
	       "StaticQueue_t must hold the layer's queue record");

#if configSUPPORT_DYNAMIC_ALLOCATION
static struct QueueDefinition qpool[configPARTITA_MAX_QUEUES];

static QueueHandle_t pool_take(void)
{
	QueueHandle_t q = 0;
	vPortEnterCritical();
	for (int i = 0; i < (configPARTITA_MAX_QUEUES) && !q; i++)
		if (!qpool[i].from_pool)
			q = &qpool[i];
	if (q)
		q->from_pool = 1;
	vPortExitCritical();
	return q;
}
#endif

static bool valid(QueueHandle_t q)
{
	return q && q->magic == FR_QUEUE_MAGIC;
}

/* Create the native object behind record q; false when its pool is exhausted. */
static bool make(QueueHandle_t q, uint8_t type, UBaseType_t len, UBaseType_t item,
		 UBaseType_t initial)
{
	int id;
	q->holder = 0;
	q->depth = 0;
	q->set = 0;
	q->length = (uint32_t)len;
	q->item_size = (uint32_t)item;
	switch (type) {
	case queueQUEUE_TYPE_BASE: /* also queueQUEUE_TYPE_SET */
		q->kind = FR_Q_QUEUE;
		id = pt_mq_create((uint32_t)item, (uint32_t)len);
		break;
	case queueQUEUE_TYPE_BINARY_SEMAPHORE:
	case queueQUEUE_TYPE_COUNTING_SEMAPHORE:
		q->kind = FR_Q_SEM;
		id = pt_sem_create((uint32_t)initial, (uint32_t)len);
		break;
	case queueQUEUE_TYPE_MUTEX:
	case queueQUEUE_TYPE_RECURSIVE_MUTEX:
		q->kind = type == queueQUEUE_TYPE_MUTEX ? FR_Q_MUTEX : FR_Q_RMUTEX;
		id = pt_mutex_create();
		break;
	default:
		id = PT_EINVAL;
	}
	if (id < 0)
		return false;
	q->id = id;
	q->magic = FR_QUEUE_MAGIC;
	return true;
}

static QueueHandle_t failed(QueueHandle_t q)
{
	if (q)
		q->from_pool = 0;
#if configUSE_MALLOC_FAILED_HOOK
	vApplicationMallocFailedHook();
#endif
	return 0;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
static QueueHandle_t create(uint8_t type, UBaseType_t len, UBaseType_t item, UBaseType_t initial)
{
	QueueHandle_t q = pool_take();
	return q && make(q, type, len, item, initial) ? q : failed(q);
}

QueueHandle_t xQueueGenericCreate(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize,
				  const uint8_t ucQueueType)
{
	/* a queue of zero-size items is a semaphore here: use semphr.h for those */
	configASSERT(uxQueueLength > 0 && (uxItemSize > 0 || ucQueueType != queueQUEUE_TYPE_BASE));
	return create(ucQueueType, uxQueueLength, uxItemSize, 0);
}

QueueHandle_t xQueueCreateCountingSemaphore(const UBaseType_t uxMaxCount,
					    const UBaseType_t uxInitialCount)
{
	configASSERT(uxMaxCount > 0 && uxInitialCount <= uxMaxCount);
	return create(queueQUEUE_TYPE_COUNTING_SEMAPHORE, uxMaxCount, 0, uxInitialCount);
}

QueueHandle_t xQueueCreateMutex(const uint8_t ucQueueType)
{
	return create(ucQueueType, 1, 0, 0);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
/* The storage buffer is not used: a native queue's messages live in the kernel's queue pool
 * (docs/compat.md); the record lives in the caller's StaticQueue_t. */
QueueHandle_t xQueueGenericCreateStatic(const UBaseType_t uxQueueLength,
					const UBaseType_t uxItemSize, uint8_t *pucQueueStorage,
					StaticQueue_t *pxStaticQueue, const uint8_t ucQueueType)
{
	configASSERT(pxStaticQueue && uxQueueLength > 0);
	configASSERT((uxItemSize == 0) == (pucQueueStorage == NULL) || ucQueueType != queueQUEUE_TYPE_BASE);
	QueueHandle_t q = (QueueHandle_t)(void *)pxStaticQueue;
	if (!q)
		return 0;
	q->from_pool = 0;
	return make(q, ucQueueType, uxQueueLength, uxItemSize, 0) ? q : failed(0);
}

QueueHandle_t xQueueCreateCountingSemaphoreStatic(const UBaseType_t uxMaxCount,
						  const UBaseType_t uxInitialCount,
						  StaticQueue_t *pxStaticQueue)
{
	configASSERT(pxStaticQueue && uxMaxCount > 0 && uxInitialCount <= uxMaxCount);
	QueueHandle_t q = (QueueHandle_t)(void *)pxStaticQueue;
	q->from_pool = 0;
	return make(q, queueQUEUE_TYPE_COUNTING_SEMAPHORE, uxMaxCount, 0, uxInitialCount) ? q : failed(0);
}

QueueHandle_t xQueueCreateMutexStatic(const uint8_t ucQueueType, StaticQueue_t *pxStaticQueue)
{
	configASSERT(pxStaticQueue);
	QueueHandle_t q = (QueueHandle_t)(void *)pxStaticQueue;
	q->from_pool = 0;
	return make(q, ucQueueType, 1, 0, 0) ? q : failed(0);
}
#endif

static int send_native(QueueHandle_t q, const void *item, uint64_t timeout, BaseType_t pos)
{
	if (q->kind == FR_Q_SEM)
		return pt_sem_give(q->id) == PT_OK ? PT_OK : PT_EAGAIN;
	switch (pos) {
	case queueOVERWRITE: return pt_mq_overwrite(q->id, item);
	case queueSEND_TO_FRONT: return pt_mq_send_front(q->id, item, timeout);
	default: return pt_mq_send(q->id, item, timeout);
	}
}

#if configUSE_QUEUE_SETS
/* Post member q's handle to its set (critical section held; the set never fills: its length
 * is the sum of its members'). An overwrite that replaced an item posts nothing new. */
static void post_to_set(QueueHandle_t q)
{
	QueueHandle_t set = q->set;
	int r = pt_mq_send(set->id, &q, PT_NO_WAIT);
	configASSERT(r == PT_OK);
}

static BaseType_t set_member_send(QueueHandle_t q, const void *item, uint64_t timeout,
				  BaseType_t pos)
{
	vPortEnterCritical();
	int before = q->kind == FR_Q_QUEUE ? pt_mq_count(q->id) : pt_sem_count(q->id);
	int r = send_native(q, item, PT_NO_WAIT, pos);
	if (r == PT_OK && !(pos == queueOVERWRITE && before > 0))
		post_to_set(q);
	vPortExitCritical();
	if (r != PT_OK && timeout != PT_NO_WAIT) {
		r = send_native(q, item, timeout, pos); /* waits for space outside the section */
		if (r == PT_OK) {
			vPortEnterCritical();
			post_to_set(q);
			vPortExitCritical();
		}
	}
	return r == PT_OK ? pdPASS : errQUEUE_FULL;
}
#else
static BaseType_t set_member_send(QueueHandle_t q, const void *item, uint64_t timeout,
				  BaseType_t pos)
{
	return send_native(q, item, timeout, pos) == PT_OK ? pdPASS : errQUEUE_FULL;
}
#endif

BaseType_t xQueueGenericSend(QueueHandle_t xQueue, const void *const pvItemToQueue,
			     TickType_t xTicksToWait, const BaseType_t xCopyPosition)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && pvItemToQueue);
	if (q->kind != FR_Q_QUEUE) /* xQueueSend on a semaphore handle: a give */
		return xQueueSemaphoreGive(q);
	if (xCopyPosition == queueOVERWRITE)
		configASSERT(q->length == 1); /* as FreeRTOS: overwrite is for length-1 queues */
	uint64_t timeout = fr_timeout_ns(xTicksToWait);
	if (q->set) /* the member's handle follows the item into the set, atomically if it can */
		return set_member_send(q, pvItemToQueue, timeout, xCopyPosition);
	return send_native(q, pvItemToQueue, timeout, xCopyPosition) == PT_OK ? pdPASS : errQUEUE_FULL;
}

BaseType_t xQueueReceive(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind == FR_Q_QUEUE && pvBuffer);
	return pt_mq_recv(q->id, pvBuffer, fr_timeout_ns(xTicksToWait)) == PT_OK ? pdPASS
										 : errQUEUE_EMPTY;
}

BaseType_t xQueuePeek(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind == FR_Q_QUEUE && pvBuffer);
	return pt_mq_peek(q->id, pvBuffer, fr_timeout_ns(xTicksToWait)) == PT_OK ? pdPASS
										 : errQUEUE_EMPTY;
}

UBaseType_t uxQueueMessagesWaiting(const QueueHandle_t xQueue)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q));
	int n;
	switch (q->kind) {
	case FR_Q_QUEUE: n = pt_mq_count(q->id); break;
	case FR_Q_SEM: n = pt_sem_count(q->id); break;
	default: n = q->holder == 0; /* a mutex "holds one item" while it is free */
	}
	return n < 0 ? 0 : (UBaseType_t)n;
}

UBaseType_t uxQueueSpacesAvailable(const QueueHandle_t xQueue)
{
	return xQueue->length - uxQueueMessagesWaiting(xQueue);
}

UBaseType_t uxQueueSemaphoreCount(QueueHandle_t xSemaphore)
{
	return uxQueueMessagesWaiting(xSemaphore);
}

void vQueueDelete(QueueHandle_t xQueue)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q));
	if ((q->kind == FR_Q_MUTEX || q->kind == FR_Q_RMUTEX) && q->holder &&
	    q->holder == fr_current()) {
		/* FreeRTOS deletes a mutex its holder still holds: the native delete needs it free */
		q->holder = 0;
		while (pt_mutex_unlock(q->id) == PT_OK)
			;
	}
	int r = q->kind == FR_Q_QUEUE ? pt_mq_delete(q->id)
	      : q->kind == FR_Q_SEM  ? pt_sem_delete(q->id)
				     : pt_mutex_delete(q->id);
	configASSERT(r == PT_OK); /* a mutex another task holds is not deleted (FreeRTOS: undefined) */
#if configQUEUE_REGISTRY_SIZE > 0
	vQueueUnregisterQueue(q);
#endif
	q->magic = 0;
	q->from_pool = 0;
}

BaseType_t xQueueSemaphoreTake(QueueHandle_t xQueue, TickType_t xTicksToWait)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind != FR_Q_QUEUE);
	uint64_t timeout = fr_timeout_ns(xTicksToWait);
	if (q->kind == FR_Q_SEM)
		return pt_sem_take(q->id, timeout) == PT_OK ? pdPASS : pdFAIL;
	TaskHandle_t me = fr_current();
	if (q->holder == me) {
		/* FreeRTOS: a mutex is not recursive; its holder waits for itself until timeout */
		if (timeout != PT_NO_WAIT)
			pt_sleep_ns(timeout);
		return pdFAIL;
	}
	int r = pt_mutex_lock(q->id, timeout);
	if (r != PT_OK && r != PT_EOWNERDEAD)
		return pdFAIL;
	q->holder = me;
	q->depth = 1;
	return pdPASS;
}

BaseType_t xQueueSemaphoreGive(QueueHandle_t xQueue)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind != FR_Q_QUEUE);
	if (q->kind == FR_Q_SEM)
		return q->set ? set_member_send(q, NULL, PT_NO_WAIT, queueSEND_TO_BACK)
			      : pt_sem_give(q->id) == PT_OK ? pdPASS : pdFAIL;
	TaskHandle_t me = fr_current();
	if (q->holder != me) {
		configASSERT(q->holder == 0); /* FreeRTOS asserts when a non-holder gives a held mutex */
		return pdFAIL;
	}
	q->holder = 0;
	q->depth = 0;
	return pt_mutex_unlock(q->id) == PT_OK ? pdPASS : pdFAIL;
}

BaseType_t xQueueTakeMutexRecursive(QueueHandle_t xMutex, TickType_t xTicksToWait)
{
	QueueHandle_t q = xMutex;
	configASSERT(valid(q) && q->kind == FR_Q_RMUTEX);
	int r = pt_mutex_lock(q->id, fr_timeout_ns(xTicksToWait)); /* the kernel counts depth */
	if (r != PT_OK && r != PT_EOWNERDEAD)
		return pdFAIL;
	TaskHandle_t me = fr_current();
	if (q->holder != me) { /* first take (also after a deleted holder: PT_EOWNERDEAD) */
		q->holder = me;
		q->depth = 0;
	}
	q->depth++;
	return pdPASS;
}

BaseType_t xQueueGiveMutexRecursive(QueueHandle_t xMutex)
{
	QueueHandle_t q = xMutex;
	configASSERT(valid(q) && q->kind == FR_Q_RMUTEX);
	if (q->holder != fr_current())
		return pdFAIL;
	if (--q->depth == 0)
		q->holder = 0; /* before the unlock: the next holder writes its own */
	return pt_mutex_unlock(q->id) == PT_OK ? pdPASS : pdFAIL;
}

TaskHandle_t xQueueGetMutexHolder(QueueHandle_t xSemaphore)
{
	QueueHandle_t q = xSemaphore;
	configASSERT(valid(q));
	return q->kind == FR_Q_MUTEX || q->kind == FR_Q_RMUTEX ? q->holder : 0;
}

/* ---- from the interrupt context (docs/compat.md, "Interrupts"): never blocking. A task
 * that a call makes ready runs when the interrupt context returns to its wait; the native
 * queue does not say whether one was waiting, so *pxHigherPriorityTaskWoken is set whenever
 * the call succeeded (FreeRTOS sets it only when a waiting task outranks the interrupted one:
 * here a yield from an ISR is a no-op either way). Also callable from tasks, as on FreeRTOS.
 * ---- */
static void woken_if(BaseType_t *woken, BaseType_t ok)
{
	if (woken && ok == pdPASS)
		*woken = pdTRUE;
}

BaseType_t xQueueGenericSendFromISR(QueueHandle_t xQueue, const void *const pvItemToQueue,
				    BaseType_t *const pxHigherPriorityTaskWoken,
				    const BaseType_t xCopyPosition)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q));
	BaseType_t r;
	configASSERT(q->kind == FR_Q_SEM || q->kind == FR_Q_QUEUE); /* no mutex from an ISR */
	configASSERT(q->kind == FR_Q_SEM || pvItemToQueue);
	if (q->set)
		r = set_member_send(q, pvItemToQueue, PT_NO_WAIT, xCopyPosition);
	else
		r = send_native(q, pvItemToQueue, PT_NO_WAIT, xCopyPosition) == PT_OK ? pdPASS
										     : errQUEUE_FULL;
	woken_if(pxHigherPriorityTaskWoken, r);
	return r;
}

BaseType_t xQueueGiveFromISR(QueueHandle_t xQueue, BaseType_t *const pxHigherPriorityTaskWoken)
{
	return xQueueGenericSendFromISR(xQueue, NULL, pxHigherPriorityTaskWoken, queueSEND_TO_BACK);
}

BaseType_t xQueueReceiveFromISR(QueueHandle_t xQueue, void *const pvBuffer,
				BaseType_t *const pxHigherPriorityTaskWoken)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind != FR_Q_MUTEX && q->kind != FR_Q_RMUTEX);
	BaseType_t r;
	if (q->kind == FR_Q_SEM) /* xSemaphoreTakeFromISR */
		r = pt_sem_take(q->id, PT_NO_WAIT) == PT_OK ? pdPASS : pdFAIL;
	else
		r = pt_mq_recv(q->id, pvBuffer, PT_NO_WAIT) == PT_OK ? pdPASS : errQUEUE_EMPTY;
	woken_if(pxHigherPriorityTaskWoken, r);
	return r;
}

BaseType_t xQueuePeekFromISR(QueueHandle_t xQueue, void *const pvBuffer)
{
	QueueHandle_t q = xQueue;
	configASSERT(valid(q) && q->kind == FR_Q_QUEUE && pvBuffer);
	return pt_mq_peek(q->id, pvBuffer, PT_NO_WAIT) == PT_OK ? pdPASS : errQUEUE_EMPTY;
}

UBaseType_t uxQueueMessagesWaitingFromISR(const QueueHandle_t xQueue)
{
	return uxQueueMessagesWaiting(xQueue);
}

BaseType_t xQueueIsQueueEmptyFromISR(const QueueHandle_t xQueue)
{
	return uxQueueMessagesWaiting(xQueue) == 0 ? pdTRUE : pdFALSE;
}

BaseType_t xQueueIsQueueFullFromISR(const QueueHandle_t xQueue)
{
	return uxQueueMessagesWaiting(xQueue) == xQueue->length ? pdTRUE : pdFALSE;
}

TaskHandle_t xQueueGetMutexHolderFromISR(QueueHandle_t xSemaphore)
{
	return xQueueGetMutexHolder(xSemaphore);
}

/* xQueueReset: empty the queue (messages received and dropped; a sender waiting for space
 * gets it, as FreeRTOS unblocks one). Semaphores and mutexes are not reset here. */
BaseType_t xQueueGenericReset(QueueHandle_t xQueue, BaseType_t xNewQueue)
{
	QueueHandle_t q = xQueue;
	(void)xNewQueue;
	configASSERT(valid(q) && q->kind == FR_Q_QUEUE);
	static uint8_t drop[PT_MQ_MSG_MAX_BYTES]; /* used inside the critical section only */
	configASSERT(q->item_size <= sizeof drop);
	vPortEnterCritical();
	while (pt_mq_recv(q->id, drop, PT_NO_WAIT) == PT_OK)
		;
	vPortExitCritical();
	return pdPASS;
}

/* ---- the queue registry (a kernel-aware debugger's names; here: pcQueueGetName) ---- */
#if configQUEUE_REGISTRY_SIZE > 0
static struct {
	QueueHandle_t q;
	const char *name;
} registry[configQUEUE_REGISTRY_SIZE];

void vQueueAddToRegistry(QueueHandle_t xQueue, const char *pcQueueName)
{
	configASSERT(xQueue);
	vPortEnterCritical();
	int slot = -1;
	for (int i = 0; i < (configQUEUE_REGISTRY_SIZE); i++) {
		if (registry[i].q == xQueue) { /* renamed, as FreeRTOS does */
			slot = i;
			break;
		}
		if (slot < 0 && !registry[i].q)
			slot = i;
	}
	if (slot >= 0 && pcQueueName) {
		registry[slot].q = xQueue;
		registry[slot].name = pcQueueName;
	}
	vPortExitCritical();
}

const char *pcQueueGetName(QueueHandle_t xQueue)
{
	for (int i = 0; i < (configQUEUE_REGISTRY_SIZE); i++)
		if (registry[i].q == xQueue)
			return registry[i].name;
	return 0;
}

void vQueueUnregisterQueue(QueueHandle_t xQueue)
{
	vPortEnterCritical();
	for (int i = 0; i < (configQUEUE_REGISTRY_SIZE); i++)
		if (registry[i].q == xQueue)
			registry[i].q = 0, registry[i].name = 0;
	vPortExitCritical();
}
#endif

/* ---- queue sets: a queue of member handles, posted after each item or give ---- */
#if configUSE_QUEUE_SETS
QueueSetHandle_t xQueueCreateSet(const UBaseType_t uxEventQueueLength)
{
	return xQueueGenericCreate(uxEventQueueLength, sizeof(QueueHandle_t), queueQUEUE_TYPE_SET);
}

BaseType_t xQueueAddToSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet)
{
	QueueHandle_t q = xQueueOrSemaphore;
	configASSERT(valid(q) && valid(xQueueSet) && (q->kind == FR_Q_QUEUE || q->kind == FR_Q_SEM));
	vPortEnterCritical();
	BaseType_t r = !q->set && uxQueueMessagesWaiting(q) == 0; /* as FreeRTOS: empty, one set */
	if (r)
		q->set = xQueueSet;
	vPortExitCritical();
	return r ? pdPASS : pdFAIL;
}

BaseType_t xQueueRemoveFromSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet)
{
	QueueHandle_t q = xQueueOrSemaphore;
	configASSERT(valid(q));
	vPortEnterCritical();
	BaseType_t r = q->set == xQueueSet && uxQueueMessagesWaiting(q) == 0;
	if (r)
		q->set = 0;
	vPortExitCritical();
	return r ? pdPASS : pdFAIL;
}

QueueSetMemberHandle_t xQueueSelectFromSet(QueueSetHandle_t xQueueSet, const TickType_t xTicksToWait)
{
	QueueHandle_t m = 0;
	return xQueueReceive(xQueueSet, &m, xTicksToWait) == pdPASS ? m : 0;
}

QueueSetMemberHandle_t xQueueSelectFromSetFromISR(QueueSetHandle_t xQueueSet)
{
	QueueHandle_t m = 0;
	return xQueueReceiveFromISR(xQueueSet, &m, NULL) == pdPASS ? m : 0;
}
#endif
