/*
 * Hooks of the two-level TDM policy (kernel/sched/tdm, docs/dataflow.md) for the code that
 * knows whether a task may run: a data-flow subsystem's task-status manager. The policy
 * asks `eligible` for each candidate in the RTOS slot and reports its decision with
 * `decided`; both run on the deciding cpu with its scheduler instance locked and interrupts
 * masked, so they must be short and take no kernel lock.
 */
#ifndef PARTITA_TDM_H
#define PARTITA_TDM_H

#include <stdbool.h>
#include <stdint.h>

struct pt_tdm_hooks {
	/* may thread `tid` fire now? Conservative answers only (never yes for a task that may
	 * not). NULL: every ready task may. */
	bool (*eligible)(uint32_t tid);
	/* the RTOS slot's decision on `cpu` for application `app` is taken: `tid` runs in the
	 * application slot (0: the slot idles). `event_cycles`: when the policy's event began
	 * (hal_cycles() - event_cycles is the decision's cost). May be NULL. */
	void (*decided)(uint32_t cpu, uint32_t app, uint32_t tid, uint64_t event_cycles);
};

/* Install the hooks (hart 0 at boot, before other harts schedule: a subsystem's boot hook).
 * One set for every TDM instance; NULL removes them. */
void pt_tdm_set_hooks(const struct pt_tdm_hooks *hooks);

#endif
