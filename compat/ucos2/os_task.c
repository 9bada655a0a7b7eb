/*
 * µC/OS-II tasks on Partita threads (docs/compat.md, "µC/OS-II"). The unique-priority rule is
 * the layer's OSTCBPrioTbl, as on µC/OS-II: one task (or a mutex's reserved PIP) per priority.
 * Every state change is made holding the layer's lock, then applied to the thread.
 */
#include <partita/config.h> /* PT_KIND_APERIODIC */
#include "os_internal.h"

extern OS_TCB os_idle_tcb;

static OS_TCB tcb_pool[OS_MAX_TASKS];
static OS_TCB *tcb_free;  /* free records, linked (O(1) create whatever the task count) */
static uint8_t pool_ready;

#define RESERVED OS_TCB_RESERVED

static int live(const OS_TCB *t)
{
	return t && t != RESERVED && t->OSTCBMagic == OS_PARTITA_TCB_MAGIC;
}

/* Every task starts here; a task function that returns deletes its task (V2.9x's
 * OS_TaskReturn). */
static void trampoline(void *arg)
{
	OS_TCB *t = arg;
	t->OSTCBTask(t->OSTCBArg);
	OSTaskDel(OS_PRIO_SELF);
}

static unsigned stack_bytes(uint64_t b)
{
	b = (b + PT_PAGE_BYTES - 1) & ~(uint64_t)(PT_PAGE_BYTES - 1);
	return b < PT_MIN_STACK_BYTES ? PT_MIN_STACK_BYTES : b > PT_MAX_STACK_BYTES ? PT_MAX_STACK_BYTES
										   : (unsigned)b;
}

static INT8U create_locked(OS_TCB *me, void (*task)(void *), void *p_arg, INT8U prio, INT16U id,
			   INT32U stk_size, void *pext, INT16U opt, uint64_t stack);

static INT8U create(void (*task)(void *), void *p_arg, INT8U prio, INT16U id, INT32U stk_size,
		    void *pext, INT16U opt, uint64_t stack)
{
	if (prio > OS_LOWEST_PRIO)
		return OS_ERR_PRIO_INVALID;
	if (OSIntNesting > 0u)
		return OS_ERR_TASK_CREATE_ISR;
	OS_TCB *me = os_me();
	/* at the ceiling: the new task, whatever its priority, starts only when the record is
	 * complete and the lock free (at once when it is more urgent: µC/OS-II's OS_Sched) */
	os_crit_enter(me);
	INT8U r = create_locked(me, task, p_arg, prio, id, stk_size, pext, opt, stack);
	os_crit_exit(me);
	return r;
}

static INT8U create_locked(OS_TCB *me, void (*task)(void *), void *p_arg, INT8U prio, INT16U id,
			   INT32U stk_size, void *pext, INT16U opt, uint64_t stack)
{
	os_enter(me);
	if (OSTCBPrioTbl[prio]) {
		os_exit(me);
		return OS_ERR_PRIO_EXIST;
	}
	if (!pool_ready) {
		for (int i = (int)(OS_MAX_TASKS) - 1; i >= 0; i--) {
			tcb_pool[i].OSTCBNextFree = tcb_free;
			tcb_free = &tcb_pool[i];
		}
		pool_ready = 1;
	}
	OS_TCB *t = tcb_free;
	if (!t) {
		os_exit(me);
		return OS_ERR_TASK_NO_MORE_TCB;
	}
	OS_TCB *next = t->OSTCBNextFree;
	*t = (OS_TCB){0};
	t->OSTCBTask = task;
	t->OSTCBArg = p_arg;
	t->OSTCBPrio = prio;
	t->OSTCBOwnPrio = prio;
	t->OSTCBId = id;
	t->OSTCBStkSize = stk_size;
	t->OSTCBExtPtr = pext;
	t->OSTCBOpt = opt;
	t->OSTCBSem = -1;
	t->OSTCBTaskName[0] = '?';
	char name[PT_THREAD_NAME_MAX + 1] = "ucos_p";
	int k = 6, v = prio;
	if (v >= 100)
		name[k++] = (char)('0' + v / 100);
	if (v >= 10)
		name[k++] = (char)('0' + v / 10 % 10);
	name[k++] = (char)('0' + v % 10);
	name[k] = 0;
	struct pt_thread_attr a = {
		.name = name, .entry = trampoline, .arg = t, .priority = (uint16_t)os_native_prio(prio),
		.cpu = -1, .sched = -1, .kind = PT_KIND_APERIODIC, .stack_bytes = stack_bytes(stack),
	};
	int tid = pt_thread_create(&a);
	if (tid < 0) {
		t->OSTCBNextFree = next;
		os_exit(me);
		return OS_ERR_TASK_NO_MORE_TCB;
	}
	tcb_free = next;
	t->OSTCBTid = tid;
	t->OSTCBMagic = OS_PARTITA_TCB_MAGIC;
	OSTCBPrioTbl[prio] = t;
	os_register(t);
	os_exit(me);
	return OS_ERR_NONE;
}

