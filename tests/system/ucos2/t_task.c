/* Tasks: creation and the unique-priority rule, suspend/resume, change of priority, query,
 * deletion (of another task, by request, by returning), names; each error code. */
#include "uctest.h"

static OS_STK stk[256]; /* ignored by the layer (the thread has its own stack) */
static volatile int counter, ran;

static void mark_task(void *p_arg)
{
	ran = (int)(intptr_t)p_arg;
	uc_log_put((int)(intptr_t)p_arg);
	OSTaskDel(OS_PRIO_SELF);
}

static void count_task(void *p_arg)
{
	(void)p_arg;
	for (;;) {
		counter++;
		OSTimeDly(1);
	}
}

static void self_suspend_task(void *p_arg)
{
	(void)p_arg;
	uc_log_put(1);
	OSTaskSuspend(OS_PRIO_SELF);
	uc_log_put(2);
	for (;;)
		OSTimeDly(1000);
}

static volatile int cleaned;

static void del_req_task(void *p_arg)
{
	(void)p_arg;
	for (;;) {
		if (OSTaskDelReq(OS_PRIO_SELF) == OS_ERR_TASK_DEL_REQ) {
			cleaned = 1; /* release its resources, then delete itself */
			OSTaskDel(OS_PRIO_SELF);
		}
		OSTimeDly(1);
	}
}

static void return_task(void *p_arg)
{
	(void)p_arg;
	ran = 7;
}

