/*
 * FreeRTOS stream buffers on Partita (docs/compat.md, "Stream and message buffers"): a byte
 * ring in the layer's record (storage from pvPortMalloc, or the application's buffer for the
 * static form), one writer and one reader as FreeRTOS requires, each blocking on its own
 * native semaphore while it waits for space or data.
 */
#ifndef STREAM_BUFFER_H
#define STREAM_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include stream_buffer.h"
#endif

struct StreamBufferDef_t;
typedef struct StreamBufferDef_t *StreamBufferHandle_t;
typedef void (*StreamBufferCallbackFunction_t)(StreamBufferHandle_t xStreamBuffer,
					       BaseType_t xIsInsideISR,
					       BaseType_t *const pxHigherPriorityTaskWoken);

typedef struct xSTATIC_STREAM_BUFFER {
	uint64_t pvDummy[16];
} StaticStreamBuffer_t;
typedef StaticStreamBuffer_t StaticMessageBuffer_t;

#define sbTYPE_STREAM_BUFFER ((BaseType_t)0)
#define sbTYPE_MESSAGE_BUFFER ((BaseType_t)1)
#define sbTYPE_STREAM_BATCHING_BUFFER ((BaseType_t)2)

StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
						BaseType_t xStreamBufferType,
						StreamBufferCallbackFunction_t pxSendCompletedCallback,
						StreamBufferCallbackFunction_t pxReceiveCompletedCallback);
StreamBufferHandle_t xStreamBufferGenericCreateStatic(
	size_t xBufferSizeBytes, size_t xTriggerLevelBytes, BaseType_t xStreamBufferType,
	uint8_t *const pucStreamBufferStorageArea, StaticStreamBuffer_t *const pxStaticStreamBuffer,
	StreamBufferCallbackFunction_t pxSendCompletedCallback,
	StreamBufferCallbackFunction_t pxReceiveCompletedCallback);

#define xStreamBufferCreate(xBufferSizeBytes, xTriggerLevelBytes) \
	xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER, \
				   NULL, NULL)
#define xStreamBufferCreateWithCallback(xBufferSizeBytes, xTriggerLevelBytes, \
					pxSendCompletedCallback, pxReceiveCompletedCallback) \
	xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER, \
				   (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#define xStreamBufferCreateStatic(xBufferSizeBytes, xTriggerLevelBytes, \
				  pucStreamBufferStorageArea, pxStaticStreamBuffer) \
	xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), \
					 sbTYPE_STREAM_BUFFER, (pucStreamBufferStorageArea), \
					 (pxStaticStreamBuffer), NULL, NULL)
#define xStreamBufferCreateStaticWithCallback(xBufferSizeBytes, xTriggerLevelBytes, \
					      pucStreamBufferStorageArea, pxStaticStreamBuffer, \
					      pxSendCompletedCallback, pxReceiveCompletedCallback) \
	xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), \
					 sbTYPE_STREAM_BUFFER, (pucStreamBufferStorageArea), \
					 (pxStaticStreamBuffer), (pxSendCompletedCallback), \
					 (pxReceiveCompletedCallback))

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void *pvTxData,
			 size_t xDataLengthBytes, TickType_t xTicksToWait);
size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void *pvTxData,
				size_t xDataLengthBytes, BaseType_t *const pxHigherPriorityTaskWoken);
size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void *pvRxData,
			    size_t xBufferLengthBytes, TickType_t xTicksToWait);
size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void *pvRxData,
				   size_t xBufferLengthBytes,
				   BaseType_t *const pxHigherPriorityTaskWoken);
void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferIsFull(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferIsEmpty(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferResetFromISR(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferSetTriggerLevel(StreamBufferHandle_t xStreamBuffer, size_t xTriggerLevel);
BaseType_t xStreamBufferSendCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
					     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xStreamBufferReceiveCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
						BaseType_t *pxHigherPriorityTaskWoken);
size_t xStreamBufferNextMessageLengthBytes(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferGetStaticBuffers(StreamBufferHandle_t xStreamBuffer,
					 uint8_t **ppucStreamBufferStorageArea,
					 StaticStreamBuffer_t **ppxStaticStreamBuffer);

#endif
