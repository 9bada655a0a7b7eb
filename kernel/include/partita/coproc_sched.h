/*
 * The scheduler coprocessor's commands (brief 2, RT-SHADOWS): the protocol between the
 * offloaded scheduling policy (kernel/sched/offload/) and the scheduler service
 * (kernel/sched/offload/schedsvc.c, pure C; the same file in QEMU's device model).
 *
 * One client slot = one scheduler instance with its own ready structure. Threads are named by
 * a handle 0 .. PT_SCHEDSVC_MAX_THREADS - 1 that the client chooses. Priorities 0..255; the
 * order is the coprocessor's configuration (`priority_order`): low_first = 0 is the highest
 * (Partita's native order), high_first = 255 is the highest. Among equal priorities: FIFO,
 * i.e. round robin when the client rotates the running thread (SUSPEND + RESUME).
 *
 * Every reply carries val[1] = the slot's best ready handle after the command (as the
 * published word PT_SCHEDSVC_PUB_NEXT).
 *
 * Every command costs the service constant time (a bitmap over 256 levels, doubly linked
 * FIFO per level; no loop over threads or levels).
 */
#ifndef PARTITA_COPROC_SCHED_H
#define PARTITA_COPROC_SCHED_H

#include <stdint.h>

#define PT_SCHEDSVC_MAX_THREADS 128u /* handles per slot (>= 64, the paper's 64 threads) */
#define PT_SCHEDSVC_LEVELS 256u
#define PT_SCHEDSVC_NONE 0xffffu     /* "no thread" in handles and in the published word */

enum pt_schedsvc_op {
	/* args: handle, prio, initial state (PT_SCHEDSVC_READY / _SUSPENDED), tag.
	 * status PT_EINVAL: bad handle / prio / state, PT_ESTATE: handle in use */
	PT_SCHEDSVC_CREATE = 1,
	PT_SCHEDSVC_DELETE = 2,      /* args: handle */
	PT_SCHEDSVC_SUSPEND = 3,     /* args: handle; leaves the ready set (no-op if not in it) */
	PT_SCHEDSVC_RESUME = 4,      /* args: handle; ready, behind its equals (no-op if ready) */
	PT_SCHEDSVC_RESUME_HEAD = 5, /* args: handle; ready, ahead of its equals (preempted) */
	PT_SCHEDSVC_SET_PRIO = 6,    /* args: handle, prio; a ready one goes behind its new equals */
	PT_SCHEDSVC_GET_ATTR = 7,    /* args: handle, attr; val[0] = the value */
	PT_SCHEDSVC_SET_ATTR = 8,    /* args: handle, attr, value (PRIO as SET_PRIO, STATE as
				      * SUSPEND / RESUME, TAG any; LEVEL read-only) */
};

enum pt_schedsvc_thread_state {
	PT_SCHEDSVC_FREE = 0,      /* handle unused */
	PT_SCHEDSVC_SUSPENDED = 1, /* known, not ready (blocked, suspended or running) */
	PT_SCHEDSVC_READY = 2,     /* in the ready set */
};

enum pt_schedsvc_attr {
	PT_SCHEDSVC_ATTR_PRIO = 0,  /* configured priority 0..255 */
	PT_SCHEDSVC_ATTR_STATE = 1, /* enum pt_schedsvc_thread_state */
	PT_SCHEDSVC_ATTR_TAG = 2,   /* the client's word (the kernel: its thread id) */
	PT_SCHEDSVC_ATTR_LEVEL = 3, /* internal level, 0 = most urgent (read-only) */
};

/* Published words of a slot */
#define PT_SCHEDSVC_PUB_NEXT 0  /* handle of the best ready thread, PT_SCHEDSVC_NONE if none */
#define PT_SCHEDSVC_PUB_NREADY 1 /* threads in the ready set */

/* The service's configuration record (struct pt_coproc.svc_cfg). */
struct pt_schedsvc_cfg {
	uint8_t high_first; /* 1: priority 255 is the highest */
};

#endif
