/*
 * Internal to compat/ucos2: the world's state, the layer's lock (the world's ceiling
 * priority), tick time, and the event wait machinery shared by the object files.
 *
 * How a wait works: the waiting task marks itself in the object's wait bitmap (by priority,
 * as µC/OS-II's OSEventTbl), leaves the lock and takes its own native semaphore with the
 * timeout; a post picks the highest-priority waiter, hands it the message and its pend status
 * and gives that semaphore. Who runs next is always the kernel's decision.
 */
#ifndef OS_INTERNAL_H
#define OS_INTERNAL_H

#include <partita/api.h>
#include <partita/sync.h>
#include "ucos_ii.h"

struct os_world {
	uint64_t epoch_cycles; /* tick 0: OSStart (until then, OSInit) */
	uint64_t tick_cycles;  /* one tick in cycles */
	uint32_t ceiling;      /* native level of the lock; task p runs at ceiling + 1 + p */
	uint32_t time_offset;  /* OSTimeSet: OSTime = ticks since the epoch + offset (mod 2^32) */
	int32_t mx;            /* the layer's lock: a native mutex (priority inheritance) */
	uint8_t ready;         /* OSInit ran */
};
extern struct os_world os_world;

static inline unsigned os_native_prio(unsigned p)
{
	return os_world.ceiling + 1u + p;
}

/* The calling task's record (main() runs as the idle task's record until OSStart), or NULL
 * for a thread that is no task of the world. */
OS_TCB *os_cur(void);
/* The same, stopping the caller with a console report when it is not a task of the world. */
OS_TCB *os_me(void);
void os_register(OS_TCB *t);
void os_unregister(OS_TCB *t);
_Noreturn void os_fatal(const char *what);

/* The layer's lock around every change of the world's state: a native mutex (nesting counted
 * in the record), so a task that wakes or is raised above the holder may preempt it and
 * waits only if it calls the layer too (the holder then inherits its priority). */
void os_enter(OS_TCB *me);
void os_exit(OS_TCB *me);
/* The world's ceiling: the caller runs at it, so no other task of the world runs until the
 * outermost os_crit_exit (critical sections, the scheduler lock, ISR context, and the steps
 * no other task may come between: creation, self-suspension, self-deletion). */
void os_crit_enter(OS_TCB *me);
void os_crit_exit(OS_TCB *me);
/* Apply t's priority (or the ceiling while it holds the lock) to its thread. */
void os_apply_prio(OS_TCB *t, OS_TCB *me);

uint64_t os_ticks64(void);

/* OSTCBPrioTbl's mark for a priority held by no task: a mutex's PIP. */
#define OS_TCB_RESERVED ((OS_TCB *)1)
/* Move t to priority p: its place in a wait bitmap, its thread's level (os_task.c). */
void os_task_move_prio(OS_TCB *t, INT8U p, OS_TCB *me);

/* Wait bitmaps (256 priorities). */
static inline void os_bit_set(uint64_t *tbl, unsigned p)
{
	tbl[p >> 6] |= 1ull << (p & 63);
}
static inline void os_bit_clr(uint64_t *tbl, unsigned p)
{
	tbl[p >> 6] &= ~(1ull << (p & 63));
}
static inline int os_bit_first(const uint64_t *tbl)
{
	for (unsigned w = 0; w < OS_EVENT_TBL_SIZE; w++)
		if (tbl[w])
			return (int)(w * 64 + (unsigned)__builtin_ctzll(tbl[w]));
	return -1;
}

/* Block the caller (holding the lock once) until a post readies it or `timeout` ticks pass
 * (0: forever); it no longer holds the lock on return (a post wrote everything the caller
 * reads into its record before waking it), OSTCBStatPend telling which. The caller has put it
 * in the object's wait bitmap and set OSTCBStat. */
void os_block(OS_TCB *me, INT32U timeout);
/* Ready a waiting task t (with the lock held): out of its object's wait bitmap, its message
 * and pend status set, its semaphore given. */
void os_ready(OS_TCB *t, void *msg, INT8U pend_status);
/* Ready the highest-priority waiter of e; NULL when none waits. */
OS_TCB *os_event_ready_first(OS_EVENT *e, void *msg, INT8U pend_status);
void os_event_wait(OS_EVENT *e, OS_TCB *t);
/* Take t out of whatever wait bitmap holds it (event or flag group). */
void os_unwait(OS_TCB *t);
/* A fresh event control block of `type` from the pool (NULL: none left). */
OS_EVENT *os_event_alloc(INT8U type);
void os_event_free(OS_EVENT *e);
/* OSxxxDel's common part: waiting tasks get OS_ERR_PEND_ABORT; `release` (may be NULL) frees
 * what the object holds besides its ECB, under the lock. NULL when deleted, as µC/OS-II. */
OS_EVENT *os_event_del(OS_EVENT *e, INT8U type, INT8U opt, INT8U *perr,
		       void (*release)(OS_EVENT *e));
/* OSxxxPendAbort's common part: the number of tasks readied. */
INT8U os_event_abort(OS_EVENT *e, INT8U type, INT8U opt, INT8U *perr);
/* The pend checks every object shares: NULL, type, ISR, scheduler lock (OS_ERR_NONE: go on). */
INT8U os_pend_check(OS_EVENT *e, INT8U type);
INT8U os_pend_result(OS_TCB *me);

#endif
