/* Policy registry: the only place that knows every policy. Adding one is one line here. */
#include "sched.h"

/* Weak: the host unit tests of the other policies link without kernel/sched/offload (the
 * kernel image always has it); absent, PT_POLICY_OFFLOAD is unknown like any other id. */
#pragma weak pt_sched_offload_ops

const struct pt_sched_ops *pt_sched_ops_for(uint8_t policy_id)
{
	switch (policy_id) {
	case PT_POLICY_FP:
		return &pt_sched_fp_ops;
	case PT_POLICY_EDF:
		return &pt_sched_edf_ops;
	case PT_POLICY_GEDF:
		return &pt_sched_gedf_ops;
	case PT_POLICY_TDM:
		return &pt_sched_tdm_ops;
	case PT_POLICY_OFFLOAD:
		return &pt_sched_offload_ops ? &pt_sched_offload_ops : 0;
	default:
		return 0;
	}
}
