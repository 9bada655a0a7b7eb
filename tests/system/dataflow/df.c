/*
 * Data-flow test applications (test_sys_dataflow.py): graph `pipe` (src -> mid -> snk, mid
 * consuming two tokens per firing) under StS, and graph `ring` (b1 <-> b2, one initial token)
 * under DyS, both on one cpu under the tdm policy. Every actor binds itself to its actor,
 * then fires once per application slot; tokens carry a sequence the consumers check.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/dataflow.h>
#include <partita/printf.h>

static void bind(const char *graph, const char *actor, uint32_t *g, uint32_t *a)
{
	int32_t gi = pt_df_graph_find(graph);
	int32_t ai = gi < 0 ? -1 : pt_df_actor_find((uint32_t)gi, actor);
	if (ai < 0 || pt_df_actor_bind((uint32_t)gi, (uint32_t)ai) != 0) {
		pt_printf("df: error: no actor %s.%s\n", graph, actor);
		for (;;)
			pt_df_end_slot();
	}
	*g = (uint32_t)gi, *a = (uint32_t)ai;
	pt_df_end_slot(); /* from now on it runs only when its TSM says it may fire */
}

static void fired(uint32_t g, uint32_t a, const char *who, bool ok)
{
	if (!ok)
		pt_printf("df: error: %s fired while not eligible\n", who);
	pt_df_fired(g, a);
	pt_df_end_slot();
}

static void work(uint32_t n)
{
	for (volatile uint32_t i = 0; i < n; i++)
		;
}

void df_src(void *arg)
{
	uint32_t g, a, seq = 0;
	struct pt_df_fifo *out = pt_df_fifo_find("pipe", "f1");
	bind("pipe", "src", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_write(out, 1);
		work((uint32_t)(uintptr_t)arg);
		if (ok) {
			*(uint32_t *)pt_df_fifo_claim_space(out, 0) = seq++;
			pt_df_fifo_commit(out, 1);
		}
		fired(g, a, "src", ok);
	}
}

void df_mid(void *arg)
{
	uint32_t g, a;
	struct pt_df_fifo *in = pt_df_fifo_find("pipe", "f1"), *out = pt_df_fifo_find("pipe", "f2");
	bind("pipe", "mid", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 2) && pt_df_fifo_can_write(out, 1);
		work((uint32_t)(uintptr_t)arg);
		if (ok) {
			uint32_t x = *(const uint32_t *)pt_df_fifo_claim_token(in, 0);
			uint32_t y = *(const uint32_t *)pt_df_fifo_claim_token(in, 1);
			if (y != x + 1)
				pt_printf("df: error: mid got %u then %u\n", x, y);
			*(uint32_t *)pt_df_fifo_claim_space(out, 0) = x + y;
			pt_df_fifo_release(in, 2);
			pt_df_fifo_commit(out, 1);
		}
		fired(g, a, "mid", ok);
	}
}

void df_snk(void *arg)
{
	uint32_t g, a, k = 0;
	struct pt_df_fifo *in = pt_df_fifo_find("pipe", "f2");
	bind("pipe", "snk", &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1);
		work((uint32_t)(uintptr_t)arg);
		if (ok) {
			uint32_t v = *(const uint32_t *)pt_df_fifo_claim_token(in, 0);
			if (v != 4 * k + 1) /* (2k) + (2k + 1) */
				pt_printf("df: error: snk got %u, want %u\n", v, 4 * k + 1);
			k++;
			pt_df_fifo_release(in, 1);
		}
		fired(g, a, "snk", ok);
	}
}

/* ring: b1 and b2 pass one token back and forth */
static void ring_actor(const char *me, const char *in_name, const char *out_name, uint32_t n)
{
	uint32_t g, a;
	struct pt_df_fifo *in = pt_df_fifo_find("ring", in_name);
	struct pt_df_fifo *out = pt_df_fifo_find("ring", out_name);
	bind("ring", me, &g, &a);
	for (;;) {
		bool ok = pt_df_fifo_can_read(in, 1) && pt_df_fifo_can_write(out, 1);
		work(n);
		if (ok) {
			uint32_t v = *(const uint32_t *)pt_df_fifo_claim_token(in, 0);
			*(uint32_t *)pt_df_fifo_claim_space(out, 0) = v + 1;
			pt_df_fifo_release(in, 1);
			pt_df_fifo_commit(out, 1);
		}
		fired(g, a, me, ok);
	}
}

void df_b1(void *arg) { ring_actor("b1", "back", "fwd", (uint32_t)(uintptr_t)arg); }
void df_b2(void *arg) { ring_actor("b2", "fwd", "back", (uint32_t)(uintptr_t)arg); }

/* The other application absent: its threads end at once, its slots idle. */
void df_nothing(void *arg) { (void)arg; }
