/*
 * µC/OS-II V2.9x API on Partita (docs/compat.md, "µC/OS-II"). Our own header with µC/OS-II's
 * public names, types, constants and error codes; configured by the application's os_cfg.h.
 * Every task is a Partita thread on the world's core; scheduling, blocking and timeouts are
 * the kernel's (no second scheduler, no tick interrupt).
 */
#ifndef OS_uCOS_II_H
#define OS_uCOS_II_H

#include <stdint.h>
#include <stddef.h>
#include "os_cfg.h"

#define OS_VERSION 29200u /* the V2.92 API (V2.9x: the mutex with a reserved PIP) */

/* ---- the port's types (os_cpu.h of a RISC-V port) ---- */
typedef uint8_t BOOLEAN;
typedef uint8_t INT8U;
typedef int8_t INT8S;
typedef uint16_t INT16U;
typedef int16_t INT16S;
typedef uint32_t INT32U;
typedef int32_t INT32S;
typedef float FP32;
typedef double FP64;
typedef uint64_t OS_STK;      /* stack entries (the stack itself is a Partita thread's) */
typedef uint64_t OS_CPU_SR;   /* what OS_ENTER_CRITICAL saves: the critical-section depth */
#define OS_STK_GROWTH 1u

/* ---- configuration: required options, defaults, and what cannot mean anything here ---- */
#ifndef OS_LOWEST_PRIO
#error "os_cfg.h must define OS_LOWEST_PRIO"
#endif
#ifndef OS_MAX_TASKS
#error "os_cfg.h must define OS_MAX_TASKS"
#endif
#ifndef OS_TICKS_PER_SEC
#error "os_cfg.h must define OS_TICKS_PER_SEC"
#endif
#if OS_LOWEST_PRIO > 254
#error "OS_LOWEST_PRIO must be at most 254 (µC/OS-II V2.9x)"
#endif
#if (1000000000 % (OS_TICKS_PER_SEC)) != 0
#error "OS_TICKS_PER_SEC must divide 10^9: a tick that is not a whole number of ns would drift from Partita's clock"
#endif
#ifndef OS_PARTITA_PRIO_CEILING
#define OS_PARTITA_PRIO_CEILING 32 /* native level of critical sections; task p runs at ceiling + 1 + p */
#endif
#if (OS_PARTITA_PRIO_CEILING) + 1 + (OS_LOWEST_PRIO) > 255
#error "OS_PARTITA_PRIO_CEILING + 1 + OS_LOWEST_PRIO must be at most 255: the priorities do not fit Partita's 256 levels"
#endif
#ifndef OS_PARTITA_TASK_STK_BYTES
#define OS_PARTITA_TASK_STK_BYTES 8192 /* stack of OSTaskCreate's tasks (no size is given) */
#endif
#if defined(OS_TASK_STAT_EN) && OS_TASK_STAT_EN > 0
#error "OS_TASK_STAT_EN: the statistic task measures CPU use by an idle task's busy counter; on Partita the core idles in the kernel (wfi) and there is no such counter"
#endif
#if defined(OS_TICK_STEP_EN) && OS_TICK_STEP_EN > 0
#error "OS_TICK_STEP_EN: there is no tick interrupt on Partita to step (tick time is read from the clock)"
#endif
#if defined(OS_APP_HOOKS_EN) && OS_APP_HOOKS_EN > 0
#error "OS_APP_HOOKS_EN: Partita's context switch and timer call no application hooks (no tick ISR, no switch hook)"
#endif
#if defined(OS_CPU_HOOKS_EN) && OS_CPU_HOOKS_EN > 0
#error "OS_CPU_HOOKS_EN: the port hooks (OSTaskSwHook, OSTimeTickHook, ...) belong to the µC/OS-II port, which Partita replaces"
#endif
#if defined(OS_TMR_EN) && OS_TMR_EN > 0
#error "OS_TMR_EN: the timer manager (OSTmr*) is not implemented on Partita yet"
#endif
#if defined(OS_EVENT_MULTI_EN) && OS_EVENT_MULTI_EN > 0
#error "OS_EVENT_MULTI_EN: OSEventPendMulti is not implemented on Partita yet"
#endif
#if defined(OS_TASK_PROFILE_EN) && OS_TASK_PROFILE_EN > 0
#error "OS_TASK_PROFILE_EN: per-task switch counters need a switch hook Partita does not call (use the trace: partita trace)"
#endif
#if defined(OS_TLS_TBL_SIZE) && OS_TLS_TBL_SIZE > 0
#error "OS_TLS_TBL_SIZE: task-local storage is not implemented on Partita"
#endif
#ifndef OS_MAX_EVENTS
#define OS_MAX_EVENTS 16
#endif
#ifndef OS_MAX_QS
#define OS_MAX_QS 4
#endif
#ifndef OS_MAX_FLAGS
#define OS_MAX_FLAGS 4
#endif
#ifndef OS_MAX_MEM_PART
#define OS_MAX_MEM_PART 4
#endif
#ifndef OS_FLAGS_NBITS
#define OS_FLAGS_NBITS 16
#endif
#ifndef OS_TASK_NAME_EN
#define OS_TASK_NAME_EN 1
#endif
#ifndef OS_TASK_NAME_SIZE
#define OS_TASK_NAME_SIZE 16 /* characters kept of a task name, the NUL included */
#endif
#ifndef OS_ARG_CHK_EN
#define OS_ARG_CHK_EN 1
#endif

