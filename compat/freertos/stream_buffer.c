/*
 * FreeRTOS stream and message buffers (docs/compat.md, "Stream and message buffers"). The ring
 * and the two waiting tasks (one writer, one reader, as FreeRTOS allows) change inside the
 * world's critical section. A writer waits until all its bytes fit (a stream buffer then
 * writes what fits when the wait ends; a message buffer all or nothing); a reader waits while
 * the buffer is empty and is released when the bytes reach the trigger level (any message for
 * a message buffer), then reads what is there. With a completion callback the callback is
 * called instead of releasing the other side, as FreeRTOS's sbSEND_COMPLETED does.
 */
#include "fr_internal.h"
#include "message_buffer.h"

#define FR_SB_MAGIC 0x46525342u /* "FRSB" */

#ifndef configPARTITA_MAX_STREAM_BUFFERS
#define configPARTITA_MAX_STREAM_BUFFERS 8
#endif
#define HDR sizeof(configMESSAGE_BUFFER_LENGTH_TYPE)

struct StreamBufferDef_t {
	uint32_t magic;
	uint8_t message, from_pool, is_static;
	size_t size, trigger, head, count;
	uint8_t *buf;
	TaskHandle_t tx_waiter, rx_waiter;
	StreamBufferCallbackFunction_t send_cb, recv_cb;
};

_Static_assert(sizeof(struct StreamBufferDef_t) <= sizeof(StaticStreamBuffer_t),
	       "StaticStreamBuffer_t must hold the layer's stream buffer record");

static bool valid(StreamBufferHandle_t b)
{
	return b && b->magic == FR_SB_MAGIC;
}

static void init(StreamBufferHandle_t b, size_t size, size_t trigger, BaseType_t type,
		 uint8_t *storage, StreamBufferCallbackFunction_t s, StreamBufferCallbackFunction_t r)
{
	b->message = type == sbTYPE_MESSAGE_BUFFER;
	b->size = size;
	b->trigger = trigger ? trigger : 1;
	b->head = b->count = 0;
	b->buf = storage;
	b->tx_waiter = b->rx_waiter = 0;
	b->send_cb = s;
	b->recv_cb = r;
	b->magic = FR_SB_MAGIC;
}

static bool args_ok(size_t size, size_t trigger, BaseType_t type)
{
	configASSERT(type != sbTYPE_STREAM_BATCHING_BUFFER); /* not implemented: docs/compat.md */
	configASSERT(type != sbTYPE_MESSAGE_BUFFER || size > HDR);
	configASSERT(trigger <= size);
	return type != sbTYPE_STREAM_BATCHING_BUFFER && trigger <= size &&
	       (type != sbTYPE_MESSAGE_BUFFER || size > HDR);
}

#if configSUPPORT_DYNAMIC_ALLOCATION
static struct StreamBufferDef_t sbpool[configPARTITA_MAX_STREAM_BUFFERS];
#endif

StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
						BaseType_t xStreamBufferType,
						StreamBufferCallbackFunction_t pxSendCompletedCallback,
						StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
{
#if configSUPPORT_DYNAMIC_ALLOCATION
	if (!args_ok(xBufferSizeBytes, xTriggerLevelBytes, xStreamBufferType))
		return 0;
	uint8_t *storage = pvPortMalloc(xBufferSizeBytes); /* as FreeRTOS: from the heap */
	if (!storage)
		return 0;
	StreamBufferHandle_t b = 0;
	vPortEnterCritical();
	for (int i = 0; i < (configPARTITA_MAX_STREAM_BUFFERS) && !b; i++)
		if (!sbpool[i].from_pool)
			b = &sbpool[i];
	if (b)
		b->from_pool = 1;
	vPortExitCritical();
	if (!b) {
		vPortFree(storage);
#if configUSE_MALLOC_FAILED_HOOK
		vApplicationMallocFailedHook();
#endif
		return 0;
	}
	b->is_static = 0;
	init(b, xBufferSizeBytes, xTriggerLevelBytes, xStreamBufferType, storage,
	     pxSendCompletedCallback, pxReceiveCompletedCallback);
	return b;
#else
	(void)xBufferSizeBytes, (void)xTriggerLevelBytes, (void)xStreamBufferType;
	(void)pxSendCompletedCallback, (void)pxReceiveCompletedCallback;
	configASSERT(0 && "configSUPPORT_DYNAMIC_ALLOCATION is 0");
	return 0;
#endif
}

