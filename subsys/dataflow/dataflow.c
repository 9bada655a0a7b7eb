/*
 * The dataflow subsystem (brief 4): sets up the configured graphs' C-HEAP FIFOs and
 * task-status managers at boot, and serves the actors' look-ups and firing reports.
 * The generated tables are pt_df_config (build/<cfg>/gen/pt_dataflow_config.c).
 */
#include <partita/dataflow.h>
#include <partita/df_tsmsvc.h>
#include <partita/hal.h>
#include <partita/subsys.h>
#include <partita/tdm.h>
#include <partita/api.h>
#include <partita/limits.h>
#include "trace/trace.h"
#include "dataflow_trace_events.h"

#pragma weak pt_coproc_find /* subsys/coproc: linked with a `coproc:` section only */

#define DF_MAX_GRAPHS 16 /* partita config allows no more (dataflow.graphs) */
/* the thread running each actor (pt_df_actor_bind), 0: none yet */
static uint32_t actor_tid[DF_MAX_GRAPHS][PT_DF_MAX_TASKS];
static uint64_t firings[DF_MAX_GRAPHS][PT_DF_MAX_TASKS];
/* tid % PT_MAX_THREADS -> (graph + 1) << 8 | actor (0: no actor): the policy's question is
 * answered in constant time, whatever the number of graphs */
static uint16_t actor_of[PT_MAX_THREADS];
/* Times each thread was chosen for an application slot, and the last of those turns it has
 * taken (by tid modulo the pool). */
static uint32_t turns[PT_MAX_THREADS], taken[PT_MAX_THREADS];

int pt_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* kernel console */

/* One lock per graph serialises its TSM's updates: a bitmap evaluation on one core must not
 * interleave with the firing report of the task it evaluates (it could set a bit from
 * counters read before the firing). Interrupts are masked while it is held. */
static uint32_t lock_next[PT_DF_MAX_TASKS], lock_owner[PT_DF_MAX_TASKS];

static unsigned long graph_lock(uint32_t g)
{
	unsigned long flags = hal_irq_save();
	uint32_t t = __atomic_fetch_add(&lock_next[g % PT_DF_MAX_TASKS], 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock_owner[g % PT_DF_MAX_TASKS], __ATOMIC_ACQUIRE) != t)
		;
	return flags;
}

static void graph_unlock(uint32_t g, unsigned long flags)
{
	uint32_t *o = &lock_owner[g % PT_DF_MAX_TASKS];
	__atomic_store_n(o, *o + 1, __ATOMIC_RELEASE);
	hal_irq_restore(flags);
}

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int32_t pt_df_graph_find(const char *graph)
{
	for (uint32_t g = 0; g < pt_df_config.ngraphs; g++)
		if (str_eq(pt_df_config.graphs[g].name, graph))
			return (int32_t)g;
	return -1;
}

struct pt_df_fifo *pt_df_fifo_find(const char *graph, const char *fifo)
{
	int32_t g = pt_df_graph_find(graph);
	if (g < 0)
		return 0;
	const struct pt_df_graph_cfg *c = &pt_df_config.graphs[g];
	for (uint32_t f = 0; f < c->graph.nfifos; f++)
		if (str_eq(c->fifo_names[f], fifo))
			return c->graph.fifos[f];
	return 0;
}

int32_t pt_df_actor_find(uint32_t g, const char *actor)
{
	if (g >= pt_df_config.ngraphs)
		return -1;
	const struct pt_df_graph_cfg *c = &pt_df_config.graphs[g];
	for (uint32_t a = 0; a < c->graph.ntasks; a++)
		if (str_eq(c->actor_names[a], actor))
			return (int32_t)a;
	return -1;
}

struct pt_df_tsm *pt_df_tsm_of(uint32_t g)
{
	return g < pt_df_config.ngraphs ? &pt_df_config.tsms[g] : 0;
}

int pt_df_actor_bind(uint32_t g, uint32_t actor)
{
	if (g >= pt_df_config.ngraphs || g >= DF_MAX_GRAPHS ||
	    actor >= pt_df_config.graphs[g].graph.ntasks)
		return PT_EINVAL;
	uint32_t self = (uint32_t)pt_thread_self();
	taken[self % PT_MAX_THREADS] = turns[self % PT_MAX_THREADS]; /* the binding run's */
	__atomic_store_n(&actor_tid[g][actor], self, __ATOMIC_RELEASE);
	actor_of[self % PT_MAX_THREADS] = (uint16_t)((g + 1) << 8 | actor);
	return 0;
}

/* Spin (in the task's own slot) until the policy has chosen the task for a slot it has not
 * taken yet, then take it. No timer, no interrupt: the slot's timing stays the application's
 * own (an interrupt's latency would depend on the phase of the loop it breaks into). The end
 * of the slot evicts the spinner. A turn given while the task was evicted on its way here is
 * not lost: it is newer than the one it took. */