#if OS_FLAGS_NBITS == 8
typedef INT8U OS_FLAGS;
#elif OS_FLAGS_NBITS == 16
typedef INT16U OS_FLAGS;
#elif OS_FLAGS_NBITS == 32
typedef INT32U OS_FLAGS;
#else
#error "OS_FLAGS_NBITS must be 8, 16 or 32"
#endif

/* ---- constants ---- */
#define OS_FALSE 0u
#define OS_TRUE 1u
#define OS_PRIO_SELF 0xFFu
#define OS_N_SYS_TASKS 1u                  /* the idle task (no statistic task) */
#define OS_TASK_IDLE_PRIO (OS_LOWEST_PRIO)
#define OS_TASK_IDLE_ID 65535u
#define OS_EVENT_TBL_SIZE 4u              /* wait bitmap words: 256 priorities */

#define OS_STAT_RDY 0x00u
#define OS_STAT_SEM 0x01u
#define OS_STAT_MBOX 0x02u
#define OS_STAT_Q 0x04u
#define OS_STAT_SUSPEND 0x08u
#define OS_STAT_MUTEX 0x10u
#define OS_STAT_FLAG 0x20u
#define OS_STAT_MULTI 0x80u
#define OS_STAT_PEND_ANY (OS_STAT_SEM | OS_STAT_MBOX | OS_STAT_Q | OS_STAT_MUTEX | OS_STAT_FLAG)
#define OS_STAT_PEND_OK 0u
#define OS_STAT_PEND_TO 1u
#define OS_STAT_PEND_ABORT 2u

#define OS_EVENT_TYPE_UNUSED 0u
#define OS_EVENT_TYPE_MBOX 1u
#define OS_EVENT_TYPE_Q 2u
#define OS_EVENT_TYPE_SEM 3u
#define OS_EVENT_TYPE_MUTEX 4u
#define OS_EVENT_TYPE_FLAG 5u

#define OS_FLAG_WAIT_CLR_ALL 0u
#define OS_FLAG_WAIT_CLR_AND 0u
#define OS_FLAG_WAIT_CLR_ANY 1u
#define OS_FLAG_WAIT_CLR_OR 1u
#define OS_FLAG_WAIT_SET_ALL 2u
#define OS_FLAG_WAIT_SET_AND 2u
#define OS_FLAG_WAIT_SET_ANY 3u
#define OS_FLAG_WAIT_SET_OR 3u
#define OS_FLAG_CONSUME 0x80u
#define OS_FLAG_CLR 0u
#define OS_FLAG_SET 1u

