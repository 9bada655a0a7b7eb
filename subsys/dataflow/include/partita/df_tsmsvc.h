/*
 * The task-status manager as a coprocessor service (brief 4 phase 2; the paper's HWTSM on
 * <partita/coproc.h>): the bitmap algorithm (<partita/df_tsm.h>) runs on the coprocessor, one
 * client slot per graph (slot g = graph g of the `dataflow:` section). The RTOS posts each
 * firing (PT_DF_TSMSVC_FIRED, parallel non-blocking: no reply); the service applies it (the
 * task's next phase, its FIFOs re-evaluated) and publishes the graph's eligibility bitmap as
 * word 0 of the slot; the RTOS's query is one load of it (tsm: coproc, pt_df_tsm_coproc_ops).
 *
 * Conservative: a task's own bit could be stale-set while its firing's post is not served
 * yet, so the client also requires that post served (pt_coproc_served) before it trusts the
 * bit; any other bit only understates (the argument in <partita/df_tsm.h>).
 */
#ifndef PARTITA_DF_TSMSVC_H
#define PARTITA_DF_TSMSVC_H

#include <stdint.h>
#include <partita/coproc.h>
#include <partita/df_tsm.h>

#define PT_DF_TSMSVC_MAX_GRAPHS PT_COPROC_MAX_CLIENTS

enum pt_df_tsmsvc_op {
	PT_DF_TSMSVC_RESET = 1, /* the slot's graph: every task in phase 0, from the counters */
	PT_DF_TSMSVC_FIRED = 2, /* args[0] = task: it finished one firing */
};

struct pt_df_tsmsvc_state {
	uint32_t ngraphs;
	uint8_t ready[PT_DF_TSMSVC_MAX_GRAPHS]; /* RESET served */
	struct pt_df_tsm tsm[PT_DF_TSMSVC_MAX_GRAPHS];
};

extern const struct pt_coproc_service pt_df_tsmsvc;
extern const struct pt_df_tsm_ops pt_df_tsm_coproc_ops;

/* The dataflow subsystem's boot: bind the coproc TSM to coprocessor `c` and post each graph's
 * RESET (served when the coprocessor starts, before any firing). false if `c` is not a
 * booted dftsm coprocessor with a slot per graph. */
bool pt_df_tsm_coproc_boot(struct pt_coproc *c);

#endif