int pt_df_end_slot(void)
{
	int self = pt_thread_self();
	if (self <= 0)
		return PT_EINVAL;
	uint32_t i = (uint32_t)self % PT_MAX_THREADS;
	while (__atomic_load_n(&turns[i], __ATOMIC_ACQUIRE) == taken[i])
		;
	taken[i] = __atomic_load_n(&turns[i], __ATOMIC_ACQUIRE);
	return 0;
}

/* The TDM policy's question (<partita/tdm.h>): a thread that runs an actor may run when the
 * actor's TSM says it may fire; any other thread whenever it is ready. */
static bool tdm_eligible(uint32_t tid)
{
	uint16_t ga = __atomic_load_n(&actor_of[tid % PT_MAX_THREADS], __ATOMIC_ACQUIRE);
	if (!ga)
		return true;
	uint32_t g = (uint32_t)(ga >> 8) - 1, a = ga & 0xffu;
	if (actor_tid[g][a] != tid) /* a later thread in the slot of a dead actor thread */
		return true;
	struct pt_df_tsm *t = &pt_df_config.tsms[g];
	return t->ops->eligible(t, a);
}

/* The RTOS slot's decision is taken: its cost in cycles (from the policy's event). */
static void tdm_decided(uint32_t cpu, uint32_t app, uint32_t tid, uint64_t event_cycles)
{
	uint64_t cost = hal_cycles() - event_cycles;
	(void)cpu;
	if (tid) /* its pt_df_end_slot returns when it runs */
		__atomic_fetch_add(&turns[tid % PT_MAX_THREADS], 1, __ATOMIC_RELEASE);
	pt_trace_emit(PT_EV_DATAFLOW_RTOS_SLOT, tid, (uint64_t)app << 32 | (cost & 0xffffffffu),
		      event_cycles);
}

static const struct pt_tdm_hooks df_tdm_hooks = { tdm_eligible, tdm_decided };

void pt_df_fired(uint32_t g, uint32_t actor)
{
	if (g >= pt_df_config.ngraphs || g >= DF_MAX_GRAPHS ||
	    actor >= pt_df_config.graphs[g].graph.ntasks)
		return;
	const struct pt_df_graph *gr = &pt_df_config.graphs[g].graph;
	const struct pt_df_task_desc *d = &gr->tasks[actor];
	struct pt_df_tsm *t = &pt_df_config.tsms[g];
	unsigned long flags = graph_lock(g);
	t->ops->fired(t, actor);
	for (uint32_t i = 0; i < d->nports; i++) /* inline TSM: the RTOS reports the counters */
		t->ops->counter_changed(t, gr->ports[d->first_port + i].fifo);
	graph_unlock(g, flags);
	pt_trace_emit(PT_EV_DATAFLOW_FIRE, actor_tid[g][actor], g << 16 | actor,
			      ++firings[g][actor]);
}

static _Noreturn void fail(const char *what, const char *graph)
{
	pt_printk("dataflow: graph %s: %s\n", graph, what);
	hal_poweroff(3);
}

/* Hart 0, before any other hart runs: FIFOs empty but for their initial tokens (zeroed). */
static void df_boot(void)
{
	const struct pt_df_tsm_ops *ops =
		pt_df_config.tsm_coproc ? &pt_df_tsm_coproc_ops :
		pt_df_config.tsm_bitmap ? &pt_df_tsm_bitmap_ops : &pt_df_tsm_scan_ops;
	if (pt_df_config.ngraphs > DF_MAX_GRAPHS)
		fail("more graphs than DF_MAX_GRAPHS", "(all)");
	for (uint32_t g = 0; g < pt_df_config.ngraphs; g++) {
		const struct pt_df_graph_cfg *c = &pt_df_config.graphs[g];
		for (uint32_t f = 0; f < c->graph.nfifos; f++) {
			uint32_t bytes = c->fifo_size[f] * c->fifo_token_bytes[f];
			for (uint32_t i = 0; i < bytes; i++)
				c->bufs[f][i] = 0;
			if (!pt_df_fifo_init(c->graph.fifos[f], c->bufs[f], c->fifo_size[f],
					     c->fifo_token_bytes[f], c->fifo_initial[f]))
				fail("bad FIFO table", c->name);
		}
		if (!pt_df_tsm_init(&pt_df_config.tsms[g], ops, &c->graph))
			fail("bad graph table", c->name);
	}
	/* subsys/coproc boots first (link order): its rings are set up */
	if (pt_df_config.tsm_coproc &&
	    !pt_df_tsm_coproc_boot(pt_coproc_find ? pt_coproc_find(pt_df_config.tsm_coproc) : 0))
		fail("tsm: coproc: no booted dftsm coprocessor of that name with a client slot "
		     "per graph", pt_df_config.tsm_coproc);
	pt_tdm_set_hooks(&df_tdm_hooks);
	hal_fence();
}

PT_SUBSYS_REGISTER(dataflow) = {
	.name = "dataflow",
	.boot = df_boot,
	.trace_first = PT_EV_DATAFLOW_FIRST,
	.trace_count = PT_EV_DATAFLOW_COUNT,
};
