/* The core's services for policies (kernel/core/sched_core.c), recorded for the policy tests
 * that run without the core. */
#include "sched/sched.h"

unsigned pt_test_events_changed;

void pt_sched_events_changed(struct pt_sched *s)
{
	(void)s;
	pt_test_events_changed++;
}

void pt_sched_release_held(struct pt_sched *s, struct pt_sched_entity *e)
{
	(void)s, (void)e;
}