#define OS_DEL_NO_PEND 0u
#define OS_DEL_ALWAYS 1u
#define OS_PEND_OPT_NONE 0u
#define OS_PEND_OPT_BROADCAST 1u
#define OS_POST_OPT_NONE 0x00u
#define OS_POST_OPT_BROADCAST 0x01u
#define OS_POST_OPT_FRONT 0x02u
#define OS_POST_OPT_NO_SCHED 0x04u

#define OS_TASK_OPT_NONE 0x0000u
#define OS_TASK_OPT_STK_CHK 0x0001u
#define OS_TASK_OPT_STK_CLR 0x0002u
#define OS_TASK_OPT_SAVE_FP 0x0004u

/* ---- error codes (µC/OS-II V2.92's values) ---- */
#define OS_ERR_NONE 0u
#define OS_ERR_EVENT_TYPE 1u
#define OS_ERR_PEND_ISR 2u
#define OS_ERR_POST_NULL_PTR 3u
#define OS_ERR_PEVENT_NULL 4u
#define OS_ERR_POST_ISR 5u
#define OS_ERR_QUERY_ISR 6u
#define OS_ERR_INVALID_OPT 7u
#define OS_ERR_ID_INVALID 8u
#define OS_ERR_PDATA_NULL 9u
#define OS_ERR_TIMEOUT 10u
#define OS_ERR_EVENT_NAME_TOO_LONG 11u
#define OS_ERR_PNAME_NULL 12u
#define OS_ERR_PEND_LOCKED 13u
#define OS_ERR_PEND_ABORT 14u
#define OS_ERR_DEL_ISR 15u
#define OS_ERR_CREATE_ISR 16u
#define OS_ERR_NAME_GET_ISR 17u
#define OS_ERR_NAME_SET_ISR 18u
#define OS_ERR_ILLEGAL_CREATE_RUN_TIME 19u
#define OS_ERR_MBOX_FULL 20u
#define OS_ERR_Q_FULL 30u
#define OS_ERR_Q_EMPTY 31u
#define OS_ERR_PRIO_EXIST 40u
#define OS_ERR_PRIO 41u
#define OS_ERR_PRIO_INVALID 42u
#define OS_ERR_SCHED_LOCKED 50u
#define OS_ERR_SEM_OVF 51u
#define OS_ERR_TASK_CREATE_ISR 60u
#define OS_ERR_TASK_DEL 61u
#define OS_ERR_TASK_DEL_IDLE 62u
#define OS_ERR_TASK_DEL_REQ 63u
#define OS_ERR_TASK_DEL_ISR 64u
#define OS_ERR_TASK_NAME_TOO_LONG 65u
#define OS_ERR_TASK_NO_MORE_TCB 66u
#define OS_ERR_TASK_NOT_EXIST 67u
#define OS_ERR_TASK_NOT_SUSPENDED 68u
#define OS_ERR_TASK_OPT 69u
#define OS_ERR_TASK_RESUME_PRIO 70u
#define OS_ERR_TASK_SUSPEND_IDLE 71u
#define OS_ERR_TASK_SUSPEND_PRIO 72u
#define OS_ERR_TASK_WAITING 73u
#define OS_ERR_TIME_NOT_DLY 80u
#define OS_ERR_TIME_INVALID_MINUTES 81u
#define OS_ERR_TIME_INVALID_SECONDS 82u
#define OS_ERR_TIME_INVALID_MS 83u
#define OS_ERR_TIME_ZERO_DLY 84u
#define OS_ERR_TIME_DLY_ISR 85u
#define OS_ERR_MEM_INVALID_PART 90u
#define OS_ERR_MEM_INVALID_BLKS 91u
#define OS_ERR_MEM_INVALID_SIZE 92u
#define OS_ERR_MEM_NO_FREE_BLKS 93u
#define OS_ERR_MEM_FULL 94u
#define OS_ERR_MEM_INVALID_PBLK 95u
#define OS_ERR_MEM_INVALID_PMEM 96u
#define OS_ERR_MEM_INVALID_PDATA 97u
#define OS_ERR_MEM_INVALID_ADDR 98u
#define OS_ERR_MEM_NAME_TOO_LONG 99u
#define OS_ERR_NOT_MUTEX_OWNER 100u
#define OS_ERR_FLAG_INVALID_PGRP 110u
#define OS_ERR_FLAG_WAIT_TYPE 111u
#define OS_ERR_FLAG_NOT_RDY 112u
#define OS_ERR_FLAG_INVALID_OPT 113u
#define OS_ERR_FLAG_GRP_DEPLETED 114u
#define OS_ERR_FLAG_NAME_TOO_LONG 115u
#define OS_ERR_PIP_LOWER 120u
#define OS_ERR_PCP_LOWER OS_ERR_PIP_LOWER /* V2.93's name */

