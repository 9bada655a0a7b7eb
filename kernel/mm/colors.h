/*
 * Cache colors from the last-level-cache geometry (brief 1). A physically indexed cache maps
 * a page to a fixed group of sets, its color:
 *     way_bytes = size_bytes / ways
 *     hw_colors = way_bytes / page_bytes        (1 if a page covers a whole way)
 *     color(pfn) = pfn mod hw_colors
 * When fewer colors are configured, hardware colors are grouped into super colors:
 *     super(pfn) = color(pfn) mod colors        (colors must divide hw_colors)
 * e.g. 8 MiB, 16 ways, 4 KiB pages -> 128 colors. No geometry (size_bytes 0) -> one color.
 * Pure functions: no state, no HAL.
 */
#ifndef PARTITA_MM_COLORS_H
#define PARTITA_MM_COLORS_H

#include <stdint.h>
#include <partita/config.h>

struct pt_color_geom {
	uint32_t page_bytes;
	uint32_t page_shift;   /* log2(page_bytes) */
	uint32_t hw_colors;    /* colors the cache has */
	uint32_t colors;       /* (super) colors in use: divides hw_colors, <= PT_MAX_COLORS */
	uint32_t sets;         /* sets of the cache (0 when no geometry is given) */
};

enum pt_color_err {
	PT_COLOR_OK = 0,
	PT_COLOR_EPAGE = -1,     /* page size zero or not a power of two, or smaller than a line */
	PT_COLOR_ELINE = -2,     /* line size zero or not a power of two */
	PT_COLOR_EWAYS = -3,     /* ways zero, or size not a multiple of ways */
	PT_COLOR_ESETS = -4,     /* way size not a power-of-two number of lines */
	PT_COLOR_ETOOMANY = -5,  /* more (super) colors than PT_MAX_COLORS */
	PT_COLOR_EGTHW = -6,     /* configured colors exceed the hardware colors */
	PT_COLOR_ENOTDIV = -7,   /* configured colors do not divide the hardware colors */
	PT_COLOR_EMISMATCH = -8, /* cfg->hw_colors given but differs from the derived value */
};

/*
 * Derive and check the geometry. cfg->colors == 0 means "all hardware colors" (then they must
 * fit PT_MAX_COLORS). With size_bytes == 0 the result is one color; page_bytes 0 then means
 * 4096. Returns PT_COLOR_OK or the first inconsistency found; *out is set only on success.
 */
int pt_colors_derive(const struct pt_cache_cfg *cfg, struct pt_color_geom *out);

/* A short English reason for an error code. */
const char *pt_colors_strerror(int err);

/* The (super) color of a page frame number. */
static inline uint32_t pt_color_of_pfn(const struct pt_color_geom *g, uint64_t pfn)
{
	return (uint32_t)((pfn % g->hw_colors) % g->colors);
}

#endif
