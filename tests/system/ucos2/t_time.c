/* Time: delays exact in ticks (and in native time), OSTimeDlyHMSM and its errors,
 * OSTimeDlyResume, OSTimeSet; the scheduler lock and critical sections. */
#include <partita/api.h>
#include "uctest.h"

static OS_STK stk[64];
static volatile INT32U woke_at;
static volatile int hi_ran;

static void sleeper_task(void *p_arg)
{
	(void)p_arg;
	OSTimeDly(50);
	woke_at = OSTimeGet();
	OSTaskSuspend(OS_PRIO_SELF);
}

static OS_EVENT *wake_sem;

static void hi_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	for (;;) {
		OSSemPend(wake_sem, 0, &err);
		hi_ran++;
	}
}

void uc_test_time(void)
{
	INT32U t0 = OSTimeGet();
	uint64_t c0 = pt_time_cycles();
	OSTimeDly(10);
	INT32U t1 = OSTimeGet();
	uint64_t ns = (pt_time_cycles() - c0) << pt_time_shift();
	UC_EQ("time_dly_exact_ticks", t1 - t0, 10);
	/* from inside tick t0 to the start of tick t0 + 10: between 9 and 10 tick periods */
	uc_check("time_dly_native_time", ns > 9000000u && ns <= 10000000u + 200000u, (long)ns);
	OSTimeDly(0);
	UC_EQ("time_dly_zero_returns", OSTimeGet(), t1);

	t0 = OSTimeGet();
	UC_EQ("time_hmsm", OSTimeDlyHMSM(0, 0, 0, 20), OS_ERR_NONE);
	UC_EQ("time_hmsm_ticks", OSTimeGet() - t0, 20);
	UC_EQ("time_hmsm_zero", OSTimeDlyHMSM(0, 0, 0, 0), OS_ERR_TIME_ZERO_DLY);
	UC_EQ("time_hmsm_minutes", OSTimeDlyHMSM(0, 60, 0, 0), OS_ERR_TIME_INVALID_MINUTES);
	UC_EQ("time_hmsm_seconds", OSTimeDlyHMSM(0, 0, 60, 0), OS_ERR_TIME_INVALID_SECONDS);
	UC_EQ("time_hmsm_ms", OSTimeDlyHMSM(0, 0, 0, 1000), OS_ERR_TIME_INVALID_MS);

	/* a delayed task: its remaining delay, and an early end by OSTimeDlyResume */
	woke_at = 0;
	OSTaskCreate(sleeper_task, 0, stk, 23u);
	OSTimeDly(1);
	OS_TCB q;
	OSTaskQuery(23u, &q);
	uc_check("time_query_delay_left", q.OSTCBDly == 49u || q.OSTCBDly == 50u, q.OSTCBDly);
	t0 = OSTimeGet();
	UC_EQ("time_dly_resume", OSTimeDlyResume(23u), OS_ERR_NONE);
	OSTimeDly(1);
	uc_check("time_dly_resume_woke_early", woke_at == t0, (long)(woke_at - t0));
	UC_EQ("time_dly_resume_not_dly", OSTimeDlyResume(23u), OS_ERR_TIME_NOT_DLY);
	UC_EQ("time_dly_resume_no_task", OSTimeDlyResume(40u), OS_ERR_TASK_NOT_EXIST);
	UC_EQ("time_dly_resume_invalid", OSTimeDlyResume(OS_LOWEST_PRIO), OS_ERR_PRIO_INVALID);
	OSTaskDel(23u);

	/* OSTimeSet moves the counter, not the delays under way */
	OSTimeSet(1000000u);
	t0 = OSTimeGet();
	uc_check("time_set", t0 == 1000000u, (long)t0);
	OSTimeDly(5);
	UC_EQ("time_set_dly", OSTimeGet() - t0, 5);
	OSTimeSet(0xFFFFFFFEu); /* the counter wraps as an INT32U */
	OSTimeDly(3);
	UC_EQ("time_wraps", OSTimeGet(), 1);

	/* the scheduler lock: a readied higher task waits for OSSchedUnlock */
	wake_sem = OSSemCreate(0);
	hi_ran = 0;
	OSTaskCreate(hi_task, 0, stk, 5u);
	OSSchedLock();
	UC_EQ("sched_lock_nesting", OSLockNesting, 1);
	OSSemPost(wake_sem);
	int during = hi_ran;
	INT8U err;
	OSSemPend(wake_sem, 1, &err);
	UC_EQ("sched_lock_pend_locked", err, OS_ERR_PEND_LOCKED);
	UC_EQ("sched_lock_hmsm", OSTimeDlyHMSM(0, 0, 0, 5), OS_ERR_SCHED_LOCKED);
	INT32U tl = OSTimeGet();
	OSTimeDly(5); /* returns at once while locked */
	UC_EQ("sched_lock_dly_returns", OSTimeGet() - tl, 0);
	OSSchedLock();
	OSSchedUnlock();
	int nested = hi_ran;
	OSSchedUnlock();
	uc_check("sched_lock_holds_higher_task", during == 0 && nested == 0 && hi_ran == 1,
		 during * 100 + nested * 10 + hi_ran);
	UC_EQ("sched_unlock_nesting", OSLockNesting, 0);

	/* a critical section: the same, until OS_EXIT_CRITICAL */
	OS_CPU_SR cpu_sr = 0;
	OS_ENTER_CRITICAL();
	OSSemPost(wake_sem);
	during = hi_ran;
	OS_EXIT_CRITICAL();
	uc_check("critical_holds_higher_task", during == 1 && hi_ran == 2, during * 10 + hi_ran);
	OSTaskDel(5u);
	OSSemDel(wake_sem, OS_DEL_ALWAYS, &err);
}