StreamBufferHandle_t xStreamBufferGenericCreateStatic(
	size_t xBufferSizeBytes, size_t xTriggerLevelBytes, BaseType_t xStreamBufferType,
	uint8_t *const pucStreamBufferStorageArea, StaticStreamBuffer_t *const pxStaticStreamBuffer,
	StreamBufferCallbackFunction_t pxSendCompletedCallback,
	StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
{
	configASSERT(pucStreamBufferStorageArea && pxStaticStreamBuffer);
	if (!pucStreamBufferStorageArea || !pxStaticStreamBuffer ||
	    !args_ok(xBufferSizeBytes, xTriggerLevelBytes, xStreamBufferType))
		return 0;
	/* as FreeRTOS: a static buffer of n bytes holds n - 1 (its ring keeps one byte free;
	 * the dynamic form allocates n + 1 to hold n) */
	configASSERT(xBufferSizeBytes > 1);
	if (xBufferSizeBytes < 2)
		return 0;
	if (xTriggerLevelBytes > xBufferSizeBytes - 1)
		xTriggerLevelBytes = xBufferSizeBytes - 1;
	StreamBufferHandle_t b = (StreamBufferHandle_t)(void *)pxStaticStreamBuffer;
	b->from_pool = 0;
	b->is_static = 1;
	init(b, xBufferSizeBytes - 1, xTriggerLevelBytes, xStreamBufferType, pucStreamBufferStorageArea,
	     pxSendCompletedCallback, pxReceiveCompletedCallback);
	return b;
}

static void put(StreamBufferHandle_t b, const uint8_t *src, size_t n)
{
	size_t tail = (b->head + b->count) % b->size;
	for (size_t i = 0; i < n; i++) {
		b->buf[tail] = src[i];
		tail = tail + 1 == b->size ? 0 : tail + 1;
	}
	b->count += n;
}

static void peek(StreamBufferHandle_t b, uint8_t *dst, size_t n)
{
	size_t h = b->head;
	for (size_t i = 0; i < n; i++) {
		dst[i] = b->buf[h];
		h = h + 1 == b->size ? 0 : h + 1;
	}
}

static void drop(StreamBufferHandle_t b, size_t n)
{
	b->head = (b->head + n) % b->size;
	b->count -= n;
}

static size_t next_len(StreamBufferHandle_t b)
{
	if (!b->message || b->count < HDR)
		return 0;
	configMESSAGE_BUFFER_LENGTH_TYPE l;
	peek(b, (uint8_t *)&l, HDR);
	return (size_t)l;
}

/* Critical section held: write what the rules allow; the bytes written. */
static size_t write_locked(StreamBufferHandle_t b, const void *data, size_t len)
{
	size_t space = b->size - b->count;
	if (b->message) {
		if (space < len + HDR)
			return 0;
		configMESSAGE_BUFFER_LENGTH_TYPE l = (configMESSAGE_BUFFER_LENGTH_TYPE)len;
		put(b, (const uint8_t *)&l, HDR);
		put(b, data, len);
		return len;
	}
	size_t n = len < space ? len : space;
	put(b, data, n);
	return n;
}

/* Critical section held: read what the rules allow; the bytes read. */
static size_t read_locked(StreamBufferHandle_t b, void *data, size_t len)
{
	if (b->message) {
		if (b->count < HDR)
			return 0;
		size_t l = next_len(b);
		if (l > len)
			return 0; /* the message stays */
		drop(b, HDR);
		peek(b, data, l);
		drop(b, l);
		return l;
	}
	size_t n = len < b->count ? len : b->count;
	peek(b, data, n);
	drop(b, n);
	return n;
}

/* After a write of n > 0 bytes (critical section held): release the reader when the trigger
 * level is reached; true when one was released. */
static bool wrote_locked(StreamBufferHandle_t b)
{
	if (!b->rx_waiter || (!b->message && b->count < b->trigger))
		return false;
	fr_wake(b->rx_waiter);
	b->rx_waiter = 0;
	return true;
}

static bool read_done_locked(StreamBufferHandle_t b)
{
	if (!b->tx_waiter)
		return false;
	fr_wake(b->tx_waiter);
	b->tx_waiter = 0;
	return true;
}

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void *pvTxData,
			 size_t xDataLengthBytes, TickType_t xTicksToWait)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b) && pvTxData);
	size_t need = xDataLengthBytes + (b->message ? HDR : 0);
	if (need > b->size) /* can never fit: do not wait (FreeRTOS) */
		xTicksToWait = 0;
	TaskHandle_t me = fr_current();
	uint64_t deadline = fr_deadline_cycles(xTicksToWait);
	vPortEnterCritical();
	for (;;) {
		uint64_t left = fr_remaining_ns(deadline);
		if (b->size - b->count >= need || left == PT_NO_WAIT)
			break;
		configASSERT(!b->tx_waiter || b->tx_waiter == me); /* one writer at a time */
		if (!fr_wait_prepare(me))
			break;
		b->tx_waiter = me;
		vPortExitCritical();
		int r = fr_wait(me, left);
		vPortEnterCritical();
		if (b->tx_waiter == me)
			b->tx_waiter = 0;
		if (r != PT_OK)
			break; /* timed out or aborted */
	}
	size_t n = write_locked(b, pvTxData, xDataLengthBytes);
	bool cb = n && b->send_cb;
	if (n && !cb)
		(void)wrote_locked(b);
	vPortExitCritical();
	if (cb)
		b->send_cb(b, pdFALSE, NULL);
	return n;
}

