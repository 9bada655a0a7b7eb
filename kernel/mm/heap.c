/*
 * One colored heap: slabs of power-of-two classes for small blocks, runs of 2^k pages for
 * large ones, all bookkeeping in the page-owner table (heap.h explains the design).
 *
 * Invariants (tests/unit/mm/test_heap.c checks them after every operation):
 *   - pages [0, top) each have a kind other than UNMAPPED, pages [top, span) are UNMAPPED;
 *   - a FREE page heads a run of 2^cls pages whose other pages are TAIL, and is on
 *     free_run[cls]; order_mask bit k is set iff free_run[k] is not empty;
 *   - a SMALL page of class c has slots = 4096 >> (4 + c), nfree = popcount(bits) <= slots,
 *     and is on partial[c] iff nfree > 0;
 *   - a LARGE page heads an allocated run of 2^cls pages.
 */
#include "heap.h"

#define SLOTS(cls) (PT_HEAP_PAGE_BYTES >> (PT_HEAP_MIN_SHIFT + (cls)))

#if defined(__riscv_zbb) || !defined(__riscv)
/* One instruction each (Zbb in the kernel image; the host has its own) */
static inline uint32_t ctz64(uint64_t x) { return (uint32_t)__builtin_ctzll(x); }
static inline uint32_t floor_log2(uint64_t x) { return 63u - (uint32_t)__builtin_clzll(x); }
#else
/* Without Zbb (the freestanding check): constant-time sequences, never a libgcc call. x != 0 */
static const uint8_t debruijn64[64] = {
	0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
	62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
	63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
	51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};
static inline uint32_t ctz64(uint64_t x)
{
	return debruijn64[((x & -x) * 0x022fdd63cc95386dull) >> 58];
}
static inline uint32_t floor_log2(uint64_t x)
{
	uint32_t r = 0;
	for (uint32_t s = 32; s; s >>= 1) /* six steps */
		if (x >> s) {
			x >>= s;
			r += s;
		}
	return r;
}
#endif

static uint32_t ceil_log2(uint64_t v)
{
	return v <= 1 ? 0 : floor_log2(v - 1) + 1;
}

/* ---- index lists through the page-owner table ---- */

static void list_push(struct pt_heap *h, uint32_t *head, uint32_t i)
{
	struct pt_heap_page *pg = &h->pages[i];
	pg->prev = PT_HEAP_NIL;
	pg->next = *head;
	if (*head != PT_HEAP_NIL)
		h->pages[*head].prev = i;
	*head = i;
	h->last_steps++;
}

static void list_remove(struct pt_heap *h, uint32_t *head, uint32_t i)
{
	struct pt_heap_page *pg = &h->pages[i];
	if (pg->prev != PT_HEAP_NIL)
		h->pages[pg->prev].next = pg->next;
	else
		*head = pg->next;
	if (pg->next != PT_HEAP_NIL)
		h->pages[pg->next].prev = pg->prev;
	pg->next = pg->prev = PT_HEAP_NIL;
	h->last_steps++;
}

static void run_push(struct pt_heap *h, uint32_t i, uint32_t order)
{
	h->pages[i].kind = PT_HPG_FREE;
	h->pages[i].cls = (uint8_t)order;
	list_push(h, &h->free_run[order], i);
	h->order_mask |= 1u << order;
}

static uint32_t run_pop(struct pt_heap *h, uint32_t order)
{
	uint32_t i = h->free_run[order];
	list_remove(h, &h->free_run[order], i);
	if (h->free_run[order] == PT_HEAP_NIL)
		h->order_mask &= ~(1u << order);
	return i;
}

int pt_heap_init(struct pt_heap *h, uintptr_t base, uint32_t span_pages, uint16_t color,
		 struct pt_heap_page *meta, pt_heap_grow_fn grow, void *ctx)
{
	if (!h || !meta || !grow || (base & (PT_HEAP_PAGE_BYTES - 1)) || !span_pages ||
	    span_pages == PT_HEAP_NIL)
		return PT_HEAP_EINVAL;
	/* field by field: a struct assignment would make the compiler call memset, which the
	 * freestanding kernel sources must not reference */
	h->base = base;
	h->span_pages = span_pages;
	h->top = 0;
	h->color = color;
	h->owner = 0;
	h->pages = meta;
	h->order_mask = 0;
	h->grow = grow;
	h->ctx = ctx;
	h->last_steps = h->last_grown = 0;
	h->bytes_used = 0;
	for (uint32_t c = 0; c < PT_HEAP_CLASSES; c++)
		h->partial[c] = PT_HEAP_NIL;
	for (uint32_t k = 0; k < PT_HEAP_ORDERS; k++)
		h->free_run[k] = PT_HEAP_NIL;
	for (uint32_t i = 0; i < span_pages; i++) {
		struct pt_heap_page *pg = &meta[i];
		pg->kind = PT_HPG_UNMAPPED;
		pg->cls = 0;
		pg->nfree = 0;
		pg->next = pg->prev = PT_HEAP_NIL;
		for (int w = 0; w < 4; w++)
			pg->bits[w] = 0;
	}
	return PT_HEAP_OK;
}

