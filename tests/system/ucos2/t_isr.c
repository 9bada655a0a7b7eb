/* Calls in ISR context (between OSIntEnter and OSIntExit): what may not be called there
 * returns its error; a post readies a task that runs at the outermost OSIntExit. */
#include "uctest.h"

static OS_STK stk[64];
static OS_EVENT *s;
static volatile int hi_ran;

static void hi_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	OSSemPend(s, 0, &err);
	hi_ran = 1;
	OSTaskDel(OS_PRIO_SELF);
}

static void nop_task(void *p_arg)
{
	(void)p_arg;
}

void uc_test_isr(void)
{
	INT8U err;
	s = OSSemCreate(0);
	OS_EVENT *mx = OSMutexCreate(9u, &err);
	OSMutexPend(mx, 0, &err);
	OSTaskCreate(hi_task, 0, stk, 5u);
	OSIntEnter();
	OSIntEnter();
	UC_EQ("isr_nesting", OSIntNesting, 2);
	OSSemPend(s, 1, &err);
	UC_EQ("isr_pend", err, OS_ERR_PEND_ISR);
	OSQPend(OSQCreate(0, 0), 1, &err); /* NULL queue: its own error comes first */
	UC_EQ("isr_pend_null_first", err, OS_ERR_PEVENT_NULL);
	UC_EQ("isr_task_create", OSTaskCreate(nop_task, 0, stk, 24u), OS_ERR_TASK_CREATE_ISR);
	UC_EQ("isr_task_del", OSTaskDel(5u), OS_ERR_TASK_DEL_ISR);
	UC_EQ("isr_hmsm", OSTimeDlyHMSM(0, 0, 0, 5), OS_ERR_TIME_DLY_ISR);
	UC_EQ("isr_mutex_post", OSMutexPost(mx), OS_ERR_POST_ISR);
	OSSemDel(s, OS_DEL_ALWAYS, &err);
	UC_EQ("isr_del", err, OS_ERR_DEL_ISR);
	UC_EQ("isr_create_null", OSSemCreate(1) == 0, 1);
	OSFlagCreate(0, &err);
	UC_EQ("isr_flag_create", err, OS_ERR_CREATE_ISR);
	UC_EQ("isr_post", OSSemPost(s), OS_ERR_NONE);
	OSIntExit();
	int inner = hi_ran;
	OSIntExit();
	uc_check("isr_exit_reschedules", inner == 0 && hi_ran == 1, inner * 10 + hi_ran);
	UC_EQ("isr_nesting_zero", OSIntNesting, 0);
	UC_EQ("mutex_post_owner", OSMutexPost(mx), OS_ERR_NONE);
}
