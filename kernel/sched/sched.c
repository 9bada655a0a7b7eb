/* Policy registry: the only place that knows every policy. Adding one is one line here. */
#include "sched.h"

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
	default:
		return 0;
	}
}
