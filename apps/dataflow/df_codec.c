/* The decoders' shared actor plumbing and output (df_codec.h). */
#include "df_codec.h"
#include <partita/dataflow.h>
#include <partita/printf.h>

void df_codec_bind(const char *graph, const char *actor, uint32_t *g, uint32_t *a)
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

void df_codec_fired(uint32_t g, uint32_t a, const char *who, bool ok, bool strict)
{
	if (!ok && !strict) {
		pt_df_end_slot();
		return;
	}
	if (!ok)
		pt_printf("df: error: %s fired while not eligible\n", who);
	pt_df_fired(g, a);
	pt_df_end_slot();
}

#define HEX_PER_LINE 48u

void df_codec_emit(const char *tag, uint32_t pass, uint32_t unit, const uint8_t *p, uint32_t n)
{
	static const char digits[] = "0123456789abcdef";
	if (pass > 0) {
		uint32_t h = 2166136261u;
		for (uint32_t i = 0; i < n; i++)
			h = (h ^ p[i]) * 16777619u;
		pt_printf("%s sum %u %u %08x\n", tag, pass, unit, h);
		return;
	}
	for (uint32_t off = 0; off < n; off += HEX_PER_LINE) {
		char hex[2 * HEX_PER_LINE + 1];
		uint32_t k = 0;
		for (uint32_t i = off; i < n && i < off + HEX_PER_LINE; i++) {
			hex[k++] = digits[p[i] >> 4];
			hex[k++] = digits[p[i] & 15u];
		}
		hex[k] = 0;
		pt_printf("%s %u %u %u %s\n", tag, pass, unit, off, hex);
	}
}
