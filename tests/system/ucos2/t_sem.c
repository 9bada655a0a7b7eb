/* Semaphores and mailboxes: counts, timeouts, wake order by priority, broadcast, abort,
 * deletion, queries; every error code of a bad call. */
#include "uctest.h"

static OS_STK stk[64];
static OS_EVENT *sem, *mbox;
static volatile INT8U last_err[64];
static volatile void *got_msg[64];

static void sem_waiter(void *p_arg)
{
	INT8U err, me = (INT8U)(intptr_t)p_arg;
	for (;;) {
		OSSemPend(sem, 0, &err);
		last_err[me] = err;
		uc_log_put(me);
		if (err != OS_ERR_NONE)
			OSTaskDel(OS_PRIO_SELF);
	}
}

static void mbox_waiter(void *p_arg)
{
	INT8U err, me = (INT8U)(intptr_t)p_arg;
	for (;;) {
		void *m = OSMboxPend(mbox, 0, &err);
		last_err[me] = err;
		got_msg[me] = m;
		uc_log_put(me);
		if (err != OS_ERR_NONE)
			OSTaskDel(OS_PRIO_SELF);
	}
}

void uc_test_sem(void)
{
	INT8U err;
	OS_SEM_DATA sd;
	sem = OSSemCreate(2);
	UC_EQ("sem_accept", OSSemAccept(sem), 2);
	UC_EQ("sem_accept_count_left", OSSemAccept(sem), 1);
	UC_EQ("sem_accept_empty", OSSemAccept(sem), 0);
	INT32U t0 = OSTimeGet();
	OSSemPend(sem, 5, &err);
	uc_check("sem_pend_timeout", err == OS_ERR_TIMEOUT && OSTimeGet() - t0 == 5, err);
	OSSemPost(sem);
	OSSemPend(sem, 5, &err);
	UC_EQ("sem_post_pend", err, OS_ERR_NONE);

	/* waiters of priorities 15, 12, 18: each post wakes the most urgent */
	uc_log_reset();
	OSTaskCreate(sem_waiter, (void *)15, stk, 15u);
	OSTaskCreate(sem_waiter, (void *)12, stk, 12u);
	OSTaskCreate(sem_waiter, (void *)18, stk, 18u);
	OSTimeDly(1);
	OSSemQuery(sem, &sd);
	uc_check("sem_query_waiters", sd.OSCnt == 0 && sd.OSEventGrp && (sd.OSEventTbl[0] >> 12 & 1) &&
		 (sd.OSEventTbl[0] >> 15 & 1) && (sd.OSEventTbl[0] >> 18 & 1), sd.OSCnt);
	OSSemSet(sem, 3, &err);
	UC_EQ("sem_set_task_waiting", err, OS_ERR_TASK_WAITING);
	OSSemPost(sem);
	OSSemPost(sem);
	OSSemPost(sem);
	OSTimeDly(1);
	uc_check("sem_wake_order_by_priority", uc_nlog == 3 && uc_log[0] == 12 && uc_log[1] == 15 &&
		 uc_log[2] == 18, uc_log[0] * 10000 + uc_log[1] * 100 + uc_log[2]);
	/* abort: one, then all */
	UC_EQ("sem_abort_one", OSSemPendAbort(sem, OS_PEND_OPT_NONE, &err), 1);
	UC_EQ("sem_abort_err", err, OS_ERR_PEND_ABORT);
	OSTimeDly(1);
	UC_EQ("sem_aborted_task_sees_abort", last_err[12], OS_ERR_PEND_ABORT);
	UC_EQ("sem_abort_all", OSSemPendAbort(sem, OS_PEND_OPT_BROADCAST, &err), 2);
	OSTimeDly(1);
	UC_EQ("sem_abort_none", OSSemPendAbort(sem, OS_PEND_OPT_BROADCAST, &err), 0);
	UC_EQ("sem_abort_none_err", err, OS_ERR_NONE);
	OSSemSet(sem, 65535u, &err);
	UC_EQ("sem_set", err, OS_ERR_NONE);
	UC_EQ("sem_ovf", OSSemPost(sem), OS_ERR_SEM_OVF);
	/* deletion */
	OSSemSet(sem, 0, &err);
	OSTaskCreate(sem_waiter, (void *)16, stk, 16u);
	OSTimeDly(1);
	UC_EQ("sem_del_task_waiting", (OSSemDel(sem, OS_DEL_NO_PEND, &err), err), OS_ERR_TASK_WAITING);
	UC_EQ("sem_del_invalid_opt", (OSSemDel(sem, 9, &err), err), OS_ERR_INVALID_OPT);
	OS_EVENT *r = OSSemDel(sem, OS_DEL_ALWAYS, &err);
	OSTimeDly(1);
	uc_check("sem_del_always", r == 0 && err == OS_ERR_NONE && last_err[16] == OS_ERR_PEND_ABORT, err);
	OSSemPend(sem, 1, &err);
	UC_EQ("sem_deleted_event_type", err, OS_ERR_EVENT_TYPE);
	UC_EQ("sem_deleted_post", OSSemPost(sem), OS_ERR_EVENT_TYPE);
	/* bad calls */
	OSSemPend(0, 1, &err);
	UC_EQ("sem_pend_null", err, OS_ERR_PEVENT_NULL);
	UC_EQ("sem_post_null", OSSemPost(0), OS_ERR_PEVENT_NULL);
	UC_EQ("sem_query_null", OSSemQuery(0, &sd), OS_ERR_PEVENT_NULL);
	OS_EVENT *mb = OSMboxCreate(0);
	OSSemPend(mb, 1, &err);
	UC_EQ("sem_pend_wrong_type", err, OS_ERR_EVENT_TYPE);
	UC_EQ("sem_query_pdata_null", OSSemQuery(OSSemCreate(0), 0), OS_ERR_PDATA_NULL);
	OSMboxDel(mb, OS_DEL_NO_PEND, &err);
}

