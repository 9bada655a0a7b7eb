/*
 * Mutexes with µC/OS-II's priority inheritance (docs/compat.md, "µC/OS-II"): each mutex
 * reserves a priority, its PIP, which no task may take; when a task of higher priority than
 * the owner waits, the owner is raised to the PIP (its thread to the PIP's native level) and
 * goes back to its own priority when it releases the mutex. Not the native mutex: the native
 * one raises the owner to the waiter's level, and recurses on its owner.
 * OSEventCnt: PIP << 8 | the owner's own priority (0xFF: free); OSEventPtr: the owner.
 */
#include "os_internal.h"

#define AVAILABLE 0x00FFu

OS_EVENT *OSMutexCreate(INT8U prio, INT8U *perr)
{
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_CREATE_ISR;
		return 0;
	}
	if (prio >= OS_LOWEST_PRIO) {
		*perr = OS_ERR_PRIO_INVALID;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if (OSTCBPrioTbl[prio]) {
		os_exit(me);
		*perr = OS_ERR_PRIO_EXIST;
		return 0;
	}
	OS_EVENT *e = os_event_alloc(OS_EVENT_TYPE_MUTEX);
	if (!e) {
		os_exit(me);
		*perr = OS_ERR_PEVENT_NULL;
		return 0;
	}
	OSTCBPrioTbl[prio] = OS_TCB_RESERVED;
	e->OSEventCnt = (INT16U)((INT16U)prio << 8u | AVAILABLE);
	e->OSEventPtr = 0;
	os_exit(me);
	*perr = OS_ERR_NONE;
	return e;
}

static INT8U pip_of(const OS_EVENT *e)
{
	return (INT8U)(e->OSEventCnt >> 8u);
}

/* Give `t` the mutex: the caller holds the lock. PIP_LOWER when t is more urgent than the
 * PIP (the PIP was chosen too low), as µC/OS-II reports it. */
static INT8U own(OS_EVENT *e, OS_TCB *t)
{
	e->OSEventCnt = (INT16U)((e->OSEventCnt & 0xFF00u) | t->OSTCBPrio);
	e->OSEventPtr = t;
	return t->OSTCBPrio <= pip_of(e) ? OS_ERR_PIP_LOWER : OS_ERR_NONE;
}

void OSMutexPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr)
{
	INT8U r = os_pend_check(pevent, OS_EVENT_TYPE_MUTEX);
	if (r != OS_ERR_NONE) {
		*perr = r;
		return;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if ((pevent->OSEventCnt & AVAILABLE) == AVAILABLE) {
		*perr = own(pevent, me);
		os_exit(me);
		return;
	}
	INT8U pip = pip_of(pevent);
	INT8U mprio = (INT8U)(pevent->OSEventCnt & AVAILABLE);
	OS_TCB *owner = pevent->OSEventPtr;
	if (owner->OSTCBPrio > pip && mprio > me->OSTCBPrio) {
		/* the owner runs at the PIP until it posts */
		OSTCBPrioTbl[pip] = owner;
		os_task_move_prio(owner, pip, me);
	}
	me->OSTCBStat |= OS_STAT_MUTEX;
	os_event_wait(pevent, me);
	os_block(me, timeout); /* a post makes this task the owner before readying it */
	*perr = os_pend_result(me);
}

INT8U OSMutexPost(OS_EVENT *pevent)
{
	if (OSIntNesting > 0u)
		return OS_ERR_POST_ISR;
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_MUTEX)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	if (pevent->OSEventPtr != me) {
		os_exit(me);
		return OS_ERR_NOT_MUTEX_OWNER;
	}
	INT8U pip = pip_of(pevent);
	INT8U own_prio = (INT8U)(pevent->OSEventCnt & AVAILABLE);
	if (me->OSTCBPrio == pip) { /* raised: back to its own priority */
		OSTCBPrioTbl[pip] = OS_TCB_RESERVED;
		os_task_move_prio(me, own_prio, me);
	}
	INT8U r = OS_ERR_NONE;
	int p = os_bit_first(pevent->OSEventTbl);
	if (p >= 0) {
		OS_TCB *t = OSTCBPrioTbl[p];
		r = own(pevent, t);
		os_ready(t, 0, OS_STAT_PEND_OK);
	} else {
		pevent->OSEventCnt |= AVAILABLE;
		pevent->OSEventPtr = 0;
	}
	os_exit(me); /* the new owner, if more urgent, runs now */
	return r;
}

BOOLEAN OSMutexAccept(OS_EVENT *pevent, INT8U *perr)
{
	if (!pevent) {
		*perr = OS_ERR_PEVENT_NULL;
		return OS_FALSE;
	}
	if (pevent->OSEventType != OS_EVENT_TYPE_MUTEX) {
		*perr = OS_ERR_EVENT_TYPE;
		return OS_FALSE;
	}
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_PEND_ISR;
		return OS_FALSE;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	BOOLEAN got = OS_FALSE;
	*perr = OS_ERR_NONE;
	if ((pevent->OSEventCnt & AVAILABLE) == AVAILABLE) {
		*perr = own(pevent, me);
		got = OS_TRUE;
	}
	os_exit(me);
	return got;
}

/* Deleting: a raised owner goes back to its own priority; the PIP is free again. */
static void release(OS_EVENT *e)
{
	INT8U pip = pip_of(e);
	OS_TCB *owner = e->OSEventPtr;
	if (owner && owner->OSTCBPrio == pip)
		os_task_move_prio(owner, (INT8U)(e->OSEventCnt & AVAILABLE), os_cur());
	OSTCBPrioTbl[pip] = 0;
	e->OSEventPtr = 0;
}

OS_EVENT *OSMutexDel(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_del(pevent, OS_EVENT_TYPE_MUTEX, opt, perr, release);
}

INT8U OSMutexQuery(OS_EVENT *pevent, OS_MUTEX_DATA *p_mutex_data)
{
	if (OSIntNesting > 0u)
		return OS_ERR_QUERY_ISR;
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (!p_mutex_data)
		return OS_ERR_PDATA_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_MUTEX)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	p_mutex_data->OSMutexPIP = pip_of(pevent);
	p_mutex_data->OSOwnerPrio = (INT8U)(pevent->OSEventCnt & AVAILABLE);
	p_mutex_data->OSValue = p_mutex_data->OSOwnerPrio == 0xFFu ? OS_TRUE : OS_FALSE;
	p_mutex_data->OSEventGrp = pevent->OSEventGrp;
	for (unsigned i = 0; i < OS_EVENT_TBL_SIZE; i++)
		p_mutex_data->OSEventTbl[i] = pevent->OSEventTbl[i];
	os_exit(me);
	return OS_ERR_NONE;
}
