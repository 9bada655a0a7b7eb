/*
 * The partitions' colored heaps and the system heap (docs/memory.md, Heaps): the kernel side
 * of <partita/heap.h> over the allocator of kernel/mm/heap.c.
 *
 * A *heap set* belongs to one partition (or is the system heap): one struct pt_heap per color
 * it owns, the i-th owned color's heap at base + i * span. Virtual addresses:
 *   - user partitions: HEAP_UVA in the partition's own region, below its stacks; every user
 *     partition uses the same addresses, but a pointer is only ever looked up in the caller's
 *     own set, so it can only name the caller's own blocks;
 *   - kernel partitions and the system heap: consecutive spans from HEAP_KVA, the upper half
 *     of the kernel-stack window (mapped S-only in every table).
 * A heap grows by pages of exactly its color (pt_pages_alloc_color), zeroed, then mapped;
 * the page-owner table (meta[]) is kernel memory, so nothing a user program writes into its
 * heap reaches the kernel's bookkeeping.
 *
 * Locking: one spin lock per set, interrupts masked; a heap grows under it (the mm and mmu
 * locks nest inside). Errors: a per-thread last error (by slot, tagged with the tid) and a
 * PT_EV_HEAP_ERROR record (user partitions: within their trace budget).
 */
#include "kernel.h"
#include "mm/heap.h"
#include <partita/heap.h>
#include <partita/syscall.h>

#define HEAP_KVA (HAL_KSTACK_VA + 0x20000000ul) /* kernel stacks use the first 8 MiB */
#define HEAP_UVA (HAL_USER_VA + 0x18000000ul)   /* PT_HEAP_USER_SPAN_BYTES below PT_USTACK_VA */
#define SYS_SET PT_MAX_PARTITIONS               /* sets[]: one per partition, then the system heap */
#define MAX_HEAPS 256                           /* partita config checks the sum of colors */

_Static_assert(HEAP_UVA + PT_HEAP_USER_SPAN_BYTES <= PT_USTACK_VA, "heap window overlaps stacks");

enum heap_op { OP_ALLOC = 1, OP_FREE = 2, OP_REALLOC = 3, OP_COLOR_OF = 4 };

struct heap_set {
	struct pt_spinlock lock;
	uint8_t mode;        /* enum pt_heap_mode */
	hal_as_t as;         /* 0: kernel addresses */
	uint16_t nheaps;
	struct pt_heap *heaps;               /* [nheaps], in color order */
	int16_t index_of[PT_MAX_COLORS];     /* color -> heap, -1 if not owned */
	uintptr_t base, span;                /* heap i spans [base + i*span, +span) */
};

PT_KDATA static struct heap_set sets[PT_MAX_PARTITIONS + 1];
PT_KDATA static struct pt_heap heap_pool[MAX_HEAPS];
PT_KDATA static struct pt_heap_page meta[PT_HEAP_META_PAGES];
static uint32_t heaps_used, meta_used;
static uintptr_t kva_next = HEAP_KVA;
PT_KDATA static struct {
	uint32_t tid;
	int err;
} last_err[PT_MAX_THREADS];

static int grow(void *ctx, const struct pt_heap *h, uintptr_t va)
{
	const struct heap_set *s = ctx;
	uintptr_t pa = pt_pages_alloc_color(h->color);
	if (!pa)
		return -1;
	memset((void *)pa, 0, HAL_PAGE_SIZE); /* nothing of a page's past owner leaks */
	unsigned fl = HAL_MAP_R | HAL_MAP_W | (s->as ? HAL_MAP_U : 0);
	if (hal_as_map(s->as, va, pa, HAL_PAGE_SIZE, fl)) {
		pt_pages_free(pa);
		return -1;
	}
	return 0;
}

static bool owns(const uint64_t *colors, uint32_t c)
{
	bool any = false;
	for (int w = 0; w < PT_MAX_COLORS / 64; w++)
		any |= colors[w] != 0;
	return !any || (colors[c / 64] >> (c % 64)) & 1; /* empty bitmap: every color */
}

static void set_init(struct heap_set *s, const char *name, uint8_t mode, hal_as_t as,
		     const uint64_t *colors, uint32_t bytes, uintptr_t base)
{
	uint32_t pages = bytes / HAL_PAGE_SIZE, n = 0;
	s->mode = mode;
	s->as = as;
	s->base = base;
	s->span = bytes;
	s->heaps = &heap_pool[heaps_used];
	for (uint32_t c = 0; c < PT_MAX_COLORS; c++)
		s->index_of[c] = -1;
	for (uint32_t c = 0; c < pt_mem_colors(); c++) {
		if (!owns(colors, c))
			continue;
		if (heaps_used >= MAX_HEAPS || meta_used + pages > PT_HEAP_META_PAGES)
			pt_panic("heaps of %s: more than %u heaps or %u pages", name, MAX_HEAPS,
				 PT_HEAP_META_PAGES);
		struct pt_heap *h = &heap_pool[heaps_used++];
		if (pt_heap_init(h, base + (uintptr_t)n * bytes, pages, (uint16_t)c, &meta[meta_used],
				 grow, s))
			pt_panic("heaps of %s: bad geometry", name);
		meta_used += pages;
		s->index_of[c] = (int16_t)n++;
	}
	s->nheaps = (uint16_t)n;
	pt_printk("heap: %s, %u colors x %u KiB (%s)\n", name, n, bytes / 1024,
		  mode == PT_HEAP_USER ? "user-centric" : "os-centric");
}

