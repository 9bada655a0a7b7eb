/*
 * Table I for µC/OS-II on Partita (`make bench`, tools/partita/bench/ucos2.py): each task
 * and IPC call of the layer, with and without a resulting dispatch, with 1, 8, 32 and 64
 * filler tasks present (each at a priority of its own, suspended), in guest cycles.
 *
 * Method (apps/bench/bench.h's): read the cycle counter just before the call, again right
 * after it returns (no dispatch) or at the first instruction of the task that runs next,
 * subtract the cost of the two readings back to back. Each sample starts just after a timer
 * horizon interrupt (spin until the counter jumps), so no interrupt falls inside it.
 * Console: UBENCH <op> threads=N dispatch=D n=.. sum=.. sumsq=.. min=.. max=..
 */
#include <partita/api.h>
#include "ucos_ii.h"
#include "lib/ufmt.h"

#define DRIVER_PRIO 20u
#define HIGH_PRIO 5u
#define LOW_PRIO 30u
#define LOW2_PRIO 31u
#define FILLER_PRIO 40u /* fillers at 40 .. 103 */
#define REPS 16
#define WARMUP 2

static OS_STK stk[64];
static volatile uint64_t t0, t1, overhead;
static OS_EVENT *sem, *q;
static void *q_tbl[4];
static int nfillers;

static inline __attribute__((always_inline)) uint64_t now(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c)::"memory");
	return c;
}

static void settle(void)
{
	uint64_t prev = now();
	for (;;) {
		uint64_t n = now();
		if (n - prev > 100)
			return;
		prev = n;
	}
}

struct stat {
	uint64_t n, sum, sumsq, min, max;
};

static void add(struct stat *s, uint64_t d)
{
	if (!s->n || d < s->min)
		s->min = d;
	if (!s->n || d > s->max)
		s->max = d;
	s->n++;
	s->sum += d;
	s->sumsq += d * d;
}

static void put(char *b, int *k, const char *s)
{
	while (*s)
		b[(*k)++] = *s++;
}

static void report(const char *op, int dispatch, const struct stat *s)
{
	char b[200];
	int k = 0;
	put(b, &k, "UBENCH ");
	put(b, &k, op);
	put(b, &k, " threads=");
	pt_ufmt_i64(b, &k, nfillers);
	put(b, &k, dispatch ? " dispatch=1 n=" : " dispatch=0 n=");
	pt_ufmt_i64(b, &k, (int64_t)s->n);
	put(b, &k, " sum=");
	pt_ufmt_i64(b, &k, (int64_t)s->sum);
	put(b, &k, " sumsq=");
	pt_ufmt_i64(b, &k, (int64_t)s->sumsq);
	put(b, &k, " min=");
	pt_ufmt_i64(b, &k, (int64_t)s->min);
	put(b, &k, " max=");
	pt_ufmt_i64(b, &k, (int64_t)s->max);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}

/* ---- helper tasks: each reads the counter at its first instruction after the dispatch ---- */

static volatile uint64_t helper_sample;

static void first_instr_task(void *p_arg)
{
	(void)p_arg;
	t1 = now();
	OSTaskSuspend(OS_PRIO_SELF); /* the driver deletes it */
}

static void idle_task(void *p_arg)
{
	(void)p_arg;
	for (;;)
		OSTaskSuspend(OS_PRIO_SELF);
}

static void self_delete_task(void *p_arg)
{
	(void)p_arg;
	settle();
	t0 = now();
	OSTaskDel(OS_PRIO_SELF);
}

static void suspend_loop_task(void *p_arg)
{
	(void)p_arg;
	for (;;) {
		settle();
		t0 = now();
		OSTaskSuspend(OS_PRIO_SELF); /* suspend self, to the driver */
		helper_sample = now() - t0 - overhead; /* the driver's resume, to here */
	}
}

static void sem_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	for (;;) {
		OSSemPend(sem, 0, &err);
		t1 = now();
	}
}

static void q_task(void *p_arg)
{
	INT8U err;
	(void)p_arg;
	for (;;) {
		(void)OSQPend(q, 0, &err);
		t1 = now();
	}
}

