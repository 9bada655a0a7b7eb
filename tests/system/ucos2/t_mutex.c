/* Mutexes: the reserved PIP, priority inheritance as µC/OS-II does it (the owner runs at the
 * PIP while a more urgent task waits), ownership handed to the waiter, no recursion; every
 * error code of a bad call. */
#include <partita/api.h>
#include "uctest.h"

#define PIP 6u
static OS_STK stk[64];
static OS_EVENT *mx;
static volatile int go, l_counter;
static volatile INT8U h_err, low_err, post_err;

static void low_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	OSMutexPend(mx, 0, &err);
	uc_log_put(30);
	while (!go) {
		l_counter++;
		OSTimeDly(1);
	}
	post_err = OSMutexPost(mx);
	uc_log_put(31);
	OSTaskDel(OS_PRIO_SELF);
}

static void high_task(void *p_arg)
{
	(void)p_arg;
	OSMutexPend(mx, 0, (INT8U *)&h_err);
	uc_log_put(8);
	OSMutexPost(mx);
	OSTaskDel(OS_PRIO_SELF);
}

static void above_pip_task(void *p_arg)
{
	(void)p_arg;
	OSMutexPend(mx, 0, (INT8U *)&low_err);
	OSMutexPost(mx);
	OSTaskDel(OS_PRIO_SELF);
}

static void waiter_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	OSMutexPend(mx, 0, &err);
	h_err = err;
	OSTaskDel(OS_PRIO_SELF);
}

static void dummy_task(void *p_arg)
{
	(void)p_arg;
	OSTaskDel(OS_PRIO_SELF);
}

void uc_test_mutex(void)
{
	INT8U err;
	OS_MUTEX_DATA md;
	OS_TCB q;
	OSMutexCreate(UC_PRIO_TEST, &err);
	UC_EQ("mutex_create_prio_exist", err, OS_ERR_PRIO_EXIST);
	OSMutexCreate(OS_LOWEST_PRIO, &err);
	UC_EQ("mutex_create_prio_invalid", err, OS_ERR_PRIO_INVALID);
	mx = OSMutexCreate(PIP, &err);
	UC_EQ("mutex_create", err, OS_ERR_NONE);
	UC_EQ("mutex_pip_reserved", OSTaskCreate(dummy_task, 0, stk, PIP), OS_ERR_PRIO_EXIST);
	UC_EQ("mutex_pip_no_task", OSTaskQuery(PIP, &q), OS_ERR_TASK_NOT_EXIST);
	UC_EQ("mutex_post_not_owner", OSMutexPost(mx), OS_ERR_NOT_MUTEX_OWNER);

	/* inheritance: L (30) owns, H (8) waits: L runs at the PIP until it posts, H owns next */
	uc_log_reset();
	go = 0;
	OSTaskCreate(low_task, 0, stk, 30u);
	OSTimeDly(1);
	OSMutexQuery(mx, &md);
	uc_check("mutex_owned", !md.OSValue && md.OSOwnerPrio == 30u && md.OSMutexPIP == PIP, md.OSOwnerPrio);
	OSTaskCreate(high_task, 0, stk, 8u);
	OSTaskQuery(30u, &q);
	int native = pt_thread_priority(q.OSTCBTid);
	uc_check("mutex_owner_raised_to_pip", q.OSTCBPrio == PIP && native == 32 + 1 + (int)PIP, native);
	uc_check("mutex_pip_slot_is_owner", OSTaskQuery(PIP, &q) == OS_ERR_NONE && q.OSTCBId == 0 &&
		 q.OSTCBPrio == PIP, q.OSTCBPrio);
	OSMutexQuery(mx, &md);
	uc_check("mutex_query_waiter", md.OSEventGrp && (md.OSEventTbl[0] >> 8 & 1) && md.OSOwnerPrio == 30u, 0);
	/* the raised owner runs before this task (10) at every tick now */
	int lc = l_counter;
	OSTimeDly(1);
	uc_check("mutex_raised_owner_runs", l_counter == lc + 1, l_counter - lc);
	go = 1;
	OSTimeDly(2);
	uc_check("mutex_handed_to_waiter", uc_nlog == 3 && uc_log[0] == 30 && uc_log[1] == 8 &&
		 uc_log[2] == 31 && h_err == OS_ERR_NONE && post_err == OS_ERR_NONE,
		 uc_log[1] * 100 + uc_log[2]);
	OSMutexQuery(mx, &md);
	uc_check("mutex_free_again", md.OSValue && md.OSOwnerPrio == 0xFFu, md.OSOwnerPrio);
	UC_EQ("mutex_pip_slot_reserved_again", OSTaskQuery(PIP, &q), OS_ERR_TASK_NOT_EXIST);

	/* a task more urgent than the PIP gets the mutex, and OS_ERR_PIP_LOWER */
	OSTaskCreate(above_pip_task, 0, stk, 4u);
	UC_EQ("mutex_pip_lower", low_err, OS_ERR_PIP_LOWER);

	/* accept, no recursion, deletion */
	UC_EQ("mutex_accept", OSMutexAccept(mx, &err), OS_TRUE);
	UC_EQ("mutex_accept_owned", OSMutexAccept(mx, &err), OS_FALSE);
	INT32U t0 = OSTimeGet();
	OSMutexPend(mx, 3, &err);
	uc_check("mutex_not_recursive", err == OS_ERR_TIMEOUT && OSTimeGet() - t0 == 3, err);
	OSTaskCreate(waiter_task, 0, stk, 12u);
	OSTimeDly(1);
	OSMutexDel(mx, OS_DEL_NO_PEND, &err);
	UC_EQ("mutex_del_task_waiting", err, OS_ERR_TASK_WAITING);
	h_err = 0xEE;
	uc_check("mutex_del_always", OSMutexDel(mx, OS_DEL_ALWAYS, &err) == 0 && err == OS_ERR_NONE, err);
	OSTimeDly(1);
	UC_EQ("mutex_del_waiter_aborted", h_err, OS_ERR_PEND_ABORT);
	UC_EQ("mutex_del_pip_free", OSTaskCreate(dummy_task, 0, stk, PIP), OS_ERR_NONE);
	OSMutexPend(mx, 1, &err);
	UC_EQ("mutex_deleted_event_type", err, OS_ERR_EVENT_TYPE);
	OSMutexPend(0, 1, &err);
	UC_EQ("mutex_pend_null", err, OS_ERR_PEVENT_NULL);
	UC_EQ("mutex_post_null", OSMutexPost(0), OS_ERR_PEVENT_NULL);
	UC_EQ("mutex_post_wrong_type", OSMutexPost(OSSemCreate(1)), OS_ERR_EVENT_TYPE);
	UC_EQ("mutex_query_pdata_null", OSMutexQuery(OSMutexCreate(7u, &err), 0), OS_ERR_PDATA_NULL);
}
