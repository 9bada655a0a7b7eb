/*
 * FreeRTOS event groups (docs/compat.md, "Event groups"). Bits and waiters change inside the
 * world's critical section; a set walks the waiters, releases every one whose condition now
 * holds (recording the bits it saw), and clears the bits those with xClearOnExit asked for,
 * as FreeRTOS does. The FromISR forms act at once (FreeRTOS defers them to the timer
 * service task; the interrupt context here is a thread that may take the critical section).
 */
#include "fr_internal.h"
#include "event_groups.h"

#define FR_EG_MAGIC 0x46524547u /* "FREG" */
#define FR_W_ALL 1u
#define FR_W_CLEAR 2u

struct EventGroupDef_t {
	uint32_t magic;
	uint8_t from_pool;
	EventBits_t bits;
	struct fr_waiter *waiters;
};

_Static_assert(sizeof(struct EventGroupDef_t) <= sizeof(StaticEventGroup_t),
	       "StaticEventGroup_t must hold the layer's event group record");

#ifndef configPARTITA_MAX_EVENT_GROUPS
#define configPARTITA_MAX_EVENT_GROUPS 16
#endif

static bool valid(EventGroupHandle_t g)
{
	return g && g->magic == FR_EG_MAGIC;
}

static void init(EventGroupHandle_t g)
{
	g->bits = 0;
	g->waiters = 0;
	g->magic = FR_EG_MAGIC;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
static struct EventGroupDef_t egpool[configPARTITA_MAX_EVENT_GROUPS];

EventGroupHandle_t xEventGroupCreate(void)
{
	EventGroupHandle_t g = 0;
	vPortEnterCritical();
	for (int i = 0; i < (configPARTITA_MAX_EVENT_GROUPS) && !g; i++)
		if (!egpool[i].from_pool)
			g = &egpool[i];
	if (g) {
		g->from_pool = 1;
		init(g);
	}
	vPortExitCritical();
#if configUSE_MALLOC_FAILED_HOOK
	if (!g)
		vApplicationMallocFailedHook();
#endif
	return g;
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
EventGroupHandle_t xEventGroupCreateStatic(StaticEventGroup_t *pxEventGroupBuffer)
{
	configASSERT(pxEventGroupBuffer);
	EventGroupHandle_t g = (EventGroupHandle_t)(void *)pxEventGroupBuffer;
	g->from_pool = 0;
	init(g);
	return g;
}
#endif

static bool met(EventBits_t bits, EventBits_t want, uint32_t flags)
{
	return flags & FR_W_ALL ? (bits & want) == want : (bits & want) != 0;
}

/* Critical section held: set bits, release the waiters now satisfied. */
static EventBits_t set_locked(EventGroupHandle_t g, EventBits_t set)
{
	EventBits_t clear = 0;
	g->bits |= set;
	for (struct fr_waiter *w = g->waiters, *n; w; w = n) {
		n = w->next;
		if (!met(g->bits, (EventBits_t)w->bits, w->flags))
			continue;
		if (w->flags & FR_W_CLEAR)
			clear |= (EventBits_t)w->bits;
		w->result = g->bits;
		w->done = 1;
		fr_waiter_unlink(w);
		fr_wake(w->task);
	}
	g->bits &= ~clear;
	return g->bits;
}

/* Wait (critical section held on entry and on return) until w's condition holds, the
 * timeout passes or the wait is aborted; the bits to return. */
static EventBits_t wait_locked(EventGroupHandle_t g, struct fr_waiter *w, TickType_t ticks)
{
	uint64_t timeout = fr_timeout_ns(ticks);
	if (timeout == PT_NO_WAIT || !fr_wait_prepare(w->task))
		return g->bits;
	w->done = 0;
	fr_waiter_link(&g->waiters, w);
	vPortExitCritical();
	(void)fr_wait(w->task, timeout);
	vPortEnterCritical();
	if (w->done)
		return (EventBits_t)w->result;
	fr_waiter_unlink(w); /* timed out or aborted: the bits now, none cleared */
	return g->bits;
}

EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
				const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
				TickType_t xTicksToWait)
{
	EventGroupHandle_t g = xEventGroup;
	configASSERT(valid(g) && uxBitsToWaitFor != 0 &&
		     (uxBitsToWaitFor & eventEVENT_BITS_CONTROL_BYTES) == 0);
	uint32_t flags = (xWaitForAllBits ? FR_W_ALL : 0) | (xClearOnExit ? FR_W_CLEAR : 0);
	EventBits_t r;
	vPortEnterCritical();
	if (met(g->bits, uxBitsToWaitFor, flags)) {
		r = g->bits;
		if (xClearOnExit)
			g->bits &= ~uxBitsToWaitFor;
	} else {
		struct fr_waiter w = {.task = fr_current(), .bits = uxBitsToWaitFor, .flags = flags};
		configASSERT(w.task && !w.task->isr);
		r = wait_locked(g, &w, xTicksToWait);
	}
	vPortExitCritical();
	return r;
}

EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet)
{
	configASSERT(valid(xEventGroup) && (uxBitsToSet & eventEVENT_BITS_CONTROL_BYTES) == 0);
	vPortEnterCritical();
	EventBits_t r = set_locked(xEventGroup, uxBitsToSet);
	vPortExitCritical();
	return r;
}

EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear)
{
	configASSERT(valid(xEventGroup) && (uxBitsToClear & eventEVENT_BITS_CONTROL_BYTES) == 0);
	vPortEnterCritical();
	EventBits_t r = xEventGroup->bits;
	xEventGroup->bits &= ~uxBitsToClear;
	vPortExitCritical();
	return r;
}

EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
			    const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait)
{
	EventGroupHandle_t g = xEventGroup;
	configASSERT(valid(g) && uxBitsToWaitFor != 0 &&
		     (uxBitsToWaitFor & eventEVENT_BITS_CONTROL_BYTES) == 0);
	EventBits_t r;
	vPortEnterCritical();
	EventBits_t orig = g->bits;
	(void)set_locked(g, uxBitsToSet);
	if (((orig | uxBitsToSet) & uxBitsToWaitFor) == uxBitsToWaitFor) {
		r = orig | uxBitsToSet;
		g->bits &= ~uxBitsToWaitFor;
	} else {
		struct fr_waiter w = {.task = fr_current(), .bits = uxBitsToWaitFor,
				      .flags = FR_W_ALL | FR_W_CLEAR};
		configASSERT(w.task && !w.task->isr);
		r = wait_locked(g, &w, xTicksToWait);
	}
	vPortExitCritical();
	return r;
}

EventBits_t xEventGroupGetBitsFromISR(EventGroupHandle_t xEventGroup)
{
	configASSERT(valid(xEventGroup));
	return xEventGroup->bits;
}

BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
				     BaseType_t *pxHigherPriorityTaskWoken)
{
	configASSERT(valid(xEventGroup));
	vPortEnterCritical();
	struct fr_waiter *first = xEventGroup->waiters;
	(void)set_locked(xEventGroup, uxBitsToSet);
	bool woke = first && (xEventGroup->waiters != first || first->done); /* one released */
	vPortExitCritical();
	if (pxHigherPriorityTaskWoken && woke)
		*pxHigherPriorityTaskWoken = pdTRUE;
	return pdPASS;
}

BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup,
				       const EventBits_t uxBitsToClear)
{
	(void)xEventGroupClearBits(xEventGroup, uxBitsToClear);
	return pdPASS;
}

/* Waiting tasks are released with the value 0, as FreeRTOS's. */
void vEventGroupDelete(EventGroupHandle_t xEventGroup)
{
	EventGroupHandle_t g = xEventGroup;
	configASSERT(valid(g));
	vPortEnterCritical();
	while (g->waiters) {
		struct fr_waiter *w = g->waiters;
		w->result = 0;
		w->done = 1;
		fr_waiter_unlink(w);
		fr_wake(w->task);
	}
	g->magic = 0;
	g->from_pool = 0;
	vPortExitCritical();
}
