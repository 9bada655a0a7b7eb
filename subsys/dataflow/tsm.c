/*
 * The task-status manager's two implementations (see <partita/df_tsm.h>): scan (the RTOS
 * reads the FIFOs) and bitmap (kept up to date by counter notifications; the coprocessor's
 * algorithm). Portable: no HAL, no kernel state; compiled into the image and host tests.
 */
#include <partita/df_tsm.h>

bool pt_df_task_can_fire(const struct pt_df_graph *g, uint32_t task, uint32_t phase,
			 uint64_t *fifo_checks)
{
	const struct pt_df_task_desc *d = &g->tasks[task];
	bool ok = true;

	for (uint32_t i = 0; i < d->nports; i++) {
		const struct pt_df_port *p = &g->ports[d->first_port + i];
		const struct pt_df_fifo *f = g->fifos[p->fifo];
		uint32_t need = p->rate[phase];

		if (fifo_checks)
			(*fifo_checks)++;
		/* no early exit: the cost of a check does not depend on which port fails, so the
		 * time of a question depends only on the task asked about (its FIFO count) */
		ok &= p->dir == PT_DF_IN ? pt_df_fifo_can_read(f, need)
					 : pt_df_fifo_can_write(f, need);
	}
	return ok;
}

bool pt_df_tsm_init(struct pt_df_tsm *t, const struct pt_df_tsm_ops *ops,
		    const struct pt_df_graph *g)
{
	if (g->ntasks > PT_DF_MAX_TASKS)
		return false;
	for (uint32_t k = 0; k < g->ntasks; k++) {
		const struct pt_df_task_desc *d = &g->tasks[k];
		if (d->nphases == 0 || d->nphases > PT_DF_MAX_PHASES ||
		    (uint32_t)d->first_port + d->nports > g->nports)
			return false;
		for (uint32_t i = 0; i < d->nports; i++) {
			const struct pt_df_port *p = &g->ports[d->first_port + i];
			if (p->fifo >= g->nfifos || p->nphases != d->nphases || p->dir > PT_DF_OUT)
				return false;
		}
	}
	t->ops = ops;
	t->g = g;
	t->fifo_checks = 0;
	ops->reset(t);
	return true;
}

/* ---- scan: every question reads the FIFOs ---- */

static void scan_reset(struct pt_df_tsm *t)
{
	for (uint32_t k = 0; k < PT_DF_MAX_TASKS; k++)
		t->phase[k] = 0;
	t->bitmap = 0;
}

static bool scan_eligible(struct pt_df_tsm *t, uint32_t task)
{
	return pt_df_task_can_fire(t->g, task, t->phase[task], &t->fifo_checks);
}

static int32_t scan_next_eligible(struct pt_df_tsm *t, uint32_t from)
{
	uint32_t n = t->g->ntasks;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = (from + i) % n;
		if (scan_eligible(t, k))
			return (int32_t)k;
	}
	return -1;
}

static void scan_fired(struct pt_df_tsm *t, uint32_t task)
{
	t->phase[task] = (uint8_t)((t->phase[task] + 1u) % t->g->tasks[task].nphases);
}

static void scan_counter_changed(struct pt_df_tsm *t, uint32_t fifo)
{
	(void)t, (void)fifo; /* scan reads the counters when asked */
}

const struct pt_df_tsm_ops pt_df_tsm_scan_ops = {
	.name = "scan",
	.reset = scan_reset,
	.eligible = scan_eligible,
	.next_eligible = scan_next_eligible,
	.fired = scan_fired,
	.counter_changed = scan_counter_changed,
};

/* ---- bitmap: kept up to date by notifications, questions are one load ---- */

static void bitmap_eval(struct pt_df_tsm *t, uint32_t task)
{
	uint64_t bit = 1ull << task;
	if (pt_df_task_can_fire(t->g, task, t->phase[task], &t->fifo_checks))
		t->bitmap |= bit;
	else
		t->bitmap &= ~bit;
}

static void bitmap_reset(struct pt_df_tsm *t)
{
	scan_reset(t);
	for (uint32_t k = 0; k < t->g->ntasks; k++)
		bitmap_eval(t, k);
}

static bool bitmap_eligible(struct pt_df_tsm *t, uint32_t task)
{
	return (t->bitmap >> task) & 1u;
}

static int32_t bitmap_next_eligible(struct pt_df_tsm *t, uint32_t from)
{
	uint32_t n = t->g->ntasks;
	uint64_t m = t->bitmap;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = (from + i) % n;
		if ((m >> k) & 1u)
			return (int32_t)k;
	}
	return -1;
}

/* The task's own counters moved: its bit is recomputed now, in its new phase (a stale bit
 * could claim it eligible). The tasks at the other ends of its FIFOs only gained tokens or
 * space: they hear of it by counter_changed, whenever that comes (the coprocessor sees the
 * counter writes; inline, the RTOS reports each FIFO of the task). */
static void bitmap_fired(struct pt_df_tsm *t, uint32_t task)
{
	scan_fired(t, task);
	bitmap_eval(t, task);
}

static void bitmap_counter_changed(struct pt_df_tsm *t, uint32_t fifo)
{
	const struct pt_df_graph *g = t->g;
	for (uint32_t k = 0; k < g->ntasks; k++) {
		const struct pt_df_task_desc *d = &g->tasks[k];
		for (uint32_t i = 0; i < d->nports; i++)
			if (g->ports[d->first_port + i].fifo == fifo) {
				bitmap_eval(t, k);
				break;
			}
	}
}

const struct pt_df_tsm_ops pt_df_tsm_bitmap_ops = {
	.name = "bitmap",
	.reset = bitmap_reset,
	.eligible = bitmap_eligible,
	.next_eligible = bitmap_next_eligible,
	.fired = bitmap_fired,
	.counter_changed = bitmap_counter_changed,
};
