/*
 * The µC/OS-II world: start-up, the layer's lock (critical sections, scheduler lock and
 * "ISR" context all raise the caller to the world's ceiling), tick time read from the clock,
 * and the event wait machinery (os_internal.h). A µC/OS-II application runs as the thread
 * whose entry is ucos2_main_entry (docs/compat.md, "µC/OS-II").
 */
#include <partita/limits.h>
#include "os_internal.h"
#include "lib/ufmt.h"

struct os_world os_world;

volatile INT8U OSIntNesting;
volatile INT8U OSLockNesting;
volatile BOOLEAN OSRunning;
volatile INT32U OSCtxSwCtr;
OS_TCB *OSTCBPrioTbl[OS_LOWEST_PRIO + 1];

/* Task records by thread slot: a tid is slot + 1 + PT_MAX_THREADS * generation, so the
 * calling task's record is one load and one compare away. */
static OS_TCB *by_slot[PT_MAX_THREADS];

/* The idle task's record; main() calls the API as this record until OSStart. */
OS_TCB os_idle_tcb;

static OS_EVENT event_pool[OS_MAX_EVENTS];
static OS_EVENT *event_free;

int main(void);

void os_register(OS_TCB *t)
{
	by_slot[(uint32_t)(t->OSTCBTid - 1) % PT_MAX_THREADS] = t;
}

void os_unregister(OS_TCB *t)
{
	uint32_t s = (uint32_t)(t->OSTCBTid - 1) % PT_MAX_THREADS;
	if (by_slot[s] == t)
		by_slot[s] = 0;
}

OS_TCB *os_cur(void)
{
	int tid = pt_thread_self();
	OS_TCB *t = by_slot[(uint32_t)(tid - 1) % PT_MAX_THREADS];
	return t && t->OSTCBTid == tid ? t : 0;
}

static void put(char *b, int *k, const char *s)
{
	while (*s && *k < 200)
		b[(*k)++] = *s++;
}

/* A call the layer cannot honour at all (not from a task of the world, no native semaphore
 * left for a wait): one console line naming the thread, then the thread stops for good. */
_Noreturn void os_fatal(const char *what)
{
	OS_TCB *t = os_cur();
	char b[240];
	int k = 0;
	put(b, &k, "ucos2: fatal: task ");
	put(b, &k, t ? (const char *)t->OSTCBTaskName : "?");
	put(b, &k, " (tid ");
	pt_ufmt_i64(b, &k, pt_thread_self());
	put(b, &k, "): ");
	put(b, &k, what);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	for (;;)
		pt_thread_suspend(0);
}

OS_TCB *os_me(void)
{
	OS_TCB *t = os_cur();
	if (!t)
		os_fatal("µC/OS-II call from a thread that is no task of the world (or before OSInit)");
	return t;
}

void os_apply_prio(OS_TCB *t, OS_TCB *me)
{
	unsigned p = t->OSTCBCritNest ? os_world.ceiling : os_native_prio(t->OSTCBPrio);
	pt_thread_set_priority(t == me ? 0 : t->OSTCBTid, p);
}

void os_enter(OS_TCB *me)
{
	if (me->OSTCBLockNest++ != 0)
		return;
	me->OSTCBAtLock = 1;
	pt_mutex_lock(os_world.mx, PT_WAIT_FOREVER);
	/* OSTaskSuspend found this task waiting for the lock: a native suspension would have
	 * taken effect with the lock held and stopped the world; it happens here instead */
	while (me->OSTCBSuspendAtLock) {
		me->OSTCBSuspendAtLock = 0;
		os_crit_enter(me);
		pt_mutex_unlock(os_world.mx);
		pt_thread_suspend(0);
		os_crit_exit(me);
		pt_mutex_lock(os_world.mx, PT_WAIT_FOREVER);
	}
	me->OSTCBAtLock = 0;
}

void os_exit(OS_TCB *me)
{
	if (--me->OSTCBLockNest == 0)
		pt_mutex_unlock(os_world.mx);
}

void os_crit_enter(OS_TCB *me)
{
	if (me->OSTCBCritNest++ == 0)
		pt_thread_set_priority(0, os_world.ceiling);
}

