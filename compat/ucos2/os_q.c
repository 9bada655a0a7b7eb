/*
 * Message queues (docs/compat.md, "µC/OS-II"): a ring of pointers in the application's own
 * array, as µC/OS-II; a post to a waiting task hands the message to the highest-priority
 * waiter directly (or to all of them: OS_POST_OPT_BROADCAST).
 */
#include "os_internal.h"

static OS_Q q_pool[OS_MAX_QS];
static uint8_t q_used[OS_MAX_QS];

OS_EVENT *OSQCreate(void **start, INT16U size)
{
	if (OSIntNesting > 0u || !start || size == 0u)
		return 0;
	OS_TCB *me = os_me();
	os_enter(me);
	int i = 0;
	while (i < (int)(OS_MAX_QS) && q_used[i])
		i++;
	OS_EVENT *e = i < (int)(OS_MAX_QS) ? os_event_alloc(OS_EVENT_TYPE_Q) : 0;
	if (e) {
		OS_Q *q = &q_pool[i];
		q_used[i] = 1;
		q->OSQPtr = 0;
		q->OSQStart = q->OSQIn = q->OSQOut = start;
		q->OSQEnd = start + size;
		q->OSQSize = size;
		q->OSQEntries = 0;
		e->OSEventPtr = q;
	}
	os_exit(me);
	return e;
}

static void *take(OS_Q *q)
{
	void *m = *q->OSQOut++;
	if (q->OSQOut == q->OSQEnd)
		q->OSQOut = q->OSQStart;
	q->OSQEntries--;
	return m;
}

void *OSQPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr)
{
	INT8U r = os_pend_check(pevent, OS_EVENT_TYPE_Q);
	if (r != OS_ERR_NONE) {
		*perr = r;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	OS_Q *q = pevent->OSEventPtr;
	if (q->OSQEntries > 0u) {
		void *m = take(q);
		os_exit(me);
		*perr = OS_ERR_NONE;
		return m;
	}
	me->OSTCBStat |= OS_STAT_Q;
	me->OSTCBMsg = 0;
	os_event_wait(pevent, me);
	os_block(me, timeout);
	*perr = os_pend_result(me);
	void *m = *perr == OS_ERR_NONE ? me->OSTCBMsg : 0;
	me->OSTCBMsg = 0;
	return m;
}

INT8U OSQPostOpt(OS_EVENT *pevent, void *pmsg, INT8U opt)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_Q)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	INT8U r = OS_ERR_NONE;
	OS_Q *q = pevent->OSEventPtr;
	if (pevent->OSEventGrp) {
		if (opt & OS_POST_OPT_BROADCAST)
			while (os_event_ready_first(pevent, pmsg, OS_STAT_PEND_OK))
				;
		else
			os_event_ready_first(pevent, pmsg, OS_STAT_PEND_OK);
	} else if (q->OSQEntries >= q->OSQSize) {
		r = OS_ERR_Q_FULL;
	} else if (opt & OS_POST_OPT_FRONT) { /* LIFO: the next one out */
		if (q->OSQOut == q->OSQStart)
			q->OSQOut = q->OSQEnd;
		*--q->OSQOut = pmsg;
		q->OSQEntries++;
	} else {
		*q->OSQIn++ = pmsg;
		if (q->OSQIn == q->OSQEnd)
			q->OSQIn = q->OSQStart;
		q->OSQEntries++;
	}
	os_exit(me); /* OS_POST_OPT_NO_SCHED is not deferred: a readied task runs now */
	return r;
}

INT8U OSQPost(OS_EVENT *pevent, void *pmsg)
{
	return OSQPostOpt(pevent, pmsg, OS_POST_OPT_NONE);
}

INT8U OSQPostFront(OS_EVENT *pevent, void *pmsg)
{
	return OSQPostOpt(pevent, pmsg, OS_POST_OPT_FRONT);
}

void *OSQAccept(OS_EVENT *pevent, INT8U *perr)
{
	if (!pevent || pevent->OSEventType != OS_EVENT_TYPE_Q) {
		*perr = pevent ? OS_ERR_EVENT_TYPE : OS_ERR_PEVENT_NULL;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	OS_Q *q = pevent->OSEventPtr;
	void *m = 0;
	*perr = OS_ERR_Q_EMPTY;
	if (q->OSQEntries > 0u) {
		m = take(q);
		*perr = OS_ERR_NONE;
	}
	os_exit(me);
	return m;
}

INT8U OSQFlush(OS_EVENT *pevent)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_Q)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_Q *q = pevent->OSEventPtr;
	q->OSQIn = q->OSQOut = q->OSQStart;
	q->OSQEntries = 0;
	os_exit(me);
	return OS_ERR_NONE;
}

static void release(OS_EVENT *e)
{
	q_used[(OS_Q *)e->OSEventPtr - q_pool] = 0;
	e->OSEventPtr = 0;
}

OS_EVENT *OSQDel(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_del(pevent, OS_EVENT_TYPE_Q, opt, perr, release);
}

INT8U OSQPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr)
{
	return os_event_abort(pevent, OS_EVENT_TYPE_Q, opt, perr);
}

INT8U OSQQuery(OS_EVENT *pevent, OS_Q_DATA *p_q_data)
{
	if (!pevent)
		return OS_ERR_PEVENT_NULL;
	if (!p_q_data)
		return OS_ERR_PDATA_NULL;
	if (pevent->OSEventType != OS_EVENT_TYPE_Q)
		return OS_ERR_EVENT_TYPE;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_Q *q = pevent->OSEventPtr;
	p_q_data->OSMsg = q->OSQEntries ? *q->OSQOut : 0;
	p_q_data->OSNMsgs = q->OSQEntries;
	p_q_data->OSQSize = q->OSQSize;
	p_q_data->OSEventGrp = pevent->OSEventGrp;
	for (unsigned i = 0; i < OS_EVENT_TBL_SIZE; i++)
		p_q_data->OSEventTbl[i] = pevent->OSEventTbl[i];
	os_exit(me);
	return OS_ERR_NONE;
}