void pt_heaps_init(void)
{
	for (uint32_t i = 0; i < pt_config.npartitions; i++) {
		const struct pt_partition_cfg *pc = &pt_config.partitions[i];
		struct pt_partition *p = &pt_partitions[i];
		if (pc->heap_mode == PT_HEAP_NONE || !pc->heap_color_bytes)
			continue;
		uintptr_t base = p->as ? HEAP_UVA : kva_next;
		set_init(&sets[i], pc->name, pc->heap_mode, p->as, p->colors, pc->heap_color_bytes,
			 base);
		if (!p->as)
			kva_next += (uintptr_t)sets[i].nheaps * pc->heap_color_bytes;
		else if ((uintptr_t)sets[i].nheaps * pc->heap_color_bytes > PT_HEAP_USER_SPAN_BYTES)
			pt_panic("heaps of %s: beyond the heap window", pc->name);
	}
	if (pt_config.kernel_heap_bytes) {
		/* the kernel names the color itself (its cpu's): a user-centric set */
		set_init(&sets[SYS_SET], "kernel", PT_HEAP_USER, 0, pt_config.kdata_colors,
			 pt_config.kernel_heap_bytes, kva_next);
		kva_next += (uintptr_t)sets[SYS_SET].nheaps * pt_config.kernel_heap_bytes;
	}
	if (kva_next > HAL_KSTACK_VA_END)
		pt_panic("kernel heaps beyond their window");
}

static struct heap_set *set_of(struct pt_thread *me)
{
	return me->part ? &sets[me->part->id] : 0;
}

/* The heap whose span holds p, or NULL. */
static struct pt_heap *heap_at(struct heap_set *s, uintptr_t p)
{
	if (!s->nheaps || p < s->base || (p - s->base) / s->span >= s->nheaps)
		return 0;
	return &s->heaps[(p - s->base) / s->span];
}

static int map_err(int e)
{
	switch (e) {
	case PT_HEAP_OK: return PT_OK;
	case PT_HEAP_ENOMEM: return PT_ENOMEM;
	case PT_HEAP_EFOREIGN: return PT_EFOREIGN;
	case PT_HEAP_EDOUBLE: return PT_EDOUBLEFREE;
	default: return PT_EOVERFLOW; /* PT_HEAP_EINVAL: no block that large */
	}
}

/* Record the result of a heap call; a refusal also becomes a trace record. */
static int result(struct pt_thread *me, int err, enum heap_op op, uint32_t color, uint64_t arg)
{
	last_err[me->slot].tid = me->tid;
	last_err[me->slot].err = err;
	if (err) {
		unsigned long f = hal_irq_save();
		if (pt_trace_budget_take(me))
			pt_trace_emit(PT_EV_HEAP_ERROR, me->tid,
				      (uint64_t)(-err) | (uint64_t)op << 8 | (uint64_t)color << 16, arg);
		hal_irq_restore(f);
	}
	return err;
}

/* The heap an allocation goes to (mode, color and ownership checked), or an error. */
static int pick(struct heap_set *s, struct pt_thread *me, uint32_t flags, struct pt_heap **h)
{
	if (!s || !s->nheaps)
		return PT_ENOHEAP;
	if (flags & PT_HEAP_SYS_OS) {
		if (s->mode != PT_HEAP_OS)
			return PT_EHEAPMODE;
		*h = &s->heaps[me->tid % s->nheaps]; /* OS-centric: thread id mod its colors */
		return PT_OK;
	}
	if (s->mode != PT_HEAP_USER)
		return PT_EHEAPMODE;
	uint32_t color = flags & 0xffffu;
	if (color >= pt_mem_colors())
		return PT_ECOLOR;
	if (s->index_of[color] < 0)
		return PT_ENOTOWNED;
	*h = &s->heaps[s->index_of[color]];
	return PT_OK;
}

