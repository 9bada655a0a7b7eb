/*
 * Task-status manager (the paper's HWTSM, §5.1): which tasks of a data-flow graph are
 * eligible, i.e. may fire now. A task is eligible when, in its current CSDF phase, every input
 * FIFO holds at least the phase's consumption rate in tokens and every output FIFO has at
 * least the phase's production rate in space (the C-HEAP firing rules, <partita/df_fifo.h>).
 *
 * Two implementations behind one ops table (struct pt_df_tsm_ops):
 *   scan   (pt_df_tsm_scan_ops): the RTOS reads every FIFO of the task it asks about: the
 *          software TSM, cost linear in the FIFOs of a task (StS) or tasks x FIFOs (DyS);
 *   bitmap (pt_df_tsm_bitmap_ops): an eligibility bitmap kept up to date by counter-change
 *          notifications (counter_changed); the query is one load. This is the algorithm a
 *          coprocessor runs (phase 2 puts it on <partita/coproc.h>); here it runs inline.
 *
 * Conservative, both: a task reported eligible is eligible. Why this holds with FIFOs shared
 * with other cores: a task's own counters (rc of its inputs, wc of its outputs) change only
 * when it fires, and the RTOS reports the firing (fired) before it asks again; every other
 * counter only grows, which only adds tokens to its inputs and space to its outputs. A stale
 * view therefore understates eligibility, never overstates it. The bitmap clears the task's
 * bit synchronously in `fired` and sets bits only from counters it has read.
 *
 * At most PT_DF_MAX_TASKS tasks per graph (one bit each in a uint64_t).
 */
#ifndef PARTITA_DF_TSM_H
#define PARTITA_DF_TSM_H

#include <stdbool.h>
#include <stdint.h>
#include <partita/df_fifo.h>

#define PT_DF_MAX_TASKS 64
#define PT_DF_MAX_PHASES 16

enum pt_df_dir { PT_DF_IN = 0, PT_DF_OUT = 1 };

/* One port of a task: its FIFO and its rate in each CSDF phase (SDF: nphases = 1). */
struct pt_df_port {
	uint16_t fifo;    /* index into the graph's fifos */
	uint8_t dir;      /* enum pt_df_dir */
	uint8_t nphases;  /* 1..PT_DF_MAX_PHASES; equal for all ports of a task */
	uint32_t rate[PT_DF_MAX_PHASES]; /* tokens consumed (IN) / produced (OUT) per phase */
};

struct pt_df_task_desc {
	uint32_t tid;        /* the kernel thread that runs it (0: none yet) */
	uint16_t first_port; /* its ports: ports[first_port .. first_port + nports) */
	uint16_t nports;
	uint8_t nphases;     /* CSDF phases (1: SDF) */
};

/* A graph as generated from YAML (partita config): constant after boot. */
struct pt_df_graph {
	uint32_t ntasks, nports, nfifos;
	const struct pt_df_task_desc *tasks;
	const struct pt_df_port *ports;
	struct pt_df_fifo *const *fifos; /* each in memory every core of the graph reaches */
};

/* A TSM instance over one graph. Owned by the RTOS of the graph's cores (phase 2: updated by
 * the coprocessor); `phase` is each task's current CSDF phase. */
struct pt_df_tsm {
	const struct pt_df_tsm_ops *ops;
	const struct pt_df_graph *g;
	uint8_t phase[PT_DF_MAX_TASKS];
	uint64_t bitmap;       /* bitmap ops: the eligible tasks as last computed */
	uint64_t fifo_checks;  /* FIFO counter pairs read so far (cost measure) */
};

struct pt_df_tsm_ops {
	const char *name;
	/* every task in phase 0, state computed from the FIFOs' current counters */
	void (*reset)(struct pt_df_tsm *t);
	/* StS: is task `task` eligible (conservative) */
	bool (*eligible)(struct pt_df_tsm *t, uint32_t task);
	/* DyS: the first eligible task at or after `from` in round-robin order, or -1 */
	int32_t (*next_eligible)(struct pt_df_tsm *t, uint32_t from);
	/* the task finished one firing (its counters are updated): next CSDF phase. Its own
	 * status is updated before this returns; the tasks at the other ends of its FIFOs
	 * learn of it through counter_changed (late is safe, only later than needed). Calls on
	 * one instance are serialised by its owner (one RTOS, or the coprocessor). */
	void (*fired)(struct pt_df_tsm *t, uint32_t task);
	/* a counter of FIFO `fifo` changed (another core fired): bitmap ops re-evaluate */
	void (*counter_changed)(struct pt_df_tsm *t, uint32_t fifo);
};

extern const struct pt_df_tsm_ops pt_df_tsm_scan_ops;
extern const struct pt_df_tsm_ops pt_df_tsm_bitmap_ops;

/* Set up t over g with ops; false if g is out of range (too many tasks or phases, a port
 * naming a FIFO that does not exist). */
bool pt_df_tsm_init(struct pt_df_tsm *t, const struct pt_df_tsm_ops *ops,
		    const struct pt_df_graph *g);

/* The reference rule, reading the FIFOs now (scan's query; used by tests). */
bool pt_df_task_can_fire(const struct pt_df_graph *g, uint32_t task, uint32_t phase,
			 uint64_t *fifo_checks);

#endif