size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void *pvTxData,
				size_t xDataLengthBytes, BaseType_t *const pxHigherPriorityTaskWoken)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b) && pvTxData);
	vPortEnterCritical();
	size_t n = write_locked(b, pvTxData, xDataLengthBytes);
	bool cb = n && b->send_cb, woke = false;
	if (n && !cb)
		woke = wrote_locked(b);
	vPortExitCritical();
	if (cb)
		b->send_cb(b, pdTRUE, pxHigherPriorityTaskWoken);
	else if (woke && pxHigherPriorityTaskWoken)
		*pxHigherPriorityTaskWoken = pdTRUE;
	return n;
}

size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void *pvRxData,
			    size_t xBufferLengthBytes, TickType_t xTicksToWait)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b) && pvRxData);
	TaskHandle_t me = fr_current();
	uint64_t timeout = fr_timeout_ns(xTicksToWait);
	vPortEnterCritical();
	if (b->count == 0 && timeout != PT_NO_WAIT && fr_wait_prepare(me)) {
		configASSERT(!b->rx_waiter); /* one reader at a time */
		b->rx_waiter = me;
		vPortExitCritical();
		(void)fr_wait(me, timeout); /* released, timed out or aborted: read what is there */
		vPortEnterCritical();
		if (b->rx_waiter == me)
			b->rx_waiter = 0;
	}
	size_t n = read_locked(b, pvRxData, xBufferLengthBytes);
	bool cb = n && b->recv_cb;
	if (n && !cb)
		(void)read_done_locked(b);
	vPortExitCritical();
	if (cb)
		b->recv_cb(b, pdFALSE, NULL);
	return n;
}

size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void *pvRxData,
				   size_t xBufferLengthBytes,
				   BaseType_t *const pxHigherPriorityTaskWoken)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b) && pvRxData);
	vPortEnterCritical();
	size_t n = read_locked(b, pvRxData, xBufferLengthBytes);
	bool cb = n && b->recv_cb, woke = false;
	if (n && !cb)
		woke = read_done_locked(b);
	vPortExitCritical();
	if (cb)
		b->recv_cb(b, pdTRUE, pxHigherPriorityTaskWoken);
	else if (woke && pxHigherPriorityTaskWoken)
		*pxHigherPriorityTaskWoken = pdTRUE;
	return n;
}

