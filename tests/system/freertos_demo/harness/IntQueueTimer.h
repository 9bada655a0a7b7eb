/* IntQueue.c's port header: its timers are the harness's tick hook (demos.py). */
#ifndef INT_QUEUE_TIMER_H
#define INT_QUEUE_TIMER_H
void vInitialiseTimerForIntQueueTest(void);
#endif