/* Map 2^order new pages at top. On a partial failure the pages already mapped stay in the
 * heap as free single pages (nothing leaks) and the call fails. */
static int run_grow(struct pt_heap *h, uint32_t order, uint32_t *out)
{
	uint32_t n = 1u << order;
	if (h->span_pages - h->top < n)
		return PT_HEAP_ENOMEM;
	uint32_t first = h->top;
	for (uint32_t i = 0; i < n; i++) {
		if (h->grow(h->ctx, h, h->base + ((uintptr_t)(first + i) << PT_HEAP_PAGE_SHIFT))) {
			for (uint32_t j = 0; j < i; j++)
				run_push(h, first + j, 0);
			h->top = first + i;
			return PT_HEAP_ENOMEM;
		}
		h->last_grown++;
		h->pages[first + i].kind = PT_HPG_TAIL;
	}
	h->top = first + n;
	h->pages[first].cls = (uint8_t)order;
	*out = first;
	return PT_HEAP_OK;
}

/* A run of 2^order pages: its own list, else split the smallest larger free run (O(orders)),
 * else grow. The head's kind is left for the caller to set. */
static int run_alloc(struct pt_heap *h, uint32_t order, uint32_t *out)
{
	h->last_steps++;
	if (h->free_run[order] != PT_HEAP_NIL) {
		*out = run_pop(h, order);
		return PT_HEAP_OK;
	}
	uint32_t larger = h->order_mask & ~((2u << order) - 1);
	if (!larger)
		return run_grow(h, order, out);
	uint32_t j = ctz64(larger);
	uint32_t r = run_pop(h, j);
	while (j-- > order)
		run_push(h, r + (1u << j), j); /* upper half back to its order */
	h->pages[r].cls = (uint8_t)order;
	*out = r;
	return PT_HEAP_OK;
}

size_t pt_heap_round(size_t bytes)
{
	if (!bytes)
		return 0;
	if (bytes <= PT_HEAP_SMALL_MAX)
		return (size_t)1 << (ceil_log2(bytes) < PT_HEAP_MIN_SHIFT ? PT_HEAP_MIN_SHIFT
									  : ceil_log2(bytes));
	uint64_t pages = ((uint64_t)bytes >> PT_HEAP_PAGE_SHIFT) +
			 !!(bytes & (PT_HEAP_PAGE_BYTES - 1)); /* no overflow near SIZE_MAX */
	uint32_t order = ceil_log2(pages);
	return order >= PT_HEAP_ORDERS ? 0 : (size_t)PT_HEAP_PAGE_BYTES << order;
}

static int alloc_small(struct pt_heap *h, uint32_t cls, uintptr_t *out)
{
	if (h->partial[cls] == PT_HEAP_NIL) {
		uint32_t i;
		int err = run_alloc(h, 0, &i);
		if (err)
			return err;
		struct pt_heap_page *pg = &h->pages[i];
		uint32_t slots = SLOTS(cls);
		pg->kind = PT_HPG_SMALL;
		pg->cls = (uint8_t)cls;
		pg->nfree = (uint16_t)slots;
		for (uint32_t w = 0; w < 4; w++)
			pg->bits[w] = slots >= 64 * (w + 1) ? ~0ull
				      : slots > 64 * w ? (1ull << (slots - 64 * w)) - 1 : 0;
		list_push(h, &h->partial[cls], i);
	}
	uint32_t i = h->partial[cls];
	struct pt_heap_page *pg = &h->pages[i];
	uint32_t w = 0;
	while (!pg->bits[w]) { /* nfree > 0, so a word with a free slot exists among the 4 */
		w++;
		h->last_steps++;
	}
	uint32_t slot = 64 * w + ctz64(pg->bits[w]);
	pg->bits[w] &= pg->bits[w] - 1;
	if (--pg->nfree == 0)
		list_remove(h, &h->partial[cls], i);
	*out = h->base + ((uintptr_t)i << PT_HEAP_PAGE_SHIFT) +
	       ((uintptr_t)slot << (PT_HEAP_MIN_SHIFT + cls));
	return PT_HEAP_OK;
}

