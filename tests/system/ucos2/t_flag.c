/* Event flags: wait for all / any bits set / clear, consumption, one post readying several
 * tasks, accept, timeout, deletion; every error code of a bad call. */
#include "uctest.h"

static OS_STK stk[64];
static OS_FLAG_GRP *grp;
static volatile OS_FLAGS got[64];
static volatile INT8U errs[64];

struct waiter { INT8U prio, type; OS_FLAGS flags; };

static void flag_waiter(void *p_arg)
{
	const struct waiter *w = p_arg;
	INT8U err;
	got[w->prio] = OSFlagPend(grp, w->flags, w->type, 0, &err);
	errs[w->prio] = err;
	uc_log_put(w->prio);
	OSTaskDel(OS_PRIO_SELF);
}

void uc_test_flag(void)
{
	INT8U err;
	static const struct waiter all = {12, OS_FLAG_WAIT_SET_ALL, 0x3};
	static const struct waiter any = {13, OS_FLAG_WAIT_SET_ANY | OS_FLAG_CONSUME, 0xC};
	static const struct waiter any2 = {14, OS_FLAG_WAIT_SET_ANY, 0x4};
	static const struct waiter clr = {15, OS_FLAG_WAIT_CLR_ALL, 0x30};
	static const struct waiter del = {16, OS_FLAG_WAIT_SET_ALL, 0x100};
	grp = OSFlagCreate(0x30, &err);
	UC_EQ("flag_create", err, OS_ERR_NONE);
	uc_log_reset();
	OSTaskCreate(flag_waiter, (void *)&all, stk, 12u);
	OSTaskCreate(flag_waiter, (void *)&any, stk, 13u);
	OSTaskCreate(flag_waiter, (void *)&any2, stk, 14u);
	OSTaskCreate(flag_waiter, (void *)&clr, stk, 15u);
	OSTimeDly(1);
	OSFlagPost(grp, 0x1, OS_FLAG_SET, &err);
	OSTimeDly(1);
	UC_EQ("flag_all_waits_for_all", uc_nlog, 0);
	OSFlagPost(grp, 0x2, OS_FLAG_SET, &err);
	OSTimeDly(1);
	uc_check("flag_set_all", uc_nlog == 1 && uc_log[0] == 12 && got[12] == 0x3 && errs[12] == OS_ERR_NONE,
		 got[12]);
	/* one post readies both "any" waiters; the consuming one clears what readied it */
	OS_FLAGS now = OSFlagPost(grp, 0x4, OS_FLAG_SET, &err);
	UC_EQ("flag_post_returns_flags", now, 0x37);
	OSTimeDly(1);
	uc_check("flag_set_any_both", uc_nlog == 3 && got[13] == 0x4 && got[14] == 0x4, uc_nlog);
	UC_EQ("flag_consumed", OSFlagQuery(grp, &err), 0x33);
	OSFlagPost(grp, 0x10, OS_FLAG_CLR, &err);
	OSTimeDly(1);
	UC_EQ("flag_clr_all_waits", uc_nlog, 3);
	OSFlagPost(grp, 0x20, OS_FLAG_CLR, &err);
	OSTimeDly(1);
	uc_check("flag_clr_all", uc_nlog == 4 && got[15] == 0x30, got[15]);

	/* accept, timeout */
	OSFlagAccept(grp, 0x80, OS_FLAG_WAIT_SET_ANY, &err);
	UC_EQ("flag_accept_not_ready", err, OS_ERR_FLAG_NOT_RDY);
	UC_EQ("flag_accept_consume", OSFlagAccept(grp, 0x3, OS_FLAG_WAIT_SET_ALL | OS_FLAG_CONSUME, &err), 0x3);
	UC_EQ("flag_accept_consumed", OSFlagQuery(grp, &err), 0x0);
	INT32U t0 = OSTimeGet();
	OS_FLAGS f = OSFlagPend(grp, 0x1, OS_FLAG_WAIT_SET_ALL, 4, &err);
	uc_check("flag_pend_timeout", f == 0 && err == OS_ERR_TIMEOUT && OSTimeGet() - t0 == 4, err);
	OSFlagPend(grp, 0x1, 9, 1, &err);
	UC_EQ("flag_wait_type", err, OS_ERR_FLAG_WAIT_TYPE);
	OSFlagPost(grp, 0x1, 7, &err);
	UC_EQ("flag_invalid_opt", err, OS_ERR_FLAG_INVALID_OPT);
	OSFlagPend(0, 0x1, OS_FLAG_WAIT_SET_ALL, 1, &err);
	UC_EQ("flag_pend_null", err, OS_ERR_FLAG_INVALID_PGRP);
	OSFlagPost(0, 0x1, OS_FLAG_SET, &err);
	UC_EQ("flag_post_null", err, OS_ERR_FLAG_INVALID_PGRP);
	OSFlagPend((OS_FLAG_GRP *)(void *)OSSemCreate(0), 0x1, OS_FLAG_WAIT_SET_ALL, 1, &err);
	UC_EQ("flag_pend_wrong_type", err, OS_ERR_EVENT_TYPE);

	/* deletion */
	OSTaskCreate(flag_waiter, (void *)&del, stk, 16u);
	OSTimeDly(1);
	OSFlagDel(grp, OS_DEL_NO_PEND, &err);
	UC_EQ("flag_del_task_waiting", err, OS_ERR_TASK_WAITING);
	uc_check("flag_del_always", OSFlagDel(grp, OS_DEL_ALWAYS, &err) == 0 && err == OS_ERR_NONE, err);
	OSTimeDly(1);
	uc_check("flag_del_waiter_aborted", errs[16] == OS_ERR_PEND_ABORT && got[16] == 0, errs[16]);
	OSFlagPost(grp, 0x1, OS_FLAG_SET, &err);
	UC_EQ("flag_deleted_event_type", err, OS_ERR_EVENT_TYPE);
	OS_FLAG_GRP *g[OS_MAX_FLAGS + 1];
	int n = 0;
	for (; n <= (int)OS_MAX_FLAGS; n++) {
		g[n] = OSFlagCreate(0, &err);
		if (!g[n])
			break;
	}
	uc_check("flag_grp_depleted", n == (int)OS_MAX_FLAGS && err == OS_ERR_FLAG_GRP_DEPLETED, n);
	for (int i = 0; i < n; i++)
		OSFlagDel(g[i], OS_DEL_ALWAYS, &err);
}
