/* The µC/OS-II configuration of the system tests (tests/system/ucos2): an ordinary
 * application's os_cfg.h, plus Partita's optional settings. */
#ifndef OS_CFG_H
#define OS_CFG_H

#define OS_LOWEST_PRIO 63u
#define OS_MAX_TASKS 24u
#define OS_MAX_EVENTS 24u
#define OS_MAX_QS 6u
#define OS_MAX_FLAGS 4u
#define OS_MAX_MEM_PART 4u
#define OS_TICKS_PER_SEC 1000u /* 1 ms ticks */
#define OS_FLAGS_NBITS 16u
#define OS_ARG_CHK_EN 1u
#define OS_TASK_STAT_EN 0u
#define OS_TMR_EN 0u
#define OS_TASK_NAME_EN 1u
#define OS_SEM_EN 1u
#define OS_MBOX_EN 1u
#define OS_Q_EN 1u
#define OS_MUTEX_EN 1u
#define OS_FLAG_EN 1u
#define OS_MEM_EN 1u

#endif