void os_crit_exit(OS_TCB *me)
{
	if (me->OSTCBCritNest == 0)
		os_fatal("OS_EXIT_CRITICAL without OS_ENTER_CRITICAL");
	if (--me->OSTCBCritNest == 0)
		pt_thread_set_priority(0, os_native_prio(me->OSTCBPrio));
}

OS_CPU_SR OSPartitaCritEnter(void)
{
	OS_TCB *me = os_me();
	os_crit_enter(me);
	return me->OSTCBCritNest;
}

void OSPartitaCritExit(OS_CPU_SR sr)
{
	(void)sr;
	os_crit_exit(os_me());
}

void OSPartitaYield(void)
{
	pt_thread_yield();
}

/* ---- tick time: tick n begins at epoch + n * tick_cycles ---- */

uint64_t os_ticks64(void)
{
	return (pt_time_cycles() - os_world.epoch_cycles) / os_world.tick_cycles;
}

INT32U OSTimeGet(void)
{
	return (INT32U)os_ticks64() + os_world.time_offset;
}

/* Sets the tick counter only: delays and timeouts under way keep their length, as on
 * µC/OS-II (its delays count ticks down, they do not compare with OSTime). */
void OSTimeSet(INT32U ticks)
{
	OS_TCB *me = os_me();
	os_enter(me);
	os_world.time_offset = ticks - (INT32U)os_ticks64();
	os_exit(me);
}

void OSTimeTick(void)
{
}

INT16U OSVersion(void)
{
	return OS_VERSION / 100u;
}

/* ---- start-up ---- */

void OSInit(void)
{
	int tid = pt_thread_self();
	uint64_t tick_ns = 1000000000ull / (OS_TICKS_PER_SEC);
	unsigned shift = pt_time_shift();
	os_world.tick_cycles = tick_ns >> shift;
	os_world.epoch_cycles = pt_time_cycles();
	os_world.time_offset = 0;
	if (os_world.tick_cycles == 0 || (os_world.tick_cycles << shift) != tick_ns)
		os_fatal("OS_TICKS_PER_SEC is not a whole number of cycles at this icount shift");
	for (unsigned p = 0; p <= OS_LOWEST_PRIO; p++)
		OSTCBPrioTbl[p] = 0;
	event_free = 0;
	for (int i = (int)(OS_MAX_EVENTS) - 1; i >= 0; i--) {
		event_pool[i].OSEventType = OS_EVENT_TYPE_UNUSED;
		event_pool[i].OSEventPtr = event_free;
		event_free = &event_pool[i];
	}
	OSIntNesting = 0;
	OSLockNesting = 0;
	OSRunning = OS_FALSE;
	os_world.mx = pt_mutex_create();
	if (os_world.mx < 0)
		os_fatal("no native mutex for the layer's lock (quota or PT_MAX_MUTEXES)");
	/* the idle task: main() calls the API as it until OSStart, at the ceiling (no task runs
	 * before OSStart, whatever its priority) */
	OS_TCB *t = &os_idle_tcb;
	*t = (OS_TCB){0};
	t->OSTCBMagic = OS_PARTITA_TCB_MAGIC;
	t->OSTCBTid = tid;
	t->OSTCBSem = -1;
	t->OSTCBPrio = OS_TASK_IDLE_PRIO;
	t->OSTCBOwnPrio = OS_TASK_IDLE_PRIO;
	t->OSTCBId = OS_TASK_IDLE_ID;
	t->OSTCBCritNest = 1;
	const char *n = "uC/OS-II Idle";
	for (int i = 0; n[i] && i < OS_TASK_NAME_SIZE - 1; i++)
		t->OSTCBTaskName[i] = (INT8U)n[i];
	OSTCBPrioTbl[OS_TASK_IDLE_PRIO] = t;
	os_register(t);
	os_world.ready = 1;
	pt_thread_set_priority(0, os_world.ceiling);
}

/* Tick 0 is now; main()'s thread leaves the ceiling and ends: the tasks run. The idle task
 * keeps its record and priority (OSTaskQuery, OS_ERR_PRIO_EXIST) but has no thread: the core
 * idles in the kernel when no task of the world is ready. */
void OSStart(void)
{
	OS_TCB *me = os_me();
	if (me != &os_idle_tcb || OSRunning)
		return;
	os_world.epoch_cycles = pt_time_cycles();
	os_world.time_offset = 0;
	OSRunning = OS_TRUE;
	os_unregister(me);
	me->OSTCBTid = 0;
	pt_thread_exit();
}