/* ---- control blocks ---- */
struct os_tcb;

/* An event (semaphore, mailbox, queue, mutex): µC/OS-II's ECB fields, the wait list a bitmap
 * over the 256 priorities (bit p: the task at priority p waits). */
typedef struct os_event {
	INT8U OSEventType;
	INT8U OSEventGrp;      /* nonzero while a task waits (µC/OS-II: the group bitmap) */
	INT16U OSEventCnt;     /* semaphore count; mutex: PIP << 8 | owner's priority (0xFF: free) */
	void *OSEventPtr;      /* mailbox message, queue's OS_Q, mutex owner's OS_TCB */
	uint64_t OSEventTbl[OS_EVENT_TBL_SIZE];
	INT8U OSEventName[16];
} OS_EVENT;

/* A queue's ring of message pointers in the application's array. */
typedef struct os_q {
	struct os_q *OSQPtr;
	void **OSQStart, **OSQEnd, **OSQIn, **OSQOut;
	INT16U OSQSize, OSQEntries;
} OS_Q;

typedef struct os_flag_grp {
	INT8U OSFlagType;
	uint64_t OSFlagWaitTbl[OS_EVENT_TBL_SIZE]; /* waiting tasks by priority */
	OS_FLAGS OSFlagFlags;
	INT8U OSFlagName[16];
} OS_FLAG_GRP;

typedef struct os_mem {
	void *OSMemAddr;
	void *OSMemFreeList;
	INT32U OSMemBlkSize, OSMemNBlks, OSMemNFree;
	INT8U OSMemName[16];
} OS_MEM;

typedef struct os_tcb {
	/* µC/OS-II's fields that applications read (OSTaskQuery copies the whole block) */
	OS_STK *OSTCBStkPtr;
	void *OSTCBExtPtr;
	OS_STK *OSTCBStkBottom;
	INT32U OSTCBStkSize;
	INT16U OSTCBOpt;
	INT16U OSTCBId;
	OS_EVENT *OSTCBEventPtr;   /* the event it waits on */
	void *OSTCBMsg;            /* the message a post handed it */
	OS_FLAG_GRP *OSTCBFlagGrp; /* the flag group it waits on */
	OS_FLAGS OSTCBFlagsWait;   /* flags it waits for */
	OS_FLAGS OSTCBFlagsRdy;    /* flags that made it ready */
	INT8U OSTCBFlagWaitType;
	INT32U OSTCBDly;           /* ticks left of its delay or timeout (OSTaskQuery computes it) */
	INT8U OSTCBStat;           /* OS_STAT_* */
	INT8U OSTCBStatPend;       /* OS_STAT_PEND_* */
	INT8U OSTCBPrio;           /* its priority now (the PIP while it holds a contended mutex) */
	INT8U OSTCBDelReq;         /* OS_ERR_TASK_DEL_REQ after OSTaskDelReq(prio) */
	INT8U OSTCBTaskName[OS_TASK_NAME_SIZE];
	/* Partita's */
	INT32U OSTCBMagic;         /* OS_PARTITA_TCB_MAGIC while the task exists */
	INT32S OSTCBTid;           /* its thread */
	INT32S OSTCBSem;           /* native semaphore it blocks on (created at its first wait) */
	INT32U OSTCBCritNest;      /* critical sections / scheduler lock / ISR held (at the ceiling) */
	INT32U OSTCBLockNest;      /* the layer's lock (the world's native mutex) held */
	INT8U OSTCBWaiting;        /* blocked in a pend or delay that no post has ended yet */
	INT8U OSTCBAtLock;         /* taking the layer's lock (from before the call until it has it) */
	INT8U OSTCBSuspendAtLock;  /* suspended while taking the layer's lock: suspends itself
				    * once it has the lock, after releasing it */
	INT8U OSTCBOwnPrio;        /* the priority it owns in OSTCBPrioTbl (OSTCBPrio but at a PIP) */
	struct os_tcb *OSTCBNextFree; /* the layer's free list of records */
	uint64_t OSTCBDlyUntil;    /* tick its delay or timeout ends at (0: none) */
	void (*OSTCBTask)(void *);
	void *OSTCBArg;
} OS_TCB;
#define OS_PARTITA_TCB_MAGIC 0x55434f53u /* "UCOS" */

