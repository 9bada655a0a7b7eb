/*
 * FreeRTOS event groups on Partita (docs/compat.md, "Event groups"): the bits and the list of
 * waiting tasks live in the layer's record and change inside the world's critical section; a
 * waiting task blocks on its own native semaphore, which a set gives when its condition holds.
 */
#ifndef EVENT_GROUPS_H
#define EVENT_GROUPS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include event_groups.h"
#endif

struct EventGroupDef_t;
typedef struct EventGroupDef_t *EventGroupHandle_t;
typedef TickType_t EventBits_t;

/* the top 8 bits are FreeRTOS's control bits: not for the application */
#if configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_16_BITS
#define eventEVENT_BITS_CONTROL_BYTES 0xff00U
#elif configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_32_BITS
#define eventEVENT_BITS_CONTROL_BYTES 0xff000000UL
#else
#define eventEVENT_BITS_CONTROL_BYTES 0xff00000000000000ULL
#endif

typedef struct xSTATIC_EVENT_GROUP {
	uint64_t pvDummy[4];
} StaticEventGroup_t;

#if configSUPPORT_DYNAMIC_ALLOCATION
EventGroupHandle_t xEventGroupCreate(void);
#endif
#if configSUPPORT_STATIC_ALLOCATION
EventGroupHandle_t xEventGroupCreateStatic(StaticEventGroup_t *pxEventGroupBuffer);
#endif
EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
				const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
				TickType_t xTicksToWait);
EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear);
EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet);
EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
			    const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait);
EventBits_t xEventGroupGetBitsFromISR(EventGroupHandle_t xEventGroup);
BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
				     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup,
				       const EventBits_t uxBitsToClear);
void vEventGroupDelete(EventGroupHandle_t xEventGroup);
#define xEventGroupGetBits(xEventGroup) xEventGroupClearBits((xEventGroup), 0)

#endif