void uc_test_tasks(void)
{
	OS_TCB q;
	INT8U err;
	UC_EQ("task_early_ran_after_start", OSTaskQuery(3u, &q), OS_ERR_PRIO); /* it returned */
	UC_EQ("task_prio_exist", OSTaskCreate(mark_task, 0, stk, UC_PRIO_TEST), OS_ERR_PRIO_EXIST);
	UC_EQ("task_idle_prio_exist", OSTaskCreate(mark_task, 0, stk, OS_LOWEST_PRIO), OS_ERR_PRIO_EXIST);
	UC_EQ("task_prio_invalid", OSTaskCreate(mark_task, 0, stk, OS_LOWEST_PRIO + 1u), OS_ERR_PRIO_INVALID);

	ran = 0;
	err = OSTaskCreate(mark_task, (void *)5, stk, 5u);
	uc_check("task_create_higher_runs_at_once", err == OS_ERR_NONE && ran == 5, ran);
	ran = 0;
	err = OSTaskCreate(mark_task, (void *)20, stk, 20u);
	int before = ran;
	OSTimeDly(1);
	uc_check("task_create_lower_runs_later", err == OS_ERR_NONE && before == 0 && ran == 20, before);

	/* suspend / resume */
	counter = 0;
	OSTaskCreateExt(count_task, 0, stk, 21u, 21u, stk, 256u, (void *)0x1234, OS_TASK_OPT_NONE);
	OSTimeDly(5);
	uc_check("task_counter_runs", counter >= 4, counter);
	UC_EQ("task_suspend", OSTaskSuspend(21u), OS_ERR_NONE);
	int c0 = counter;
	OSTimeDly(5);
	UC_EQ("task_suspended_does_not_run", counter, c0);
	UC_EQ("task_query_suspended", (OSTaskQuery(21u, &q), q.OSTCBStat & OS_STAT_SUSPEND), OS_STAT_SUSPEND);
	uc_check("task_query_ext", q.OSTCBId == 21u && q.OSTCBExtPtr == (void *)0x1234 && q.OSTCBPrio == 21u,
		 q.OSTCBId);
	UC_EQ("task_resume", OSTaskResume(21u), OS_ERR_NONE);
	OSTimeDly(3);
	uc_check("task_resumed_runs", counter > c0, counter - c0);
	UC_EQ("task_resume_not_suspended", OSTaskResume(21u), OS_ERR_TASK_NOT_SUSPENDED);
	UC_EQ("task_resume_no_task", OSTaskResume(40u), OS_ERR_TASK_RESUME_PRIO);
	UC_EQ("task_resume_prio_invalid", OSTaskResume(OS_LOWEST_PRIO), OS_ERR_PRIO_INVALID);
	UC_EQ("task_suspend_idle", OSTaskSuspend(OS_LOWEST_PRIO), OS_ERR_TASK_SUSPEND_IDLE);
	UC_EQ("task_suspend_no_task", OSTaskSuspend(40u), OS_ERR_TASK_SUSPEND_PRIO);

	UC_EQ("task_query_no_task", OSTaskQuery(40u, &q), OS_ERR_PRIO);
	UC_EQ("task_query_pdata_null", OSTaskQuery(21u, 0), OS_ERR_PDATA_NULL);
	UC_EQ("task_query_prio_invalid", OSTaskQuery(OS_LOWEST_PRIO + 1u, &q), OS_ERR_PRIO_INVALID);
	uc_check("task_query_self", OSTaskQuery(OS_PRIO_SELF, &q) == OS_ERR_NONE && q.OSTCBPrio == UC_PRIO_TEST &&
		 q.OSTCBId == 7u, q.OSTCBPrio);

	/* self-suspension, resumed by another task */
	uc_log_reset();
	OSTaskCreate(self_suspend_task, 0, stk, 6u);
	int l1 = uc_nlog;
	OSTaskResume(6u);
	uc_check("task_self_suspend_resume", l1 == 1 && uc_nlog == 2 && uc_log[1] == 2, l1 * 10 + uc_nlog);

	/* change of priority: raising a ready task above the caller runs it at once */
	UC_EQ("task_change_prio_exist", OSTaskChangePrio(21u, 6u), OS_ERR_PRIO_EXIST);
	UC_EQ("task_change_prio_no_task", OSTaskChangePrio(41u, 42u), OS_ERR_PRIO);
	UC_EQ("task_change_prio_invalid", OSTaskChangePrio(21u, OS_LOWEST_PRIO), OS_ERR_PRIO_INVALID);
	OSTimeDly(1); /* the counter's delay ends with this tick too: it is ready below us */
	c0 = counter;
	UC_EQ("task_change_prio", OSTaskChangePrio(21u, 4u), OS_ERR_NONE);
	uc_check("task_change_prio_query", OSTaskQuery(4u, &q) == OS_ERR_NONE && q.OSTCBPrio == 4u &&
		 OSTaskQuery(21u, &q) == OS_ERR_PRIO, 0);
	uc_check("task_change_prio_runs", counter > c0, counter - c0);

	/* deletion */
	UC_EQ("task_del", OSTaskDel(4u), OS_ERR_NONE);
	c0 = counter;
	OSTimeDly(3);
	UC_EQ("task_deleted_does_not_run", counter, c0);
	UC_EQ("task_del_gone", OSTaskQuery(4u, &q), OS_ERR_PRIO);
	UC_EQ("task_del_prio_reusable", OSTaskCreate(mark_task, (void *)4, stk, 4u), OS_ERR_NONE);
	UC_EQ("task_del_idle", OSTaskDel(OS_LOWEST_PRIO), OS_ERR_TASK_DEL_IDLE);
	UC_EQ("task_del_prio_invalid", OSTaskDel(OS_LOWEST_PRIO + 1u), OS_ERR_PRIO_INVALID);
	UC_EQ("task_del_no_task", OSTaskDel(40u), OS_ERR_TASK_NOT_EXIST);
	OSTaskDel(6u);

	/* deletion by request, the µC/OS-II idiom */
	cleaned = 0;
	OSTaskCreate(del_req_task, 0, stk, 22u);
	UC_EQ("task_del_req_self_none", OSTaskDelReq(OS_PRIO_SELF), OS_ERR_NONE);
	UC_EQ("task_del_req", OSTaskDelReq(22u), OS_ERR_NONE);
	int waited = 0;
	while (OSTaskDelReq(22u) != OS_ERR_TASK_NOT_EXIST && waited < 10) {
		OSTimeDly(1);
		waited++;
	}
	uc_check("task_del_req_done", cleaned && waited <= 2, waited);
	UC_EQ("task_del_req_idle", OSTaskDelReq(OS_LOWEST_PRIO), OS_ERR_TASK_DEL_IDLE);

	/* a task function that returns deletes its task */
	ran = 0;
	OSTaskCreate(return_task, 0, stk, 8u);
	uc_check("task_return_deletes", ran == 7 && OSTaskQuery(8u, &q) == OS_ERR_PRIO, ran);

	/* names */
	INT8U *name = 0;
	OSTaskNameSet(OS_PRIO_SELF, (INT8U *)"Check", &err);
	INT8U n = OSTaskNameGet(UC_PRIO_TEST, &name, &err);
	uc_check("task_name", err == OS_ERR_NONE && n == 5 && name[0] == 'C' && name[4] == 'k', n);
	OSTaskNameGet(40u, &name, &err);
	UC_EQ("task_name_no_task", err, OS_ERR_TASK_NOT_EXIST);
}