/* The world's start-up thread: ceiling from `arg` (0: OS_PARTITA_PRIO_CEILING), then main(). */
void ucos2_main_entry(void *arg)
{
	os_world.ceiling = arg ? (uint32_t)(uintptr_t)arg : (OS_PARTITA_PRIO_CEILING);
	if (os_world.ceiling + 1u + (OS_LOWEST_PRIO) >= PT_PRIO_LEVELS)
		os_fatal("the world's ceiling + 1 + OS_LOWEST_PRIO does not fit Partita's levels");
	pt_thread_set_priority(0, os_world.ceiling);
	main();
	if (!OSRunning)
		os_fatal("main() returned without OSStart");
	pt_thread_exit();
}

/* "ISR" context: µC/OS-II's interrupt nesting, with no task of the world running in between
 * (the caller holds the ceiling) and the rescheduling at the outermost OSIntExit. */
void OSIntEnter(void)
{
	if (!OSRunning)
		return;
	OS_TCB *me = os_me();
	if (OSIntNesting < 255u) {
		os_crit_enter(me);
		OSIntNesting++;
	}
}

void OSIntExit(void)
{
	if (!OSRunning)
		return;
	OS_TCB *me = os_me();
	if (OSIntNesting > 0u) {
		OSIntNesting--;
		os_crit_exit(me);
	}
}

void OSSchedLock(void)
{
	if (!OSRunning || OSIntNesting > 0u)
		return;
	OS_TCB *me = os_me();
	if (OSLockNesting < 255u) {
		os_crit_enter(me);
		OSLockNesting++;
	}
}

void OSSchedUnlock(void)
{
	if (!OSRunning || OSIntNesting > 0u)
		return;
	OS_TCB *me = os_me();
	if (OSLockNesting > 0u) {
		OSLockNesting--;
		os_crit_exit(me);
	}
}

/* ---- waits ---- */

void os_event_wait(OS_EVENT *e, OS_TCB *t)
{
	os_bit_set(e->OSEventTbl, t->OSTCBPrio);
	e->OSEventGrp = 1;
	t->OSTCBEventPtr = e;
}

static void event_unwait(OS_EVENT *e, OS_TCB *t)
{
	os_bit_clr(e->OSEventTbl, t->OSTCBPrio);
	e->OSEventGrp = os_bit_first(e->OSEventTbl) >= 0;
	t->OSTCBEventPtr = 0;
}

void os_unwait(OS_TCB *t)
{
	if (t->OSTCBEventPtr)
		event_unwait(t->OSTCBEventPtr, t);
	if (t->OSTCBFlagGrp) {
		os_bit_clr(t->OSTCBFlagGrp->OSFlagWaitTbl, t->OSTCBPrio);
		t->OSTCBFlagGrp = 0;
	}
}

void os_block(OS_TCB *me, INT32U timeout)
{
	if (me->OSTCBSem < 0) {
		me->OSTCBSem = pt_sem_create(0, 1);
		if (me->OSTCBSem < 0)
			os_fatal("no native semaphore left for the task's waits (quota or PT_MAX_SEMS)");
	}
	me->OSTCBWaiting = 1;
	me->OSTCBStatPend = OS_STAT_PEND_OK;
	me->OSTCBDlyUntil = timeout ? os_ticks64() + timeout : 0;
	uint64_t until_cycles = os_world.epoch_cycles + me->OSTCBDlyUntil * os_world.tick_cycles;
	os_exit(me);
	uint64_t ns = PT_WAIT_FOREVER;
	if (timeout) {
		uint64_t now = pt_time_cycles();
		ns = until_cycles > now ? (until_cycles - now) << pt_time_shift() : PT_NO_WAIT;
	}
	int r = pt_sem_take(me->OSTCBSem, ns);
	if (r == PT_OK && !me->OSTCBWaiting) {
		/* readied by a post, which wrote the result into the record: no lock needed */
		me->OSTCBDlyUntil = 0;
		return;
	}
	os_enter(me);
	if (me->OSTCBWaiting) { /* no post ended the wait: it timed out */
		me->OSTCBWaiting = 0;
		os_unwait(me);
		me->OSTCBStatPend = OS_STAT_PEND_TO;
	} else if (r != PT_OK) {
		/* a post readied it between its timeout and the lock: keep the post's result and
		 * take back the token it gave, so the next wait starts empty */
		pt_sem_take(me->OSTCBSem, PT_NO_WAIT);
	}
	me->OSTCBStat &= (INT8U)~OS_STAT_PEND_ANY;
	me->OSTCBDlyUntil = 0;
	os_exit(me);
}

