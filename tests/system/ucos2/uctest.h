/* Shared by the µC/OS-II test programs (tests/system/ucos2): the check task runs each
 * module's scenario in turn; each check prints "uc: ok NAME" or "uc: FAIL NAME (detail)". */
#ifndef UCTEST_H
#define UCTEST_H

#include "ucos_ii.h"

void uc_check(const char *name, int ok, long detail);
void uc_eq(const char *name, long got, long want);
/* `got` is evaluated once (it is often the call under test) */
#define UC_EQ(name, got, want) uc_eq(name, (long)(got), (long)(want))

/* Priorities: the check task runs at UC_PRIO_TEST; helpers above and below it. */
#define UC_PRIO_TEST 10u

/* A small order log the helpers append to. */
extern volatile int uc_log[16];
extern volatile int uc_nlog;
void uc_log_put(int v);
void uc_log_reset(void);

void uc_test_tasks(void);
void uc_test_time(void);
void uc_test_sem(void);
void uc_test_mbox(void);
void uc_test_q(void);
void uc_test_mutex(void);
void uc_test_flag(void);
void uc_test_mem(void);
void uc_test_isr(void);
void uc_test_race(void);

#endif