typedef struct os_sem_data {
	INT16U OSCnt;
	uint64_t OSEventTbl[OS_EVENT_TBL_SIZE];
	INT8U OSEventGrp;
} OS_SEM_DATA;

typedef struct os_mbox_data {
	void *OSMsg;
	uint64_t OSEventTbl[OS_EVENT_TBL_SIZE];
	INT8U OSEventGrp;
} OS_MBOX_DATA;

typedef struct os_q_data {
	void *OSMsg;       /* the next message, NULL when empty */
	INT16U OSNMsgs, OSQSize;
	uint64_t OSEventTbl[OS_EVENT_TBL_SIZE];
	INT8U OSEventGrp;
} OS_Q_DATA;

typedef struct os_mutex_data {
	uint64_t OSEventTbl[OS_EVENT_TBL_SIZE];
	INT8U OSEventGrp;
	BOOLEAN OSValue;   /* OS_TRUE: available */
	INT8U OSOwnerPrio; /* 0xFF when available */
	INT8U OSMutexPIP;
} OS_MUTEX_DATA;

typedef struct os_mem_data {
	void *OSAddr, *OSFreeList;
	INT32U OSBlkSize, OSNBlks, OSNFree, OSNUsed;
} OS_MEM_DATA;

/* ---- the world's state that applications may read ---- */
extern volatile INT8U OSIntNesting;
extern volatile INT8U OSLockNesting;
extern volatile BOOLEAN OSRunning;
extern volatile INT32U OSCtxSwCtr; /* not counted on Partita: stays 0 */
extern OS_TCB *OSTCBPrioTbl[OS_LOWEST_PRIO + 1];

/* ---- critical sections (OS_CRITICAL_METHOD 3: the caller declares OS_CPU_SR cpu_sr) ---- */
#define OS_CRITICAL_METHOD 3u
OS_CPU_SR OSPartitaCritEnter(void);
void OSPartitaCritExit(OS_CPU_SR sr);
#define OS_ENTER_CRITICAL() (cpu_sr = OSPartitaCritEnter())
#define OS_EXIT_CRITICAL() (OSPartitaCritExit(cpu_sr))
#define OS_TASK_SW() OSPartitaYield()
void OSPartitaYield(void);

/* ---- core ---- */
void OSInit(void);
void OSStart(void);
void OSIntEnter(void);
void OSIntExit(void);
void OSSchedLock(void);
void OSSchedUnlock(void);
INT16U OSVersion(void);
void OSTimeTick(void); /* does nothing: there is no tick interrupt to count */

/* ---- tasks ---- */
INT8U OSTaskCreate(void (*task)(void *p_arg), void *p_arg, OS_STK *ptos, INT8U prio);
INT8U OSTaskCreateExt(void (*task)(void *p_arg), void *p_arg, OS_STK *ptos, INT8U prio,
		      INT16U id, OS_STK *pbos, INT32U stk_size, void *pext, INT16U opt);
INT8U OSTaskDel(INT8U prio);
INT8U OSTaskDelReq(INT8U prio);
INT8U OSTaskSuspend(INT8U prio);
INT8U OSTaskResume(INT8U prio);
INT8U OSTaskChangePrio(INT8U oldprio, INT8U newprio);
INT8U OSTaskQuery(INT8U prio, OS_TCB *p_task_data);
INT8U OSTaskNameGet(INT8U prio, INT8U **pname, INT8U *perr);
void OSTaskNameSet(INT8U prio, INT8U *pname, INT8U *perr);

