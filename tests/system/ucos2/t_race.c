/* A task suspended while it waits for the layer's lock (it woke at a tick boundary inside
 * another task's OSTaskSuspend of it and called the layer): the suspension must not take
 * effect with the lock held, or the world would stop. The checker suspends and resumes a
 * ticking task thousands of times across 120 ticks, with a varying gap: some tick lands inside the lock. */
#include "uctest.h"

static OS_STK stk[64];
static OS_EVENT *s;
static volatile int ticks_seen;

static void ticking_task(void *p_arg)
{
	(void)p_arg;
	for (;;) {
		OSTimeDly(1);
		OSSemPost(s); /* a layer call right at the tick boundary */
		ticks_seen++;
	}
}

void uc_test_race(void)
{
	INT8U err;
	s = OSSemCreate(0);
	OSTaskCreate(ticking_task, 0, stk, 5u);
	INT32U t0 = OSTimeGet();
	long rounds = 0;
	while (OSTimeGet() - t0 < 120u) {
		OSTaskSuspend(5u);
		for (volatile long j = 0; j < rounds % 13; j++) /* the tick lands at every point */
			;
		OSTaskResume(5u);
		rounds++;
	}
	OSTimeDly(2);
	uc_check("race_suspend_while_waiting_for_lock", rounds > 1000 && ticks_seen >= 100, ticks_seen);
	while (OSSemAccept(s))
		;
	OSTaskDel(5u);
	OSSemDel(s, OS_DEL_ALWAYS, &err);
}
