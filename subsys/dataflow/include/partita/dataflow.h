/*
 * Data-flow applications (brief 4): the graphs `partita config` generated from the
 * `dataflow:` section, their C-HEAP FIFOs (<partita/df_fifo.h>) and task-status managers
 * (<partita/df_tsm.h>). An actor's task finds its FIFOs by name, fires by claiming tokens and
 * space in place and releasing / committing them, then reports the firing:
 *
 *     struct pt_df_fifo *in = pt_df_fifo_find("jpeg", "coef");
 *     if (pt_df_fifo_can_read(in, 2)) { ... pt_df_fifo_claim_token(in, 0) ...
 *                                       pt_df_fifo_release(in, 2); pt_df_fired(g, actor); }
 *
 * The FIFOs live in kernel memory shared by the graph's cores: actors run in kernel
 * partitions (user partitions: not yet).
 */
#ifndef PARTITA_DATAFLOW_H
#define PARTITA_DATAFLOW_H

#include <stdint.h>
#include <partita/df_fifo.h>
#include <partita/df_tsm.h>

/* One graph of the configuration (generated, constant but for the FIFOs' contents). */
struct pt_df_graph_cfg {
	const char *name;
	struct pt_df_graph graph;
	const char *const *actor_names; /* ntasks */
	const char *const *fifo_names;  /* nfifos */
	const uint16_t *actor_cpu;      /* ntasks */
	const uint32_t *repetition;     /* ntasks: firings per iteration */
	uint8_t *const *bufs;           /* nfifos: size * token_bytes bytes each */
	const uint32_t *fifo_size, *fifo_token_bytes, *fifo_initial; /* nfifos */
};

struct pt_df_sys_cfg {
	uint32_t ngraphs;
	uint8_t tsm_bitmap;             /* 0: scan, 1: bitmap (ignored with tsm_coproc) */
	const char *tsm_coproc;         /* tsm: coproc: the coprocessor's name (dftsm service,
					 * <partita/df_tsmsvc.h>); NULL: inline scan / bitmap */
	const struct pt_df_graph_cfg *graphs;
	struct pt_df_tsm *tsms;         /* ngraphs instances */
};

extern const struct pt_df_sys_cfg pt_df_config; /* generated: pt_dataflow_config.c */

/* The graph named `graph`, or -1. */
int32_t pt_df_graph_find(const char *graph);
/* The FIFO `fifo` of graph `graph`, or NULL. */
struct pt_df_fifo *pt_df_fifo_find(const char *graph, const char *fifo);
/* The index of actor `actor` in graph g, or -1. */
int32_t pt_df_actor_find(uint32_t g, const char *actor);
/* The graph's task-status manager (its ops answer eligible / next_eligible). */
struct pt_df_tsm *pt_df_tsm_of(uint32_t g);
/* The calling thread runs actor `actor` of graph g: the TDM policy asks the graph's TSM
 * whether it may fire (<partita/tdm.h>). 0 or PT_EINVAL. */
int pt_df_actor_bind(uint32_t g, uint32_t actor);
/* After a firing, under the tdm policy: wait (spinning in the task's own slot, no timer) until
 * the policy chooses the task for another slot; one firing per slot. PT_EINVAL outside a
 * thread. */
int pt_df_end_slot(void);
/* Actor `actor` of graph g finished one firing (its FIFO counters are updated): its CSDF
 * phase advances and the TSM learns of the counters it moved. Serialised per graph. */
void pt_df_fired(uint32_t g, uint32_t actor);

#endif