int pt_heap_alloc(struct pt_heap *h, size_t bytes, uintptr_t *out)
{
	h->last_steps = 1;
	h->last_grown = 0;
	size_t size = pt_heap_round(bytes);
	if (!size)
		return PT_HEAP_EINVAL;
	int err;
	if (size <= PT_HEAP_SMALL_MAX) {
		err = alloc_small(h, ceil_log2(size) - PT_HEAP_MIN_SHIFT, out);
	} else {
		uint32_t i;
		err = run_alloc(h, ceil_log2(size >> PT_HEAP_PAGE_SHIFT), &i);
		if (!err) {
			h->pages[i].kind = PT_HPG_LARGE;
			*out = h->base + ((uintptr_t)i << PT_HEAP_PAGE_SHIFT);
		}
	}
	if (!err)
		h->bytes_used += size;
	return err;
}

/* The page of p, or NULL if p cannot start a block of this heap. */
static struct pt_heap_page *page_of(const struct pt_heap *h, uintptr_t p, uint32_t *idx)
{
	if (!pt_heap_contains(h, p) || (p & ((1u << PT_HEAP_MIN_SHIFT) - 1)))
		return 0;
	*idx = (uint32_t)((p - h->base) >> PT_HEAP_PAGE_SHIFT);
	return *idx < h->top ? &h->pages[*idx] : 0;
}

size_t pt_heap_block_size(const struct pt_heap *h, uintptr_t p)
{
	uint32_t i;
	const struct pt_heap_page *pg = page_of(h, p, &i);
	uint32_t off = (uint32_t)(p & (PT_HEAP_PAGE_BYTES - 1));
	if (!pg)
		return 0;
	if (pg->kind == PT_HPG_LARGE)
		return off ? 0 : (size_t)PT_HEAP_PAGE_BYTES << pg->cls;
	if (pg->kind != PT_HPG_SMALL)
		return 0;
	uint32_t shift = PT_HEAP_MIN_SHIFT + pg->cls, slot = off >> shift;
	if (off & ((1u << shift) - 1) || (pg->bits[slot / 64] >> (slot % 64)) & 1)
		return 0;
	return (size_t)1 << shift;
}

static int free_small(struct pt_heap *h, struct pt_heap_page *pg, uint32_t i, uint32_t off)
{
	uint32_t cls = pg->cls, shift = PT_HEAP_MIN_SHIFT + cls, slot = off >> shift;
	if (off & ((1u << shift) - 1))
		return PT_HEAP_EFOREIGN; /* inside a block, not its start */
	if ((pg->bits[slot / 64] >> (slot % 64)) & 1)
		return PT_HEAP_EDOUBLE;
	pg->bits[slot / 64] |= 1ull << (slot % 64);
	if (pg->nfree++ == 0)
		list_push(h, &h->partial[cls], i);
	h->bytes_used -= (size_t)1 << shift;
	/* An empty slab goes back to the single-page runs unless it is the class's only partial
	 * slab: keeping one avoids re-initialising a slab on every alloc/free pair. */
	if (pg->nfree == SLOTS(cls) && (h->partial[cls] != i || pg->next != PT_HEAP_NIL)) {
		list_remove(h, &h->partial[cls], i);
		run_push(h, i, 0);
	}
	return PT_HEAP_OK;
}

int pt_heap_free(struct pt_heap *h, uintptr_t p)
{
	h->last_steps = 1;
	h->last_grown = 0;
	uint32_t i;
	struct pt_heap_page *pg = page_of(h, p, &i);
	uint32_t off = (uint32_t)(p & (PT_HEAP_PAGE_BYTES - 1));
	if (!pg)
		return PT_HEAP_EFOREIGN;
	switch (pg->kind) {
	case PT_HPG_SMALL:
		return free_small(h, pg, i, off);
	case PT_HPG_LARGE:
		if (off)
			return PT_HEAP_EFOREIGN;
		h->bytes_used -= (size_t)PT_HEAP_PAGE_BYTES << pg->cls;
		run_push(h, i, pg->cls);
		return PT_HEAP_OK;
	case PT_HPG_FREE:
		return PT_HEAP_EDOUBLE; /* a block once here was freed, and its page with it */
	default:
		return PT_HEAP_EFOREIGN; /* inside a run, or never mapped */
	}
}