INT8U OSTaskCreate(void (*task)(void *p_arg), void *p_arg, OS_STK *ptos, INT8U prio)
{
	(void)ptos; /* the stack is the thread's own (the partition's colored pages, a guard page) */
	return create(task, p_arg, prio, 0, 0, 0, OS_TASK_OPT_NONE, OS_PARTITA_TASK_STK_BYTES);
}

INT8U OSTaskCreateExt(void (*task)(void *p_arg), void *p_arg, OS_STK *ptos, INT8U prio,
		      INT16U id, OS_STK *pbos, INT32U stk_size, void *pext, INT16U opt)
{
	(void)ptos, (void)pbos;
	return create(task, p_arg, prio, id, stk_size, pext, opt, (uint64_t)stk_size * sizeof(OS_STK));
}

/* The task at `prio` (OS_PRIO_SELF: the caller), RESERVED, or NULL. */
static OS_TCB *at(INT8U prio, OS_TCB *me)
{
	return prio == OS_PRIO_SELF ? me : OSTCBPrioTbl[prio];
}

INT8U OSTaskDel(INT8U prio)
{
	if (OSIntNesting > 0u)
		return OS_ERR_TASK_DEL_ISR;
	if (prio == OS_TASK_IDLE_PRIO)
		return OS_ERR_TASK_DEL_IDLE;
	if (prio >= OS_LOWEST_PRIO && prio != OS_PRIO_SELF)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_TCB *t = at(prio, me);
	if (!t) {
		os_exit(me);
		return OS_ERR_TASK_NOT_EXIST;
	}
	if (t == RESERVED) {
		os_exit(me);
		return OS_ERR_TASK_DEL;
	}
	if (t == &os_idle_tcb) {
		os_exit(me);
		return OS_ERR_TASK_DEL_IDLE;
	}
	os_unwait(t);
	t->OSTCBWaiting = 0;
	OSTCBPrioTbl[t->OSTCBOwnPrio] = 0;
	if (t->OSTCBPrio != t->OSTCBOwnPrio) /* it ran at a mutex's PIP: the PIP stays reserved */
		OSTCBPrioTbl[t->OSTCBPrio] = RESERVED;
	t->OSTCBMagic = 0;
	os_unregister(t);
	int sem = t->OSTCBSem, tid = t->OSTCBTid;
	t->OSTCBTid = 0;
	t->OSTCBNextFree = tcb_free; /* the record is free for the next create */
	tcb_free = t;
	if (t == me) {
		/* a task deleting itself with the scheduler locked leaves it locked for nobody */
		OSLockNesting = 0;
		if (sem >= 0)
			pt_sem_delete(sem);
		os_crit_enter(me); /* nothing of the world runs between the release and the end */
		me->OSTCBLockNest = 1;
		os_exit(me);
		pt_thread_delete(0); /* does not return */
	}
	pt_thread_delete(tid);
	if (sem >= 0)
		pt_sem_delete(sem);
	os_exit(me);
	return OS_ERR_NONE;
}

INT8U OSTaskDelReq(INT8U prio)
{
	if (prio == OS_TASK_IDLE_PRIO)
		return OS_ERR_TASK_DEL_IDLE;
	if (prio >= OS_LOWEST_PRIO && prio != OS_PRIO_SELF)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	if (prio == OS_PRIO_SELF)
		return me->OSTCBDelReq;
	os_enter(me);
	OS_TCB *t = OSTCBPrioTbl[prio];
	INT8U r = OS_ERR_NONE;
	if (!t)
		r = OS_ERR_TASK_NOT_EXIST;
	else if (t == RESERVED)
		r = OS_ERR_TASK_DEL;
	else
		t->OSTCBDelReq = OS_ERR_TASK_DEL_REQ;
	os_exit(me);
	return r;
}