static uintptr_t set_alloc(struct heap_set *s, struct pt_thread *me, uint64_t n, uint64_t size,
			   uint32_t flags)
{
	uint32_t color = flags & PT_HEAP_SYS_OS ? 0xffffu : flags & 0xffffu;
	uint64_t bytes;
	if (flags & ~(PT_HEAP_SYS_OS | PT_HEAP_SYS_ZERO | 0xffffu))
		return (uintptr_t)result(me, PT_ECOLOR, OP_ALLOC, 0xffffu, size) * 0;
	if (__builtin_mul_overflow(n, size, &bytes) || bytes > SIZE_MAX)
		return (uintptr_t)result(me, PT_EOVERFLOW, OP_ALLOC, color, size) * 0;
	struct pt_heap *h = 0;
	uintptr_t p = 0;
	unsigned long f = hal_irq_save();
	if (s)
		pt_spin_lock(&s->lock);
	int err = pick(s, me, flags, &h);
	if (!err)
		err = bytes ? map_err(pt_heap_alloc(h, (size_t)bytes, &p)) : PT_EOVERFLOW;
	if (s)
		pt_spin_unlock(&s->lock);
	hal_irq_restore(f);
	if (h)
		color = h->color;
	if (result(me, err, OP_ALLOC, color, bytes))
		return 0;
	if (flags & PT_HEAP_SYS_ZERO)
		memset((void *)p, 0, (size_t)bytes); /* the caller's block now: no lock needed */
	return p;
}

uintptr_t pt_k_heap_alloc(uint64_t n, uint64_t size, uint32_t flags)
{
	struct pt_thread *me = pt_current();
	return set_alloc(set_of(me), me, n, size, flags);
}

static int set_free(struct heap_set *s, struct pt_thread *me, uintptr_t p)
{
	if (!p)
		return result(me, PT_OK, OP_FREE, 0xffffu, 0);
	if (!s || !s->nheaps)
		return result(me, PT_ENOHEAP, OP_FREE, 0xffffu, p);
	unsigned long f = hal_irq_save();
	pt_spin_lock(&s->lock);
	struct pt_heap *h = heap_at(s, p);
	int err = h ? map_err(pt_heap_free(h, p)) : PT_EFOREIGN;
	pt_spin_unlock(&s->lock);
	hal_irq_restore(f);
	return result(me, err, OP_FREE, h ? h->color : 0xffffu, p);
}

int pt_k_heap_free(uintptr_t p)
{
	struct pt_thread *me = pt_current();
	return set_free(set_of(me), me, p);
}

uintptr_t pt_k_heap_realloc(uintptr_t p, uint64_t bytes)
{
	struct pt_thread *me = pt_current();
	struct heap_set *s = set_of(me);
	if (!p) /* as pt_malloc: the mode decides */
		return pt_k_heap_alloc(1, bytes, s && s->mode == PT_HEAP_USER ? 0 : PT_HEAP_SYS_OS);
	if (!bytes) {
		pt_k_heap_free(p);
		return 0;
	}
	if (!s || !s->nheaps)
		return (uintptr_t)result(me, PT_ENOHEAP, OP_REALLOC, 0xffffu, p) * 0;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&s->lock);
	struct pt_heap *h = heap_at(s, p);
	size_t old = h ? pt_heap_block_size(h, p) : 0;
	uintptr_t q = p;
	int err = PT_OK;
	if (!old)
		err = PT_EFOREIGN;
	else if (bytes > old) /* grow into a new block of the same color */
		err = map_err(pt_heap_alloc(h, bytes > SIZE_MAX ? 0 : (size_t)bytes, &q));
	pt_spin_unlock(&s->lock);
	hal_irq_restore(f);
	if (result(me, err, OP_REALLOC, h ? h->color : 0xffffu, p))
		return 0;
	if (q != p) {
		memcpy((void *)q, (void *)p, old);
		f = hal_irq_save();
		pt_spin_lock(&s->lock);
		pt_heap_free(h, p); /* cannot fail: p was a live block (a racing free is the caller's bug) */
		pt_spin_unlock(&s->lock);
		hal_irq_restore(f);
	}
	return q;
}

int64_t pt_k_heap_info(uint64_t what, uintptr_t p)
{
	struct pt_thread *me = pt_current();
	if (what == PT_HEAP_INFO_LAST_ERROR)
		return last_err[me->slot].tid == me->tid ? last_err[me->slot].err : PT_OK;
	if (what != PT_HEAP_INFO_COLOR_OF)
		return PT_EINVAL;
	struct heap_set *s = set_of(me);
	if (!s || !s->nheaps)
		return PT_ENOHEAP;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&s->lock);
	struct pt_heap *h = heap_at(s, p);
	int64_t r = h && pt_heap_block_size(h, p) ? h->color : PT_EFOREIGN;
	pt_spin_unlock(&s->lock);
	hal_irq_restore(f);
	return r;
}

/* The system heap: the color is the cpu's index mod the kernel's colors, so each hart's
 * kernel data stays in one color. */
void *pt_kheap_alloc(size_t bytes)
{
	struct heap_set *s = &sets[SYS_SET];
	struct pt_thread *me = pt_current();
	if (!s->nheaps)
		return (void *)((uintptr_t)result(me, PT_ENOHEAP, OP_ALLOC, 0xffffu, bytes) * 0);
	uint32_t color = s->heaps[pt_this_cpu()->id % s->nheaps].color;
	return (void *)set_alloc(s, me, 1, bytes, color); /* the set is user-centric: by color */
}

int pt_kheap_free(void *p)
{
	return set_free(&sets[SYS_SET], pt_current(), (uintptr_t)p);
}
