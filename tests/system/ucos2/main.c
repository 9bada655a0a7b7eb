/*
 * The µC/OS-II application of the system tests: an ordinary µC/OS-II main() (OSInit, one
 * start task, OSStart) in the style of µC/OS-II's application examples. The start task runs
 * each module's scenario (tasks, time, semaphores, mailboxes, queues, mutexes, flags,
 * memory partitions, ISR-context calls) and ends with "uc: done pass=N fail=M"
 * (tests/system/ucos2/test_ucos2.py reads the lines).
 */
#include <partita/api.h>
#include "uctest.h"
#include "lib/ufmt.h"

static int npass, nfail;
volatile int uc_log[16];
volatile int uc_nlog;

void uc_log_put(int v)
{
	if (uc_nlog < 16)
		uc_log[uc_nlog++] = v;
}

void uc_log_reset(void)
{
	uc_nlog = 0;
	for (int i = 0; i < 16; i++)
		uc_log[i] = 0;
}

static void say(char *b, int *k, const char *s)
{
	while (*s && *k < 150)
		b[(*k)++] = *s++;
}

void uc_check(const char *name, int ok, long detail)
{
	char b[160];
	int k = 0;
	say(b, &k, ok ? "uc: ok " : "uc: FAIL ");
	say(b, &k, name);
	if (!ok) {
		say(b, &k, " (");
		pt_ufmt_i64(b, &k, detail);
		say(b, &k, ")");
	}
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	ok ? npass++ : nfail++;
}

void uc_eq(const char *name, long got, long want)
{
	uc_check(name, got == want, got);
}

static void start_task(void *p_arg)
{
	(void)p_arg;
	UC_EQ("time_starts_at_zero", OSTimeGet() <= 1u, 1);
	uc_test_tasks();
	uc_test_time();
	uc_test_sem();
	uc_test_mbox();
	uc_test_q();
	uc_test_mutex();
	uc_test_flag();
	uc_test_mem();
	uc_test_isr();
	uc_test_race();
	char b[80];
	int k = 0;
	say(b, &k, "uc: done pass=");
	pt_ufmt_i64(b, &k, npass);
	say(b, &k, " fail=");
	pt_ufmt_i64(b, &k, nfail);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	for (;;)
		OSTimeDly(1000);
}

static volatile int ran_before_start;

static void early_task(void *p_arg)
{
	(void)p_arg;
	ran_before_start = OSRunning ? 0 : 1;
	uc_log_put(99);
}

int main(void)
{
	static OS_STK start_stk[512];
	OSInit();
	UC_EQ("init_not_running", OSRunning, OS_FALSE);
	/* a task created before OSStart runs only after it, whatever its priority */
	OSTaskCreate(early_task, 0, &start_stk[0], 3u);
	UC_EQ("tasks_wait_for_osstart", uc_nlog, 0);
	INT8U err = OSTaskCreateExt(start_task, 0, &start_stk[511], UC_PRIO_TEST, 7u, &start_stk[0], 512u,
				    0, OS_TASK_OPT_STK_CHK | OS_TASK_OPT_STK_CLR);
	UC_EQ("create_ext", err, OS_ERR_NONE);
	OSStart();
	return 0;
}

/* A native thread of the same image that is no task of the world (ucos2.yaml's `intruder`):
 * its call is refused with a console line naming it, and it stops there. */
void uc_intruder_entry(void *arg)
{
	(void)arg;
	OSTimeDly(1);
	pt_console_write("uc: intruder went on\n", 21);
}
