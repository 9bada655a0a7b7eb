/* Queues: FIFO and LIFO (post-front) order, full and empty, flush, query, a post handed to
 * the waiting task, broadcast; every error code of a bad call. */
#include "uctest.h"

static OS_STK stk[64];
static OS_EVENT *q;
static void *q_tbl[4];
static volatile void *got[64];

static void q_waiter(void *p_arg)
{
	INT8U err, me = (INT8U)(intptr_t)p_arg;
	for (;;) {
		void *m = OSQPend(q, 0, &err);
		got[me] = m;
		uc_log_put(me);
		if (err != OS_ERR_NONE)
			OSTaskDel(OS_PRIO_SELF);
	}
}

#define M(n) ((void *)(uintptr_t)(n))

void uc_test_q(void)
{
	INT8U err;
	OS_Q_DATA qd;
	q = OSQCreate(q_tbl, 4);
	OSQPost(q, M(1));
	OSQPost(q, M(2));
	OSQPostFront(q, M(3));
	OSQPostOpt(q, M(4), OS_POST_OPT_FRONT);
	UC_EQ("q_full", OSQPost(q, M(5)), OS_ERR_Q_FULL);
	UC_EQ("q_full_front", OSQPostFront(q, M(5)), OS_ERR_Q_FULL);
	OSQQuery(q, &qd);
	uc_check("q_query", qd.OSNMsgs == 4 && qd.OSQSize == 4 && qd.OSMsg == M(4) && !qd.OSEventGrp, qd.OSNMsgs);
	long order = 0;
	for (int i = 0; i < 4; i++)
		order = order * 10 + (long)(uintptr_t)OSQPend(q, 1, &err);
	UC_EQ("q_front_back_order", order, 4312);
	OSQAccept(q, &err);
	UC_EQ("q_accept_empty", err, OS_ERR_Q_EMPTY);
	INT32U t0 = OSTimeGet();
	void *m = OSQPend(q, 3, &err);
	uc_check("q_pend_timeout", m == 0 && err == OS_ERR_TIMEOUT && OSTimeGet() - t0 == 3, err);
	OSQPost(q, M(7));
	OSQPost(q, M(8));
	UC_EQ("q_flush", OSQFlush(q), OS_ERR_NONE);
	OSQQuery(q, &qd);
	uc_check("q_flushed_empty", qd.OSNMsgs == 0 && qd.OSMsg == 0 && OSQAccept(q, &err) == 0, qd.OSNMsgs);
	OSQPost(q, M(9)); /* the ring wraps */
	uc_check("q_accept", OSQAccept(q, &err) == M(9) && err == OS_ERR_NONE, err);

	/* a post hands the message to the most urgent waiter; a broadcast to all of them */
	uc_log_reset();
	OSTaskCreate(q_waiter, (void *)15, stk, 15u);
	OSTaskCreate(q_waiter, (void *)12, stk, 12u);
	OSTimeDly(1);
	OSQPost(q, M(21));
	OSQQuery(q, &qd);
	UC_EQ("q_post_to_waiter_not_queued", qd.OSNMsgs, 0);
	OSTimeDly(1);
	uc_check("q_post_wakes_highest", uc_nlog == 1 && uc_log[0] == 12 && got[12] == M(21), uc_log[0]);
	uc_log_reset();
	OSQPostOpt(q, M(22), OS_POST_OPT_BROADCAST);
	OSTimeDly(1);
	uc_check("q_broadcast", uc_nlog == 2 && got[12] == M(22) && got[15] == M(22), uc_nlog);
	uc_check("q_del_always", OSQDel(q, OS_DEL_ALWAYS, &err) == 0 && err == OS_ERR_NONE, err);
	OSTimeDly(1);
	OSQPost(q, M(1));
	UC_EQ("q_deleted_post", OSQPost(q, M(1)), OS_ERR_EVENT_TYPE);
	OSQPend(0, 1, &err);
	UC_EQ("q_pend_null", err, OS_ERR_PEVENT_NULL);
	UC_EQ("q_post_null", OSQPost(0, M(1)), OS_ERR_PEVENT_NULL);
	UC_EQ("q_flush_null", OSQFlush(0), OS_ERR_PEVENT_NULL);
	UC_EQ("q_query_pdata_null", OSQQuery(OSQCreate(q_tbl, 4), 0), OS_ERR_PDATA_NULL);
	OS_EVENT *s = OSSemCreate(0);
	OSQPend(s, 1, &err);
	UC_EQ("q_pend_wrong_type", err, OS_ERR_EVENT_TYPE);
	UC_EQ("q_create_zero_size", OSQCreate(q_tbl, 0) == 0, 1);
}