INT8U OSTaskSuspend(INT8U prio)
{
	if (prio == OS_TASK_IDLE_PRIO)
		return OS_ERR_TASK_SUSPEND_IDLE;
	if (prio >= OS_LOWEST_PRIO && prio != OS_PRIO_SELF)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_TCB *t = at(prio, me);
	if (!t) {
		os_exit(me);
		return OS_ERR_TASK_SUSPEND_PRIO;
	}
	if (t == RESERVED) {
		os_exit(me);
		return OS_ERR_TASK_NOT_EXIST;
	}
	if (t != me) {
		if (!(t->OSTCBStat & OS_STAT_SUSPEND)) {
			pt_thread_suspend(t->OSTCBTid);
			/* a task taking the layer's lock (it preempted this caller inside the lock
			 * and called the layer; checked after the suspension, which it can no
			 * longer race) would be suspended holding it, stopping the world: the
			 * suspension is withdrawn and the task suspends itself once it has the
			 * lock, after releasing it */
			if (t->OSTCBAtLock) {
				pt_thread_resume(t->OSTCBTid);
				t->OSTCBSuspendAtLock = 1;
			}
		}
		t->OSTCBStat |= OS_STAT_SUSPEND;
		os_exit(me);
		return OS_ERR_NONE;
	}
	t->OSTCBStat |= OS_STAT_SUSPEND;
	/* the caller suspends itself at the ceiling, so no resume can come between the lock's
	 * release and the suspension (it runs at the ceiling again when resumed, then leaves it) */
	os_crit_enter(me);
	os_exit(me);
	pt_thread_suspend(0);
	os_crit_exit(me);
	return OS_ERR_NONE;
}

INT8U OSTaskResume(INT8U prio)
{
	if (prio >= OS_LOWEST_PRIO)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_TCB *t = OSTCBPrioTbl[prio];
	INT8U r = OS_ERR_NONE;
	if (!t)
		r = OS_ERR_TASK_RESUME_PRIO;
	else if (t == RESERVED)
		r = OS_ERR_TASK_NOT_EXIST;
	else if (!(t->OSTCBStat & OS_STAT_SUSPEND))
		r = OS_ERR_TASK_NOT_SUSPENDED;
	else {
		t->OSTCBStat &= (INT8U)~OS_STAT_SUSPEND;
		/* a task still delayed or pending stays blocked: the native suspension of a
		 * blocked thread only takes effect when its wait ends, and resume cancels it */
		if (t->OSTCBSuspendAtLock)
			t->OSTCBSuspendAtLock = 0; /* never suspended: it still waits for the lock */
		else
			pt_thread_resume(t->OSTCBTid);
	}
	os_exit(me);
	return r;
}

/* Move t to priority `p`: its slot, its place in a wait bitmap, its thread's level. */
static void move_prio(OS_TCB *t, INT8U p, OS_TCB *me)
{
	OS_EVENT *e = t->OSTCBEventPtr;
	OS_FLAG_GRP *g = t->OSTCBFlagGrp;
	if (e)
		os_bit_clr(e->OSEventTbl, t->OSTCBPrio);
	if (g)
		os_bit_clr(g->OSFlagWaitTbl, t->OSTCBPrio);
	t->OSTCBPrio = p;
	if (e)
		os_bit_set(e->OSEventTbl, p);
	if (g)
		os_bit_set(g->OSFlagWaitTbl, p);
	os_apply_prio(t, me);
}

/* Used by os_mutex.c: raise the owner to the PIP (slot taken over) and back. */
void os_task_move_prio(OS_TCB *t, INT8U p, OS_TCB *me)
{
	move_prio(t, p, me);
}

INT8U OSTaskChangePrio(INT8U oldprio, INT8U newprio)
{
	if ((oldprio >= OS_LOWEST_PRIO && oldprio != OS_PRIO_SELF) || newprio >= OS_LOWEST_PRIO)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	os_enter(me);
	if (OSTCBPrioTbl[newprio]) {
		os_exit(me);
		return OS_ERR_PRIO_EXIST;
	}
	OS_TCB *t = at(oldprio, me);
	if (!t) {
		os_exit(me);
		return OS_ERR_PRIO;
	}
	if (t == RESERVED) {
		os_exit(me);
		return OS_ERR_TASK_NOT_EXIST;
	}
	OSTCBPrioTbl[t->OSTCBOwnPrio] = 0;
	OSTCBPrioTbl[newprio] = t;
	t->OSTCBOwnPrio = newprio;
	move_prio(t, newprio, me);
	os_exit(me); /* a task of higher priority than the caller now runs */
	return OS_ERR_NONE;
}

INT8U OSTaskQuery(INT8U prio, OS_TCB *p_task_data)
{
	if (prio > OS_LOWEST_PRIO && prio != OS_PRIO_SELF)
		return OS_ERR_PRIO_INVALID;
	if (!p_task_data)
		return OS_ERR_PDATA_NULL;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_TCB *t = at(prio, me);
	INT8U r = OS_ERR_NONE;
	if (!t)
		r = OS_ERR_PRIO;
	else if (t == RESERVED)
		r = OS_ERR_TASK_NOT_EXIST;
	else {
		*p_task_data = *t;
		uint64_t now = os_ticks64();
		p_task_data->OSTCBDly = t->OSTCBDlyUntil > now ? (INT32U)(t->OSTCBDlyUntil - now) : 0;
	}
	os_exit(me);
	return r;
}

