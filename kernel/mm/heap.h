/*
 * One colored heap (brief 1, issue 12): a block allocator over a contiguous virtual span
 * whose pages all come from one cache color. The kernel glue (kernel/core/heaps.c) creates one
 * per (partition, color) plus the system heap, and supplies `grow`, which maps one fresh page
 * of the heap's color at a given virtual address.
 *
 * Layout. The heap owns [base, base + span_pages * 4 KiB); pages [0, top) are mapped, the rest
 * is reserved address space. Growth maps the next pages at `top`, so a heap is one contiguous
 * range of virtual addresses backed by physical pages of one color.
 *
 * Blocks. Small requests (<= PT_HEAP_SMALL_MAX bytes) are rounded up to a power of two from
 * 16 B (8 classes) and carved from pages dedicated to one class (a slab); large requests take
 * a run of 2^k whole pages. Free runs sit on one list per order k; an empty order is served by
 * splitting the smallest larger free run (halves go back to their orders; runs never merge).
 *
 * Metadata outside the heap. Every page has a struct pt_heap_page in an array the caller
 * supplies (kernel memory): its kind, its class or order, a bitmap of free slots, list links.
 * The allocator never reads or writes the heap's own bytes, so a user program that scribbles
 * over its heap cannot corrupt the kernel's bookkeeping, and pt_heap_free(p) finds the size
 * of p (and detects a foreign or double free exactly) from the page-owner table alone.
 *
 * Costs (steps counted in last_steps; tests/unit/mm/test_heap.c bounds them): small alloc and
 * free O(1) (at most 4 bitmap words, list pushes/pops); a large alloc O(PT_HEAP_ORDERS) plus,
 * when the heap grows, one `grow` per new page; large free O(1). Not thread safe: the caller
 * serialises (the kernel holds the partition's heap lock).
 */
#ifndef PARTITA_MM_HEAP_H
#define PARTITA_MM_HEAP_H

#include <stdint.h>
#include <stddef.h>

#define PT_HEAP_PAGE_SHIFT 12
#define PT_HEAP_PAGE_BYTES (1u << PT_HEAP_PAGE_SHIFT)
#define PT_HEAP_MIN_SHIFT 4                   /* smallest block: 16 B (alignment of every block) */
#define PT_HEAP_CLASSES 8                     /* 16, 32, ..., 2048 B */
#define PT_HEAP_SMALL_MAX (16u << (PT_HEAP_CLASSES - 1))
#define PT_HEAP_ORDERS 16                     /* runs of 1 .. 2^15 pages (128 MiB) */
#define PT_HEAP_NIL UINT32_MAX

enum pt_heap_err {
	PT_HEAP_OK = 0,
	PT_HEAP_EINVAL = -1,   /* 0 bytes, or more than the largest run */
	PT_HEAP_ENOMEM = -2,   /* span used up or no free page of the color (nothing changed) */
	PT_HEAP_EFOREIGN = -3, /* not the start of a block of this heap */
	PT_HEAP_EDOUBLE = -4,  /* the block is already free */
};

enum pt_heap_page_kind {
	PT_HPG_UNMAPPED = 0, /* at or above top */
	PT_HPG_TAIL,         /* inside a run, not its first page */
	PT_HPG_FREE,         /* first page of a free run (on free_run[order]) */
	PT_HPG_SMALL,        /* slab of one class */
	PT_HPG_LARGE,        /* first page of an allocated run */
};

/* Per-page bookkeeping, 48 bytes. */
struct pt_heap_page {
	uint8_t kind;      /* enum pt_heap_page_kind */
	uint8_t cls;       /* class (SMALL) or order (FREE, LARGE) */
	uint16_t nfree;    /* SMALL: free slots */
	uint32_t next, prev; /* SMALL: partial list of its class; FREE: list of its order */
	uint64_t bits[4];  /* SMALL: 1 = slot free (at most 256 slots of 16 B) */
};

struct pt_heap;
/* Map one fresh page of the heap's color at va; 0 on success, nonzero if none is left. */
typedef int (*pt_heap_grow_fn)(void *ctx, const struct pt_heap *h, uintptr_t va);

struct pt_heap {
	uintptr_t base;              /* virtual address of page 0 */
	uint32_t span_pages;         /* reserved pages; growth past them is PT_HEAP_ENOMEM */
	uint32_t top;                /* pages [0, top) are mapped */
	uint16_t color;
	uint16_t owner;              /* the glue's tag (partition id) */
	struct pt_heap_page *pages;  /* [span_pages], caller storage */
	uint32_t partial[PT_HEAP_CLASSES]; /* slabs with a free slot, by class */
	uint32_t free_run[PT_HEAP_ORDERS]; /* free runs, by order */
	uint32_t order_mask;         /* bit k set iff free_run[k] is not empty */
	pt_heap_grow_fn grow;
	void *ctx;
	uint32_t last_steps;         /* work of the last operation (excluding grow calls) */
	uint32_t last_grown;         /* pages the last operation mapped */
	uint64_t bytes_used;         /* sum of block sizes handed out */
};

/* A heap of span_pages pages at base (page aligned); nothing is mapped until it is needed. */
int pt_heap_init(struct pt_heap *h, uintptr_t base, uint32_t span_pages, uint16_t color,
		 struct pt_heap_page *meta, pt_heap_grow_fn grow, void *ctx);
/* A block of at least `bytes` bytes, 16-byte aligned, into *out. */
int pt_heap_alloc(struct pt_heap *h, size_t bytes, uintptr_t *out);
/* Free the block starting at p; PT_HEAP_EFOREIGN/EDOUBLE change nothing. */
int pt_heap_free(struct pt_heap *h, uintptr_t p);
/* Usable size of the allocated block at p, 0 if p is not one. */
size_t pt_heap_block_size(const struct pt_heap *h, uintptr_t p);
/* The block size a request of `bytes` gets (0 if it cannot be served). */
size_t pt_heap_round(size_t bytes);
static inline int pt_heap_contains(const struct pt_heap *h, uintptr_t p)
{
	return p >= h->base && p - h->base < (uintptr_t)h->span_pages << PT_HEAP_PAGE_SHIFT;
}

#endif
