/*
 * Semaphores and mailboxes (docs/compat.md, "µC/OS-II"): the count or the message lives in
 * the event control block; a post to a waiting task hands it over directly (the highest-
 * priority waiter, as µC/OS-II), and the task's native semaphore wakes it.
 */
#include "os_internal.h"

/* ---- semaphores ---- */

OS_EVENT *OSSemCreate(INT16U cnt)
{
	if (OSIntNesting > 0u)
		return 0;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_EVENT *e = os_event_alloc(OS_EVENT_TYPE_SEM);
	if (e)
		e->OSEventCnt = cnt;
	os_exit(me);
	return e;
}

void OSSemPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr)
{
	INT8U r = os_pend_check(pevent, OS_EVENT_TYPE_SEM);
	if (r != OS_ERR_NONE) {
		*perr = r;
		return;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if (pevent->OSEventCnt > 0u) {
		pevent->OSEventCnt--;
		os_exit(me);
		*perr = OS_ERR_NONE;
		return;
	}
	me->OSTCBStat |= OS_STAT_SEM;
	os_event_wait(pevent, me);
	os_block(me, timeout);
	*perr = os_pend_result(me);
}

INT8U OSSemPost(OS_EVENT *pevent)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_SEM)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	INT8U r = OS_ERR_NONE;
	if (!os_event_ready_first(pevent, 0, OS_STAT_PEND_OK)) {
		if (pevent->OSEventCnt < 65535u)
			pevent->OSEventCnt++;
		else
			r = OS_ERR_SEM_OVF;
	}
	os_exit(me); /* a readied task of higher priority runs now */
	return r;
}

INT16U OSSemAccept(OS_EVENT *pevent)
{
	if (!pevent || pevent->OSEventType != OS_EVENT_TYPE_SEM)
		return 0;
	OS_TCB *me = os_me();
	os_enter(me);
	INT16U c = pevent->OSEventCnt;
	if (c > 0u)
		pevent->OSEventCnt--;
	os_exit(me);
	return c;
}

OS_EVENT *OSSemDel(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_del(pevent, OS_EVENT_TYPE_SEM, opt, perr, 0);
}

INT8U OSSemPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_abort(pevent, OS_EVENT_TYPE_SEM, opt, perr);
}

static void copy_tbl(uint64_t *dst, const uint64_t *src)
{
	for (unsigned i = 0; i < OS_EVENT_TBL_SIZE; i++)
		dst[i] = src[i];
}

INT8U OSSemQuery(OS_EVENT *pevent, OS_SEM_DATA *p_sem_data)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (!p_sem_data)
		return OS_ERR_PDATA_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_SEM)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	p_sem_data->OSCnt = pevent->OSEventCnt;
	p_sem_data->OSEventGrp = pevent->OSEventGrp;
	copy_tbl(p_sem_data->OSEventTbl, pevent->OSEventTbl);
	os_exit(me);
	return OS_ERR_NONE;
}

/* A count can be set while no task waits (V2.9x: OS_ERR_TASK_WAITING otherwise, unless the
 * count is nonzero, which means nobody waits anyway). */
void OSSemSet(OS_EVENT *pevent, INT16U cnt, INT8U *perr)
{
	if (!pevent || pevent->OSEventType != OS_EVENT_TYPE_SEM) {
		*perr = pevent ? OS_ERR_EVENT_TYPE : OS_ERR_PEVENT_NULL;
		return;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	*perr = OS_ERR_NONE;
	if (pevent->OSEventCnt > 0u || !pevent->OSEventGrp)
		pevent->OSEventCnt = cnt;
	else
		*perr = OS_ERR_TASK_WAITING;
	os_exit(me);
}

/* ---- mailboxes: OSEventPtr holds the message (NULL: empty) ---- */

OS_EVENT *OSMboxCreate(void *pmsg)
{
	if (OSIntNesting > 0u)
		return 0;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_EVENT *e = os_event_alloc(OS_EVENT_TYPE_MBOX);
	if (e)
		e->OSEventPtr = pmsg;
	os_exit(me);
	return e;
}

void *OSMboxPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr)
{
	INT8U r = os_pend_check(pevent, OS_EVENT_TYPE_MBOX);
	if (r != OS_ERR_NONE) {
		*perr = r;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	void *m = pevent->OSEventPtr;
	if (m) {
		pevent->OSEventPtr = 0;
		os_exit(me);
		*perr = OS_ERR_NONE;
		return m;
	}
	me->OSTCBStat |= OS_STAT_MBOX;
	me->OSTCBMsg = 0;
	os_event_wait(pevent, me);
	os_block(me, timeout);
	*perr = os_pend_result(me);
	m = *perr == OS_ERR_NONE ? me->OSTCBMsg : 0;
	me->OSTCBMsg = 0;
	return m;
}

INT8U OSMboxPostOpt(OS_EVENT *pevent, void *pmsg, INT8U opt)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (!pmsg)
		return OS_ERR_POST_NULL_PTR;
	if (pevent->OSEventType != OS_EVENT_TYPE_MBOX)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	INT8U r = OS_ERR_NONE;
	if (pevent->OSEventGrp) {
		if (opt & OS_POST_OPT_BROADCAST)
			while (os_event_ready_first(pevent, pmsg, OS_STAT_PEND_OK))
				;
		else
			os_event_ready_first(pevent, pmsg, OS_STAT_PEND_OK);
	} else if (pevent->OSEventPtr) {
		r = OS_ERR_MBOX_FULL;
	} else {
		pevent->OSEventPtr = pmsg;
	}
	os_exit(me); /* OS_POST_OPT_NO_SCHED is not deferred: a readied task runs now */
	return r;
}

INT8U OSMboxPost(OS_EVENT *pevent, void *pmsg)
{
	return OSMboxPostOpt(pevent, pmsg, OS_POST_OPT_NONE);
}

void *OSMboxAccept(OS_EVENT *pevent)
{
	if (!pevent || pevent->OSEventType != OS_EVENT_TYPE_MBOX)
		return 0;
	OS_TCB *me = os_me();
	os_enter(me);
	void *m = pevent->OSEventPtr;
	pevent->OSEventPtr = 0;
	os_exit(me);
	return m;
}

OS_EVENT *OSMboxDel(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_del(pevent, OS_EVENT_TYPE_MBOX, opt, perr, 0);
}

INT8U OSMboxPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_abort(pevent, OS_EVENT_TYPE_MBOX, opt, perr);
}

INT8U OSMboxQuery(OS_EVENT *pevent, OS_MBOX_DATA *p_mbox_data)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (!p_mbox_data)
		return OS_ERR_PDATA_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_MBOX)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	p_mbox_data->OSMsg = pevent->OSEventPtr;
	p_mbox_data->OSEventGrp = pevent->OSEventGrp;
	copy_tbl(p_mbox_data->OSEventTbl, pevent->OSEventTbl);
	os_exit(me);
	return OS_ERR_NONE;
}