void uc_test_mbox(void)
{
	INT8U err;
	static int a = 1, b = 2, c = 3;
	OS_MBOX_DATA md;
	mbox = OSMboxCreate(&a);
	UC_EQ("mbox_create_full_post", OSMboxPost(mbox, &b), OS_ERR_MBOX_FULL);
	uc_check("mbox_pend_full", OSMboxPend(mbox, 1, &err) == &a && err == OS_ERR_NONE, err);
	INT32U t0 = OSTimeGet();
	void *m = OSMboxPend(mbox, 4, &err);
	uc_check("mbox_pend_timeout", m == 0 && err == OS_ERR_TIMEOUT && OSTimeGet() - t0 == 4, err);
	UC_EQ("mbox_post_null_ptr", OSMboxPost(mbox, 0), OS_ERR_POST_NULL_PTR);
	OSMboxPost(mbox, &c);
	OSMboxQuery(mbox, &md);
	UC_EQ("mbox_query", md.OSMsg == &c, 1);
	uc_check("mbox_accept", OSMboxAccept(mbox) == &c && OSMboxAccept(mbox) == 0, 0);

	/* a post wakes the most urgent waiter; a broadcast wakes them all with the message */
	uc_log_reset();
	OSTaskCreate(mbox_waiter, (void *)15, stk, 15u);
	OSTaskCreate(mbox_waiter, (void *)12, stk, 12u);
	OSTaskCreate(mbox_waiter, (void *)18, stk, 18u);
	OSTimeDly(1);
	OSMboxPost(mbox, &a);
	OSTimeDly(1);
	uc_check("mbox_post_wakes_highest", uc_nlog == 1 && uc_log[0] == 12 && got_msg[12] == &a, uc_log[0]);
	uc_log_reset();
	UC_EQ("mbox_broadcast", OSMboxPostOpt(mbox, &b, OS_POST_OPT_BROADCAST), OS_ERR_NONE);
	OSTimeDly(1);
	uc_check("mbox_broadcast_all", uc_nlog == 3 && got_msg[12] == &b && got_msg[15] == &b && got_msg[18] == &b,
		 uc_nlog);
	UC_EQ("mbox_broadcast_empty_after", OSMboxAccept(mbox) == 0, 1);
	UC_EQ("mbox_abort", OSMboxPendAbort(mbox, OS_PEND_OPT_BROADCAST, &err), 3);
	OSTimeDly(1);
	UC_EQ("mbox_aborted", last_err[18], OS_ERR_PEND_ABORT);
	OSMboxPend(0, 1, &err);
	UC_EQ("mbox_pend_null", err, OS_ERR_PEVENT_NULL);
	UC_EQ("mbox_post_wrong_type", OSMboxPost(OSSemCreate(0), &a), OS_ERR_EVENT_TYPE);
	UC_EQ("mbox_query_null", OSMboxQuery(0, &md), OS_ERR_PEVENT_NULL);
	uc_check("mbox_del", OSMboxDel(mbox, OS_DEL_NO_PEND, &err) == 0 && err == OS_ERR_NONE, err);
}
