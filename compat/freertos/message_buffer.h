/*
 * FreeRTOS message buffers on Partita: stream buffers that keep message boundaries, each
 * message stored behind its length (configMESSAGE_BUFFER_LENGTH_TYPE, default size_t), as
 * FreeRTOS stores them (docs/compat.md, "Stream and message buffers").
 */
#ifndef FREERTOS_MESSAGE_BUFFER_H
#define FREERTOS_MESSAGE_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include message_buffer.h"
#endif
#include "stream_buffer.h"

typedef StreamBufferHandle_t MessageBufferHandle_t;

#define xMessageBufferCreate(xBufferSizeBytes) \
	xStreamBufferGenericCreate((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER, NULL, NULL)
#define xMessageBufferCreateWithCallback(xBufferSizeBytes, pxSendCompletedCallback, \
					 pxReceiveCompletedCallback) \
	xStreamBufferGenericCreate((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER, \
				   (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#define xMessageBufferCreateStatic(xBufferSizeBytes, pucMessageBufferStorageArea, \
				   pxStaticMessageBuffer) \
	xStreamBufferGenericCreateStatic((xBufferSizeBytes), 0, sbTYPE_MESSAGE_BUFFER, \
					 (pucMessageBufferStorageArea), (pxStaticMessageBuffer), \
					 NULL, NULL)
#define xMessageBufferCreateStaticWithCallback(xBufferSizeBytes, pucMessageBufferStorageArea, \
					       pxStaticMessageBuffer, pxSendCompletedCallback, \
					       pxReceiveCompletedCallback) \
	xStreamBufferGenericCreateStatic((xBufferSizeBytes), 0, sbTYPE_MESSAGE_BUFFER, \
					 (pucMessageBufferStorageArea), (pxStaticMessageBuffer), \
					 (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#define xMessageBufferGetStaticBuffers(xMessageBuffer, ppucMessageBufferStorageArea, \
				       ppxStaticMessageBuffer) \
	xStreamBufferGetStaticBuffers((xMessageBuffer), (ppucMessageBufferStorageArea), \
				      (ppxStaticMessageBuffer))
#define xMessageBufferSend(xMessageBuffer, pvTxData, xDataLengthBytes, xTicksToWait) \
	xStreamBufferSend((xMessageBuffer), (pvTxData), (xDataLengthBytes), (xTicksToWait))
#define xMessageBufferSendFromISR(xMessageBuffer, pvTxData, xDataLengthBytes, \
				  pxHigherPriorityTaskWoken) \
	xStreamBufferSendFromISR((xMessageBuffer), (pvTxData), (xDataLengthBytes), \
				 (pxHigherPriorityTaskWoken))
#define xMessageBufferReceive(xMessageBuffer, pvRxData, xBufferLengthBytes, xTicksToWait) \
	xStreamBufferReceive((xMessageBuffer), (pvRxData), (xBufferLengthBytes), (xTicksToWait))
#define xMessageBufferReceiveFromISR(xMessageBuffer, pvRxData, xBufferLengthBytes, \
				     pxHigherPriorityTaskWoken) \
	xStreamBufferReceiveFromISR((xMessageBuffer), (pvRxData), (xBufferLengthBytes), \
				    (pxHigherPriorityTaskWoken))
#define vMessageBufferDelete(xMessageBuffer) vStreamBufferDelete(xMessageBuffer)
#define xMessageBufferIsFull(xMessageBuffer) xStreamBufferIsFull(xMessageBuffer)
#define xMessageBufferIsEmpty(xMessageBuffer) xStreamBufferIsEmpty(xMessageBuffer)
#define xMessageBufferReset(xMessageBuffer) xStreamBufferReset(xMessageBuffer)
#define xMessageBufferResetFromISR(xMessageBuffer) xStreamBufferResetFromISR(xMessageBuffer)
#define xMessageBufferSpaceAvailable(xMessageBuffer) xStreamBufferSpacesAvailable(xMessageBuffer)
#define xMessageBufferSpacesAvailable(xMessageBuffer) xStreamBufferSpacesAvailable(xMessageBuffer)
#define xMessageBufferNextLengthBytes(xMessageBuffer) \
	xStreamBufferNextMessageLengthBytes(xMessageBuffer)
#define xMessageBufferSendCompletedFromISR(xMessageBuffer, pxHigherPriorityTaskWoken) \
	xStreamBufferSendCompletedFromISR((xMessageBuffer), (pxHigherPriorityTaskWoken))
#define xMessageBufferReceiveCompletedFromISR(xMessageBuffer, pxHigherPriorityTaskWoken) \
	xStreamBufferReceiveCompletedFromISR((xMessageBuffer), (pxHigherPriorityTaskWoken))

#endif