/* ---- time ---- */
void OSTimeDly(INT32U ticks);
INT8U OSTimeDlyHMSM(INT8U hours, INT8U minutes, INT8U seconds, INT16U ms);
INT8U OSTimeDlyResume(INT8U prio);
INT32U OSTimeGet(void);
void OSTimeSet(INT32U ticks);

/* ---- semaphores ---- */
OS_EVENT *OSSemCreate(INT16U cnt);
void OSSemPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr);
INT8U OSSemPost(OS_EVENT *pevent);
INT16U OSSemAccept(OS_EVENT *pevent);
OS_EVENT *OSSemDel(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSSemPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSSemQuery(OS_EVENT *pevent, OS_SEM_DATA *p_sem_data);
void OSSemSet(OS_EVENT *pevent, INT16U cnt, INT8U *perr);

/* ---- mailboxes ---- */
OS_EVENT *OSMboxCreate(void *pmsg);
void *OSMboxPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr);
INT8U OSMboxPost(OS_EVENT *pevent, void *pmsg);
INT8U OSMboxPostOpt(OS_EVENT *pevent, void *pmsg, INT8U opt);
void *OSMboxAccept(OS_EVENT *pevent);
OS_EVENT *OSMboxDel(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSMboxPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSMboxQuery(OS_EVENT *pevent, OS_MBOX_DATA *p_mbox_data);

/* ---- queues ---- */
OS_EVENT *OSQCreate(void **start, INT16U size);
void *OSQPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr);
INT8U OSQPost(OS_EVENT *pevent, void *pmsg);
INT8U OSQPostFront(OS_EVENT *pevent, void *pmsg);
INT8U OSQPostOpt(OS_EVENT *pevent, void *pmsg, INT8U opt);
void *OSQAccept(OS_EVENT *pevent, INT8U *perr);
INT8U OSQFlush(OS_EVENT *pevent);
OS_EVENT *OSQDel(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSQPendAbort(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSQQuery(OS_EVENT *pevent, OS_Q_DATA *p_q_data);

/* ---- mutexes ---- */
OS_EVENT *OSMutexCreate(INT8U prio, INT8U *perr);
void OSMutexPend(OS_EVENT *pevent, INT32U timeout, INT8U *perr);
INT8U OSMutexPost(OS_EVENT *pevent);
BOOLEAN OSMutexAccept(OS_EVENT *pevent, INT8U *perr);
OS_EVENT *OSMutexDel(OS_EVENT *pevent, INT8U opt, INT8U *perr);
INT8U OSMutexQuery(OS_EVENT *pevent, OS_MUTEX_DATA *p_mutex_data);

/* ---- event flags ---- */
OS_FLAG_GRP *OSFlagCreate(OS_FLAGS flags, INT8U *perr);
OS_FLAGS OSFlagPend(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U wait_type, INT32U timeout, INT8U *perr);
OS_FLAGS OSFlagPost(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U opt, INT8U *perr);
OS_FLAGS OSFlagAccept(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U wait_type, INT8U *perr);
OS_FLAG_GRP *OSFlagDel(OS_FLAG_GRP *pgrp, INT8U opt, INT8U *perr);
OS_FLAGS OSFlagQuery(OS_FLAG_GRP *pgrp, INT8U *perr);
OS_FLAGS OSFlagPendGetFlagsRdy(void);

/* ---- memory partitions ---- */
OS_MEM *OSMemCreate(void *addr, INT32U nblks, INT32U blksize, INT8U *perr);
void *OSMemGet(OS_MEM *pmem, INT8U *perr);
INT8U OSMemPut(OS_MEM *pmem, void *pblk);
INT8U OSMemQuery(OS_MEM *pmem, OS_MEM_DATA *p_mem_data);

/* The world's start-up thread's entry (the system configuration's `entry:`); its `arg`, when
 * nonzero, is the world's ceiling priority. It calls the application's main(). */
void ucos2_main_entry(void *arg);

#endif