enum { CREATE, CREATE_D, DELETE, DELETE_D, SUSPEND, SUSPEND_D, RESUME, RESUME_D, PRIO, PRIO_D,
       SEM_D, Q_D, NOPS };
static const char *const names[NOPS] = {"create", "create", "delete", "delete", "suspend", "suspend",
					"resume", "resume", "change_prio", "change_prio",
					"sem_post_wake", "q_post_wake"};
static struct stat st[NOPS];
static int warm;

static void sample(int op, uint64_t c)
{
	if (!warm)
		add(&st[op], c);
}

#define START() (settle(), t0 = now())
#define STOP(op) (t1 = now(), sample(op, t1 - t0 - overhead))
#define AT_HELPER(op) sample(op, t1 - t0 - overhead) /* the helper read t1 */

static void one_round(void)
{
	START();
	OSTaskCreate(idle_task, 0, stk, LOW_PRIO);
	STOP(CREATE);
	START();
	OSTaskSuspend(LOW_PRIO);
	STOP(SUSPEND);
	START();
	OSTaskResume(LOW_PRIO);
	STOP(RESUME);
	START();
	OSTaskChangePrio(LOW_PRIO, LOW2_PRIO);
	STOP(PRIO);
	START();
	OSTaskDel(LOW2_PRIO);
	STOP(DELETE);

	START();
	OSTaskCreate(first_instr_task, 0, stk, HIGH_PRIO);
	AT_HELPER(CREATE_D);
	OSTaskDel(HIGH_PRIO);

	OSTaskCreate(self_delete_task, 0, stk, HIGH_PRIO); /* it runs, deletes itself: back here */
	STOP(DELETE_D);

	OSTaskCreate(first_instr_task, 0, stk, LOW_PRIO);
	START();
	OSTaskChangePrio(LOW_PRIO, HIGH_PRIO);
	AT_HELPER(PRIO_D);
	OSTaskDel(HIGH_PRIO);

	OSTaskCreate(suspend_loop_task, 0, stk, HIGH_PRIO); /* runs, suspends itself: back here */
	STOP(SUSPEND_D);
	settle();
	t0 = now();
	OSTaskResume(HIGH_PRIO); /* to the helper, which samples and suspends itself again */
	sample(RESUME_D, helper_sample);
	OSTaskDel(HIGH_PRIO);

	START();
	OSSemPost(sem); /* the waiting helper (HIGH_PRIO + 1) returns from OSSemPend */
	AT_HELPER(SEM_D);
	START();
	OSQPost(q, (void *)1);
	AT_HELPER(Q_D);
}

static void measure_overhead(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a, b;
		__asm__ volatile("rdcycle %0\n\tsd %0, 0(%2)\n\trdcycle %1"
				 : "=&r"(a), "=&r"(b)
				 : "r"(&t0)
				 : "memory");
		if (b - a < best)
			best = b - a;
	}
	overhead = best;
}

static void driver_task(void *p_arg)
{
	(void)p_arg;
	static const int counts[] = {1, 8, 32, 64};
	measure_overhead();
	sem = OSSemCreate(0);
	q = OSQCreate(q_tbl, 4);
	OSTaskCreate(sem_task, 0, stk, HIGH_PRIO + 1u);
	OSTaskCreate(q_task, 0, stk, HIGH_PRIO + 2u);
	for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		while (nfillers < counts[c]) /* each at a priority of its own, suspended */
			OSTaskCreate(idle_task, 0, stk, (INT8U)(FILLER_PRIO + (unsigned)nfillers++));
		for (int i = 0; i < NOPS; i++)
			st[i] = (struct stat){0};
		for (int r = 0; r < REPS + WARMUP; r++) {
			warm = r < WARMUP;
			one_round();
		}
		for (int i = 0; i < NOPS; i++)
			report(names[i], i == CREATE_D || i == DELETE_D || i == SUSPEND_D || i == RESUME_D ||
				 i == PRIO_D || i == SEM_D || i == Q_D, &st[i]);
	}
	pt_console_write("UBENCH-END\n", 11);
	for (;;)
		OSTaskSuspend(OS_PRIO_SELF);
}

int main(void)
{
	OSInit();
	OSTaskCreate(driver_task, 0, stk, DRIVER_PRIO);
	OSStart();
	return 0;
}