void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b));
	vPortEnterCritical();
	b->magic = 0;
	uint8_t *storage = b->is_static ? 0 : b->buf;
	b->from_pool = 0;
	vPortExitCritical();
	if (storage)
		vPortFree(storage);
}

static size_t count_of(StreamBufferHandle_t b)
{
	configASSERT(valid(b));
	vPortEnterCritical();
	size_t c = b->count;
	vPortExitCritical();
	return c;
}

BaseType_t xStreamBufferIsFull(StreamBufferHandle_t xStreamBuffer)
{
	size_t space = xStreamBuffer->size - count_of(xStreamBuffer);
	return space <= (xStreamBuffer->message ? HDR : 0) ? pdTRUE : pdFALSE;
}

BaseType_t xStreamBufferIsEmpty(StreamBufferHandle_t xStreamBuffer)
{
	return count_of(xStreamBuffer) == 0 ? pdTRUE : pdFALSE;
}

size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer)
{
	return xStreamBuffer->size - count_of(xStreamBuffer);
}

size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer)
{
	return count_of(xStreamBuffer);
}

/* Only while no task waits on it, as FreeRTOS. */
BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b));
	vPortEnterCritical();
	BaseType_t r = !b->tx_waiter && !b->rx_waiter;
	if (r)
		b->head = b->count = 0;
	vPortExitCritical();
	return r ? pdPASS : pdFAIL;
}

BaseType_t xStreamBufferResetFromISR(StreamBufferHandle_t xStreamBuffer)
{
	return xStreamBufferReset(xStreamBuffer);
}

BaseType_t xStreamBufferSetTriggerLevel(StreamBufferHandle_t xStreamBuffer, size_t xTriggerLevel)
{
	StreamBufferHandle_t b = xStreamBuffer;
	configASSERT(valid(b));
	if (xTriggerLevel > b->size)
		return pdFAIL;
	b->trigger = xTriggerLevel ? xTriggerLevel : 1;
	return pdPASS;
}

BaseType_t xStreamBufferSendCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
					     BaseType_t *pxHigherPriorityTaskWoken)
{
	configASSERT(valid(xStreamBuffer));
	vPortEnterCritical();
	TaskHandle_t w = xStreamBuffer->rx_waiter;
	if (w)
		fr_wake(w);
	xStreamBuffer->rx_waiter = 0;
	vPortExitCritical();
	if (w && pxHigherPriorityTaskWoken)
		*pxHigherPriorityTaskWoken = pdTRUE;
	return w ? pdTRUE : pdFALSE;
}

BaseType_t xStreamBufferReceiveCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
						BaseType_t *pxHigherPriorityTaskWoken)
{
	configASSERT(valid(xStreamBuffer));
	vPortEnterCritical();
	TaskHandle_t w = xStreamBuffer->tx_waiter;
	if (w)
		fr_wake(w);
	xStreamBuffer->tx_waiter = 0;
	vPortExitCritical();
	if (w && pxHigherPriorityTaskWoken)
		*pxHigherPriorityTaskWoken = pdTRUE;
	return w ? pdTRUE : pdFALSE;
}

size_t xStreamBufferNextMessageLengthBytes(StreamBufferHandle_t xStreamBuffer)
{
	configASSERT(valid(xStreamBuffer));
	vPortEnterCritical();
	size_t l = next_len(xStreamBuffer);
	vPortExitCritical();
	return l;
}

BaseType_t xStreamBufferGetStaticBuffers(StreamBufferHandle_t xStreamBuffer,
					 uint8_t **ppucStreamBufferStorageArea,
					 StaticStreamBuffer_t **ppxStaticStreamBuffer)
{
	configASSERT(valid(xStreamBuffer) && ppucStreamBufferStorageArea && ppxStaticStreamBuffer);
	if (!xStreamBuffer->is_static)
		return pdFALSE;
	*ppucStreamBufferStorageArea = xStreamBuffer->buf;
	*ppxStaticStreamBuffer = (StaticStreamBuffer_t *)(void *)xStreamBuffer;
	return pdTRUE;
}
