/*
 * A generic data-flow actor for `partita experiment dataflow` (tools/partita/experiments/
 * dataflow.py): arg = graph << 8 | actor. Each firing consumes and produces its ports' rates
 * of the current CSDF phase (the tokens are counted, not touched) and waits for its next turn.
 */
#include <stdint.h>
#include <partita/dataflow.h>

void df_bench_actor(void *arg)
{
	uint32_t g = (uint32_t)(uintptr_t)arg >> 8, a = (uint32_t)(uintptr_t)arg & 0xff;
	const struct pt_df_graph *gr = &pt_df_config.graphs[g].graph;
	const struct pt_df_task_desc *d = &gr->tasks[a];
	uint32_t phase = 0;

	pt_df_actor_bind(g, a);
	pt_df_end_slot();
	for (;;) {
		for (uint32_t i = 0; i < d->nports; i++) {
			const struct pt_df_port *p = &gr->ports[d->first_port + i];
			if (p->dir == PT_DF_IN)
				pt_df_fifo_release(gr->fifos[p->fifo], p->rate[phase]);
			else
				pt_df_fifo_commit(gr->fifos[p->fifo], p->rate[phase]);
		}
		phase = (phase + 1) % d->nphases;
		pt_df_fired(g, a);
		pt_df_end_slot();
	}
}