void os_ready(OS_TCB *t, void *msg, INT8U pend_status)
{
	os_unwait(t);
	t->OSTCBMsg = msg;
	t->OSTCBStatPend = pend_status;
	t->OSTCBStat &= (INT8U)~OS_STAT_PEND_ANY;
	t->OSTCBWaiting = 0;
	t->OSTCBDlyUntil = 0;
	pt_sem_give(t->OSTCBSem);
}

OS_TCB *os_event_ready_first(OS_EVENT *e, void *msg, INT8U pend_status)
{
	int p = os_bit_first(e->OSEventTbl);
	if (p < 0)
		return 0;
	OS_TCB *t = OSTCBPrioTbl[p];
	os_ready(t, msg, pend_status);
	return t;
}

INT8U os_pend_result(OS_TCB *me)
{
	INT8U s = me->OSTCBStatPend;
	me->OSTCBStatPend = OS_STAT_PEND_OK;
	return s == OS_STAT_PEND_OK ? OS_ERR_NONE : s == OS_STAT_PEND_ABORT ? OS_ERR_PEND_ABORT
									   : OS_ERR_TIMEOUT;
}

OS_EVENT *os_event_alloc(INT8U type)
{
	OS_EVENT *e = event_free;
	if (!e)
		return 0;
	event_free = e->OSEventPtr;
	*e = (OS_EVENT){.OSEventType = type};
	e->OSEventName[0] = '?';
	return e;
}

void os_event_free(OS_EVENT *e)
{
	e->OSEventType = OS_EVENT_TYPE_UNUSED;
	e->OSEventGrp = 0;
	e->OSEventCnt = 0;
	e->OSEventPtr = event_free;
	event_free = e;
}

INT8U os_pend_check(OS_EVENT *e, INT8U type)
{
	if (!e)
		return OS_ERR_PEVENT_NULL;
	if (e->OSEventType != type)
		return OS_ERR_EVENT_TYPE;
	if (OSIntNesting > 0u)
		return OS_ERR_PEND_ISR;
	if (OSLockNesting > 0u)
		return OS_ERR_PEND_LOCKED;
	return OS_ERR_NONE;
}

INT8U os_event_abort(OS_EVENT *e, INT8U type, INT8U opt, INT8U *perr)
{
	if (!e) {
		*perr = OS_ERR_PEVENT_NULL;
		return 0;
	}
	if (e->OSEventType != type) {
		*perr = OS_ERR_EVENT_TYPE;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	INT8U n = 0;
	if (opt == OS_PEND_OPT_BROADCAST)
		while (os_event_ready_first(e, 0, OS_STAT_PEND_ABORT))
			n++;
	else
		n = os_event_ready_first(e, 0, OS_STAT_PEND_ABORT) ? 1u : 0u;
	os_exit(me);
	*perr = n ? OS_ERR_PEND_ABORT : OS_ERR_NONE;
	return n;
}

OS_EVENT *os_event_del(OS_EVENT *e, INT8U type, INT8U opt, INT8U *perr,
		       void (*release)(OS_EVENT *e))
{
	if (!e) {
		*perr = OS_ERR_PEVENT_NULL;
		return e;
	}
	if (e->OSEventType != type) {
		*perr = OS_ERR_EVENT_TYPE;
		return e;
	}
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_DEL_ISR;
		return e;
	}
	if (opt != OS_DEL_NO_PEND && opt != OS_DEL_ALWAYS) {
		*perr = OS_ERR_INVALID_OPT;
		return e;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if (e->OSEventGrp && opt == OS_DEL_NO_PEND) {
		os_exit(me);
		*perr = OS_ERR_TASK_WAITING;
		return e;
	}
	if (release)
		release(e);
	while (os_event_ready_first(e, 0, OS_STAT_PEND_ABORT))
		;
	os_event_free(e);
	os_exit(me); /* a readied task of higher priority runs now */
	*perr = OS_ERR_NONE;
	return 0;
}
