/*
 * The native Partita API. The same functions serve kernel threads (a direct call into the
 * kernel) and user threads (an `ecall`, every argument checked): the stubs live in the user
 * window and pick the path from the privilege they run at.
 *
 * Times: `_ns` arguments are virtual nanoseconds; `cycles` are hal_cycles() units
 * (instructions under icount: 1 cycle = 2^shift ns). Errors are negative PT_E* codes.
 */
#ifndef PARTITA_API_H
#define PARTITA_API_H

#include <stdint.h>
#include <stddef.h>
#include <partita/limits.h> /* PT_THREAD_NAME_MAX */

#define PT_OK 0
#define PT_EINVAL (-1)    /* bad argument (id, pointer, value) */
#define PT_ENOSPC (-2)    /* a static pool is exhausted */
#define PT_ETIMEDOUT (-3) /* a blocking call timed out */
#define PT_EPERM (-4)     /* not allowed from the caller's partition */
#define PT_EAGAIN (-5)    /* would block (zero timeout) or too early */
#define PT_ESTATE (-6)    /* object or thread in the wrong state */
#define PT_EDELETED (-7)  /* object deleted while waiting */
#define PT_EOWNERDEAD (-8) /* mutex acquired, but its previous owner was stopped or its job
			    * aborted (budget) while holding it: the protected state may be
			    * inconsistent */
#define PT_EQUOTA (-9)    /* the partition's quota for this resource is used up */

#define PT_WAIT_FOREVER UINT64_MAX
#define PT_NO_WAIT 0


/* Application globals are private to each user partition (every partition gets its own copy
 * of .data/.bss). A variable marked PT_SHARED lives in pages that every partition and every
 * kernel thread share: the explicit, reviewable way to exchange data between partitions. */
#define PT_SHARED __attribute__((section(".ushared")))

/* Attributes of a dynamically created thread (see pt_thread_cfg for the static ones). */
struct pt_thread_attr {
	const char *name;         /* copied, at most PT_THREAD_NAME_MAX characters */
	void (*entry)(void *arg); /* job body (periodic/sporadic) or thread body */
	void *arg;
	uint16_t priority;        /* FP: 0 highest .. 255 lowest */
	int16_t cpu;              /* pinned cpu, -1 = any cpu of the scheduler instance */
	int16_t sched;            /* scheduler instance, -1 = the caller's */
	uint8_t kind;             /* enum pt_thread_kind (config.h) */
	uint8_t miss_policy;      /* enum pt_miss_policy */
	uint8_t enforce_budget;
	uint32_t stack_bytes;     /* 0 = default (8 KiB) */
	uint64_t period_ns, deadline_ns, offset_ns, wcet_ns;
};

/* Threads. tid 0 in delete/suspend/resume/set_priority means the caller. A user thread may
 * act only on threads of its own partition. */
int pt_thread_create(const struct pt_thread_attr *attr); /* tid > 0 */
int pt_thread_delete(int tid);
int pt_thread_suspend(int tid);
int pt_thread_resume(int tid);
int pt_thread_set_priority(int tid, unsigned priority);
void pt_thread_yield(void);
int pt_thread_self(void);
_Noreturn void pt_thread_exit(void);
/* What a thread is doing now (0 = the caller): a PT_THREAD_* value, or PT_EINVAL for a
 * thread that does not exist (deleted, exited) or that the caller may not act on. */
enum {
	PT_THREAD_READY = 1,       /* ready, waiting for its cpu */
	PT_THREAD_RUNNING = 2,     /* on its cpu */
	PT_THREAD_BLOCKED = 3,     /* on a semaphore, mutex, queue or sleeping */
	PT_THREAD_SUSPENDED = 4,   /* pt_thread_suspend (also: requested, not yet taken effect) */
	PT_THREAD_WAIT_PERIOD = 5, /* real-time thread between jobs */
	PT_THREAD_STOPPED = 6,     /* stopped by the kernel (fault, miss policy) */
};
int pt_thread_state(int tid);
/* Its effective FP priority now (0 = the caller): the base priority or a better one it
 * inherits through a mutex; PT_EINVAL as pt_thread_state. */
int pt_thread_priority(int tid);
/* End thread tid's wait (semaphore, mutex, queue or sleep) now, as if its timeout expired:
 * its call returns PT_ETIMEDOUT (a sleep returns PT_OK). PT_ESTATE when it is not waiting,
 * PT_EINVAL for the caller itself or a thread it may not act on. */
int pt_thread_abort_wait(int tid);

/* Time. */
uint64_t pt_time_cycles(void);  /* hal_cycles(): readable from U-mode without a trap */
/* One cycle is 2^pt_time_shift() ns (the icount shift): ns = cycles << shift. */
unsigned pt_time_shift(void);
int pt_sleep_ns(uint64_t ns);
int pt_sleep_until(uint64_t abs_cycles);

/* The round-robin slice among equal priorities of the caller's scheduler instance, in ns
 * (its configuration's rr_slice; 0 = none, and for EDF and G-EDF). */
int64_t pt_sched_rr_slice_ns(void);

/* Real-time jobs: end the current job and wait for the next release. */
int pt_wait_next_period(void);
/* Release a sporadic thread's next job (PT_EAGAIN if its minimum inter-arrival time has not
 * elapsed or the previous job is still running). */
int pt_sporadic_release(int tid);

/* Console and trace. */
int pt_console_write(const char *s, size_t n);
int pt_trace_mark(uint64_t a0, uint64_t a1);

#endif
