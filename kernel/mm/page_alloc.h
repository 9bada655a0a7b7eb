/*
 * Colored physical page allocator (brief 1): one free list per (super) color.
 *
 * The allocator never reads or writes the pages it manages. Its bookkeeping lives in a
 * metadata array the caller provides (one struct pt_page per page, in the kernel's own
 * memory and colors): writing list links into free pages, as xv6's kalloc does, would pull
 * every color into the cache on behalf of the kernel and defeat the partitioning.
 *
 * Invariants (tests/unit/mm/test_page_alloc.c checks them after every operation):
 *   - a page is on exactly one list iff it is free, and that list is free_list[its color];
 *   - free_count[c] = length of free_list[c]; free_total = sum of free_count;
 *   - the color of page i is pt_color_of_pfn(base_pfn + i) and never changes.
 * Costs: alloc/free of one page O(1); N pages of a color O(N); a contiguous run O(pages in
 * the pool) (first fit from the lowest address: devices only, at set-up).
 * Not thread safe: the caller serialises (the kernel holds its mm lock).
 */
#ifndef PARTITA_MM_PAGE_ALLOC_H
#define PARTITA_MM_PAGE_ALLOC_H

#include <stdint.h>
#include <partita/list.h>
#include <partita/config.h>
#include "colors.h"

enum pt_page_err {
	PT_PAGE_OK = 0,
	PT_PAGE_EINVAL = -1,   /* bad argument: color out of range, n == 0, bad alignment, ... */
	PT_PAGE_ENOMEM = -2,   /* not enough free pages (nothing was allocated) */
	PT_PAGE_EFOREIGN = -3, /* address not page aligned or outside the pool */
	PT_PAGE_EDOUBLE = -4,  /* page already free (double free); nothing was changed */
};

/* Per-page bookkeeping, 24 bytes on 64-bit. */
struct pt_page {
	struct pt_list node; /* on free_list[color] while free */
	uint16_t color;
	uint8_t free;        /* 1 while on its free list */
	uint8_t reserved;    /* 1 if taken by pt_page_reserve (never handed out) */
	uint32_t pad;
};

struct pt_page_pool {
	uint64_t base_phys;   /* first managed page */
	uint64_t npages;
	struct pt_color_geom geom;
	struct pt_page *pages; /* [npages], caller storage */
	uint64_t free_total;
	uint64_t free_count[PT_MAX_COLORS];
	struct pt_list free_list[PT_MAX_COLORS];
};

/*
 * Manage [base_phys, base_phys + bytes): base is rounded up and the end down to whole pages.
 * `meta` must hold at least pt_page_pool_pages(base_phys, bytes, geom) entries.
 * Every page starts free, on its color's list in ascending address order.
 */
int pt_page_pool_init(struct pt_page_pool *p, uint64_t base_phys, uint64_t bytes,
		      const struct pt_color_geom *geom, struct pt_page *meta, uint64_t meta_count);
/* Pages the pool would manage for that range (size the metadata with it). */
uint64_t pt_page_pool_pages(uint64_t base_phys, uint64_t bytes, const struct pt_color_geom *geom);

/* One page of `color`: O(1). Lowest address first until pages are freed (then LIFO). */
int pt_page_alloc(struct pt_page_pool *p, uint32_t color, uint64_t *phys_out);
/* n pages of `color` into phys_out[0..n-1], all or nothing: O(n). */
int pt_page_alloc_n(struct pt_page_pool *p, uint32_t color, uint64_t n, uint64_t *phys_out);
/*
 * n physically contiguous pages of any colors (devices, DMA), the first aligned to
 * align_pages pages of physical address (power of two; 0 or 1 = no constraint). First fit.
 */
int pt_page_alloc_contig(struct pt_page_pool *p, uint64_t n, uint64_t align_pages,
			 uint64_t *phys_out);
/* Return one page to its own color's list: O(1). */
int pt_page_free(struct pt_page_pool *p, uint64_t phys);
/* Return n contiguous pages; every page is checked before any is freed (all or nothing). */
int pt_page_free_contig(struct pt_page_pool *p, uint64_t phys, uint64_t n);
/*
 * Take n contiguous pages out of the pool for good (kernel image, firmware, device windows
 * inside the range); fails without change if any is not free.
 */
int pt_page_reserve(struct pt_page_pool *p, uint64_t phys, uint64_t n);

static inline uint64_t pt_page_free_count(const struct pt_page_pool *p, uint32_t color)
{
	return color < p->geom.colors ? p->free_count[color] : 0;
}
static inline uint64_t pt_page_free_total(const struct pt_page_pool *p) { return p->free_total; }
/* Color of a managed physical address, or -1 if it is not in the pool. */
int pt_page_color(const struct pt_page_pool *p, uint64_t phys);

#endif
