#include "colors.h"

static int is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

static uint32_t log2_u32(uint32_t x)
{
	uint32_t n = 0;

	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

int pt_colors_derive(const struct pt_cache_cfg *cfg, struct pt_color_geom *out)
{
	struct pt_color_geom g = { 0 };
	uint32_t way_bytes;

	g.page_bytes = cfg->page_bytes;
	if (cfg->size_bytes == 0) {
		if (g.page_bytes == 0)
			g.page_bytes = 4096;
		if (!is_pow2(g.page_bytes))
			return PT_COLOR_EPAGE;
		if (cfg->colors > 1)
			return PT_COLOR_EGTHW;
		g.page_shift = log2_u32(g.page_bytes);
		g.hw_colors = 1;
		g.colors = 1;
		g.sets = 0;
		*out = g;
		return PT_COLOR_OK;
	}
	if (!is_pow2(cfg->line_bytes))
		return PT_COLOR_ELINE;
	if (!is_pow2(g.page_bytes) || g.page_bytes < cfg->line_bytes)
		return PT_COLOR_EPAGE;
	if (cfg->ways == 0 || cfg->size_bytes % cfg->ways != 0)
		return PT_COLOR_EWAYS;
	way_bytes = cfg->size_bytes / cfg->ways;
	if (way_bytes % cfg->line_bytes != 0 || !is_pow2(way_bytes / cfg->line_bytes))
		return PT_COLOR_ESETS;
	g.sets = way_bytes / cfg->line_bytes;
	g.page_shift = log2_u32(g.page_bytes);
	/* A page larger than a way covers every set: the cache cannot be colored. */
	g.hw_colors = way_bytes > g.page_bytes ? way_bytes / g.page_bytes : 1;
	if (cfg->hw_colors != 0 && cfg->hw_colors != g.hw_colors)
		return PT_COLOR_EMISMATCH;
	g.colors = cfg->colors ? cfg->colors : g.hw_colors;
	if (g.colors > g.hw_colors)
		return PT_COLOR_EGTHW;
	if (g.hw_colors % g.colors != 0)
		return PT_COLOR_ENOTDIV;
	if (g.colors > PT_MAX_COLORS)
		return PT_COLOR_ETOOMANY;
	*out = g;
	return PT_COLOR_OK;
}

const char *pt_colors_strerror(int err)
{
	switch (err) {
	case PT_COLOR_OK: return "ok";
	case PT_COLOR_EPAGE: return "page size must be a power of two and at least one cache line";
	case PT_COLOR_ELINE: return "cache line size must be a non-zero power of two";
	case PT_COLOR_EWAYS: return "ways must be non-zero and divide the cache size";
	case PT_COLOR_ESETS: return "cache size / ways must be a power-of-two number of lines";
	case PT_COLOR_ETOOMANY: return "more colors than PT_MAX_COLORS: configure super colors";
	case PT_COLOR_EGTHW: return "configured colors exceed the cache's hardware colors";
	case PT_COLOR_ENOTDIV: return "configured colors must divide the hardware colors";
	case PT_COLOR_EMISMATCH: return "hw_colors disagrees with size / (ways x page)";
	default: return "unknown color geometry error";
	}
}
