/*
 * The task-status manager on the coprocessor interface (<partita/df_tsmsvc.h>): the service
 * (pure C over its state: the bitmap TSM per graph) and the RTOS side (`tsm: coproc`).
 */
#include <partita/api.h>
#include <partita/dataflow.h>
#include <partita/df_tsmsvc.h>

/* subsys/coproc is linked only in systems with a `coproc:` section; this file is linked with
 * every dataflow system, and its RTOS side runs only with `tsm: coproc` (which needs one). */
#pragma weak pt_coproc_served
#pragma weak pt_coproc_read
#pragma weak pt_coproc_post_wait

/* --- the service (runs on the coprocessor) --- */

static void svc_init(void *state, uint32_t nclients, const void *cfg)
{
	struct pt_df_tsmsvc_state *s = state;
	(void)cfg;
	s->ngraphs = nclients < PT_DF_TSMSVC_MAX_GRAPHS ? nclients : PT_DF_TSMSVC_MAX_GRAPHS;
	for (uint32_t g = 0; g < PT_DF_TSMSVC_MAX_GRAPHS; g++) {
		s->ready[g] = 0;
		s->tsm[g].bitmap = 0; /* nothing eligible until RESET */
	}
}

static void svc_serve(void *state, uint32_t client, const struct pt_coproc_req *req,
		      struct pt_coproc_rep *rep)
{
	struct pt_df_tsmsvc_state *s = state;
	rep->status = 0;
	if (client >= s->ngraphs || client >= pt_df_config.ngraphs) {
		rep->status = PT_EINVAL;
		return;
	}
	struct pt_df_tsm *t = &s->tsm[client];
	const struct pt_df_graph *g = &pt_df_config.graphs[client].graph;
	if (req->op == PT_DF_TSMSVC_RESET) {
		s->ready[client] = pt_df_tsm_init(t, &pt_df_tsm_bitmap_ops, g);
		rep->status = s->ready[client] ? 0 : PT_EINVAL;
		return;
	}
	if (req->op != PT_DF_TSMSVC_FIRED || !s->ready[client] || req->args[0] >= g->ntasks) {
		rep->status = PT_EINVAL;
		return;
	}
	uint32_t task = (uint32_t)req->args[0];
	const struct pt_df_task_desc *d = &g->tasks[task];
	t->ops->fired(t, task);
	for (uint32_t i = 0; i < d->nports; i++)
		t->ops->counter_changed(t, g->ports[d->first_port + i].fifo);
	rep->val[0] = t->bitmap;
}

static uint64_t svc_publish(const void *state, uint32_t client, uint32_t word)
{
	const struct pt_df_tsmsvc_state *s = state;
	return word == 0 && client < PT_DF_TSMSVC_MAX_GRAPHS ? s->tsm[client].bitmap : 0;
}

const struct pt_coproc_service pt_df_tsmsvc = {
	.name = "dftsm",
	.state_bytes = sizeof(struct pt_df_tsmsvc_state),
	.init = svc_init,
	.serve = svc_serve,
	.publish = svc_publish,
};

/* --- the RTOS side --- */

static struct pt_coproc *cp;
/* seq of each task's last FIRED post (0: none); written under the graph's lock by
 * pt_df_fired, read by the deciding RTOS */
static uint32_t last_fired[PT_DF_TSMSVC_MAX_GRAPHS][PT_DF_MAX_TASKS];
static uint32_t last_any[PT_DF_TSMSVC_MAX_GRAPHS]; /* seq of the graph's last post */

static uint32_t graph_of(const struct pt_df_tsm *t) { return (uint32_t)(t - pt_df_config.tsms); }

static void cp_reset(struct pt_df_tsm *t) { (void)t; /* the service's RESET, at boot */ }

static bool cp_eligible(struct pt_df_tsm *t, uint32_t task)
{
	uint32_t g = graph_of(t);
	uint32_t seq = __atomic_load_n(&last_fired[g][task], __ATOMIC_ACQUIRE);
	if (seq && !pt_coproc_served(cp, g, seq))
		return false; /* its own firing not applied yet: its bit may be stale */
	return (pt_coproc_read(cp, g, 0) >> task) & 1u;
}

/* DyS: one load of the bitmap when every post of the graph is served (the usual case);
 * otherwise the tasks whose own firing is not applied yet are masked out. */
static int32_t cp_next_eligible(struct pt_df_tsm *t, uint32_t from)
{
	uint32_t g = graph_of(t), n = t->g->ntasks;
	uint32_t any = __atomic_load_n(&last_any[g], __ATOMIC_ACQUIRE);
	bool all_served = !any || pt_coproc_served(cp, g, any);
	uint64_t bits = pt_coproc_read(cp, g, 0);
	if (!all_served)
		for (uint32_t k = 0; k < n; k++)
			if ((bits >> k) & 1u && !cp_eligible(t, k))
				bits &= ~(1ull << k);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t task = (from + k) % n;
		if ((bits >> task) & 1u)
			return (int32_t)task;
	}
	return -1;
}

static void cp_fired(struct pt_df_tsm *t, uint32_t task)
{
	uint32_t g = graph_of(t);
	struct pt_coproc_req req = { .op = PT_DF_TSMSVC_FIRED, .flags = PT_COPROC_F_NOREPLY,
				     .args = { task } };
	/* parallel non-blocking: the RTOS goes on; the service updates the bitmap meanwhile */
	uint32_t seq = pt_coproc_post_wait(cp, g, &req);
	__atomic_store_n(&last_fired[g][task], seq, __ATOMIC_RELEASE);
	__atomic_store_n(&last_any[g], seq, __ATOMIC_RELEASE);
}

static void cp_counter_changed(struct pt_df_tsm *t, uint32_t fifo)
{
	(void)t, (void)fifo; /* the service re-evaluates the FIFOs of a FIRED task itself */
}

const struct pt_df_tsm_ops pt_df_tsm_coproc_ops = {
	.name = "coproc",
	.reset = cp_reset,
	.eligible = cp_eligible,
	.next_eligible = cp_next_eligible,
	.fired = cp_fired,
	.counter_changed = cp_counter_changed,
};

bool pt_df_tsm_coproc_boot(struct pt_coproc *c)
{
	if (!c || c->svc != &pt_df_tsmsvc || !c->booted || c->nclients < pt_df_config.ngraphs ||
	    pt_df_config.ngraphs > PT_DF_TSMSVC_MAX_GRAPHS)
		return false;
	cp = c;
	for (uint32_t g = 0; g < pt_df_config.ngraphs; g++) {
		struct pt_coproc_req req = { .op = PT_DF_TSMSVC_RESET,
					     .flags = PT_COPROC_F_NOREPLY };
		pt_coproc_post_wait(c, g, &req);
	}
	return true;
}