INT8U OSTaskNameGet(INT8U prio, INT8U **pname, INT8U *perr)
{
	if (prio > OS_LOWEST_PRIO && prio != OS_PRIO_SELF)
		return *perr = OS_ERR_PRIO_INVALID, 0;
	if (!pname)
		return *perr = OS_ERR_PNAME_NULL, 0;
	if (OSIntNesting > 0u)
		return *perr = OS_ERR_NAME_GET_ISR, 0;
	OS_TCB *me = os_me();
	OS_TCB *t = at(prio, me);
	if (!live(t))
		return *perr = OS_ERR_TASK_NOT_EXIST, 0;
	*pname = t->OSTCBTaskName;
	INT8U n = 0;
	while (t->OSTCBTaskName[n])
		n++;
	*perr = OS_ERR_NONE;
	return n;
}

/* Keeps the first OS_TASK_NAME_SIZE - 1 characters (V2.9x keeps the caller's pointer; a
 * copy survives a caller's stack buffer). */
void OSTaskNameSet(INT8U prio, INT8U *pname, INT8U *perr)
{
	if (prio > OS_LOWEST_PRIO && prio != OS_PRIO_SELF) {
		*perr = OS_ERR_PRIO_INVALID;
		return;
	}
	if (!pname) {
		*perr = OS_ERR_PNAME_NULL;
		return;
	}
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_NAME_SET_ISR;
		return;
	}
	OS_TCB *me = os_me();
	OS_TCB *t = at(prio, me);
	if (!live(t)) {
		*perr = OS_ERR_TASK_NOT_EXIST;
		return;
	}
	int i = 0;
	for (; pname[i] && i < OS_TASK_NAME_SIZE - 1; i++)
		t->OSTCBTaskName[i] = pname[i];
	t->OSTCBTaskName[i] = 0;
	*perr = OS_ERR_NONE;
}

/* ---- delays ---- */

void OSTimeDly(INT32U ticks)
{
	if (OSIntNesting > 0u || OSLockNesting > 0u || ticks == 0)
		return;
	OS_TCB *me = os_me();
	os_enter(me);
	os_block(me, ticks); /* ends at its timeout, or early by OSTimeDlyResume */
	me->OSTCBStatPend = OS_STAT_PEND_OK;
}

INT8U OSTimeDlyHMSM(INT8U hours, INT8U minutes, INT8U seconds, INT16U ms)
{
	if (OSIntNesting > 0u)
		return OS_ERR_TIME_DLY_ISR;
	if (OSLockNesting > 0u)
		return OS_ERR_SCHED_LOCKED;
	if (hours == 0 && minutes == 0 && seconds == 0 && ms == 0)
		return OS_ERR_TIME_ZERO_DLY;
	if (minutes > 59u)
		return OS_ERR_TIME_INVALID_MINUTES;
	if (seconds > 59u)
		return OS_ERR_TIME_INVALID_SECONDS;
	if (ms > 999u)
		return OS_ERR_TIME_INVALID_MS;
	/* milliseconds round to the nearest tick */
	uint64_t ticks = ((uint64_t)hours * 3600u + (uint64_t)minutes * 60u + seconds) * (OS_TICKS_PER_SEC) +
			 ((uint64_t)ms * (OS_TICKS_PER_SEC) + 500u) / 1000u;
	OSTimeDly((INT32U)ticks);
	return OS_ERR_NONE;
}

INT8U OSTimeDlyResume(INT8U prio)
{
	if (prio >= OS_LOWEST_PRIO)
		return OS_ERR_PRIO_INVALID;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_TCB *t = OSTCBPrioTbl[prio];
	INT8U r = OS_ERR_NONE;
	if (!t)
		r = OS_ERR_TASK_NOT_EXIST;
	else if (t == RESERVED)
		r = OS_ERR_TASK_NOT_EXIST;
	else if (!t->OSTCBWaiting || !t->OSTCBDlyUntil)
		r = OS_ERR_TIME_NOT_DLY;
	else /* a pend with a timeout ends as a timeout, as on µC/OS-II */
		os_ready(t, 0, (t->OSTCBStat & OS_STAT_PEND_ANY) ? OS_STAT_PEND_TO : OS_STAT_PEND_OK);
	os_exit(me);
	return r;
}
