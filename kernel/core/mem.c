/*
 * Physical pages for stacks and user partitions, from the colored allocator (kernel/mm).
 * The pool covers the RAM after the kernel image. A request names a color bitmap; pages are
 * taken round-robin over the allowed colors so a partition's footprint spreads over its sets.
 * Kernel data takes its pages from here too (kdata.c: the kernel data colors); what stays in
 * the kernel image (text, this allocator's page_meta, trace rings) is not colored.
 */
#include "kernel.h"
#include "mm/page_alloc.h"

static struct pt_page page_meta[PT_MAX_POOL_PAGES];
static struct pt_page_pool pool;
static struct pt_spinlock mm_lock;
static uint32_t cursor;

void pt_mem_init(void)
{
	struct pt_color_geom g;
	int err = pt_colors_derive(&pt_config.cache, &g);
	if (err)
		pt_panic("cache geometry: %s", pt_colors_strerror(err));
	uintptr_t lo, hi;
	hal_ram_range(&lo, &hi);
	err = pt_page_pool_init(&pool, lo, hi - lo, &g, page_meta, PT_MAX_POOL_PAGES);
	if (err)
		pt_panic("page pool init: %d", err);
	pt_printk("mm: %lu pages free, %u colors\n", (uint64_t)pt_page_free_total(&pool),
		  g.colors);
}

static bool color_allowed(const uint64_t *colors, uint32_t c)
{
	if (!colors)
		return true;
	bool any = false;
	for (int w = 0; w < PT_MAX_COLORS / 64; w++)
		any |= colors[w] != 0;
	return !any || (colors[c / 64] >> (c % 64)) & 1;
}

/* One page of one of `colors` (round-robin over them, so a partition's pages spread over
 * its colors); stacks and regions are mapped page by page. */
uintptr_t pt_page_alloc_in(const uint64_t *colors)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&mm_lock);
	uint64_t pa = 0;
	uint32_t n = pool.geom.colors;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = (cursor + i) % n;
		if (!color_allowed(colors, c) || !pt_page_free_count(&pool, c))
			continue;
		if (pt_page_alloc(&pool, c, &pa) == PT_PAGE_OK) {
			cursor = c + 1;
			break;
		}
		pa = 0;
	}
	pt_spin_unlock(&mm_lock);
	hal_irq_restore(f);
	return (uintptr_t)pa;
}

/* One page of exactly `color` (colored heaps: never another color), 0 if none is left. */
uintptr_t pt_pages_alloc_color(uint32_t color)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&mm_lock);
	uint64_t pa = 0;
	if (pt_page_alloc(&pool, color, &pa) != PT_PAGE_OK)
		pa = 0;
	pt_spin_unlock(&mm_lock);
	hal_irq_restore(f);
	return (uintptr_t)pa;
}

void pt_pages_free(uintptr_t pa)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&mm_lock);
	int err = pt_page_free(&pool, pa);
	pt_spin_unlock(&mm_lock);
	hal_irq_restore(f);
	if (err)
		pt_panic("mm: free of page %lx: %d", (uint64_t)pa, err);
}

uint32_t pt_mem_colors(void) { return pool.geom.colors; }
