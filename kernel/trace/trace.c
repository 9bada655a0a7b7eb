/*
 * Per-hart trace rings: the area and its initialisation (the append, with the critical-record
 * reserve, is inline: trace.h). Each ring has one producer, its own hart, which appends with
 * interrupts masked.
 */
#include <partita/hal.h>
#include "trace.h"

__attribute__((section(".trace"), aligned(4096)))
struct pt_trace_area pt_trace_area;
struct pt_trace_ring *pt_trace_rings[PT_TRACE_MAX_CPUS];

_Static_assert(sizeof(struct pt_trace_rec) == 32, "trace record is 32 bytes (tracefmt.py)");
_Static_assert((PT_TRACE_RING_RECORDS & (PT_TRACE_RING_RECORDS - 1)) == 0,
	       "ring size is a power of two");
_Static_assert(PT_TRACE_RESERVE < PT_TRACE_RING_RECORDS, "the reserve leaves ordinary slots");
_Static_assert(__builtin_offsetof(struct pt_trace_ring, rec) == 64,
	       "ring header is 64 bytes (dropped_critical took pad[0])");
_Static_assert(PT_TRACE_RING_PAGES * 4096u >= sizeof(struct pt_trace_ring) &&
		       (PT_TRACE_RING_PAGES - 1u) * 4096u < sizeof(struct pt_trace_ring),
	       "PT_TRACE_RING_PAGES pages hold exactly one ring");

void pt_trace_init(uint32_t ncpus)
{
	struct pt_trace_area *t = &pt_trace_area;

	for (uint32_t c = 0; c < PT_TRACE_MAX_CPUS; c++)
		pt_trace_rings[c] = 0;
	t->magic = 0;
	hal_fence();
	for (uint32_t c = 0; c < PT_TRACE_MAX_CPUS; c++) {
		t->ring[c].head = 0;
		t->ring[c].dropped = 0;
		t->ring[c].tail = 0;
		t->ring[c].dropped_critical = 0;
	}
	t->rings_magic = 0;
	t->ring_pages = PT_TRACE_RING_PAGES;
	t->ring_page_bytes = 4096;
	t->ncpus = ncpus;
	t->rec_size = sizeof(struct pt_trace_rec);
	t->cycles_per_sec = hal_cycles_per_sec();
	t->records_per_ring = PT_TRACE_RING_RECORDS;
	t->exit_code = 0;
	hal_fence();
	t->magic = PT_TRACE_MAGIC;
	hal_fence();
	for (uint32_t c = 0; c < PT_TRACE_MAX_CPUS; c++)
		pt_trace_rings[c] = &t->ring[c];
}

int pt_trace_place_rings(uintptr_t va, uintptr_t (*page)(void),
			 int (*map)(uintptr_t va, uintptr_t pa))
{
	struct pt_trace_area *t = &pt_trace_area;
	uint32_t n = t->ncpus < PT_TRACE_MAX_CPUS ? t->ncpus : PT_TRACE_MAX_CPUS;
	for (uint32_t c = 0; c < n; c++)
		for (uint32_t p = 0; p < PT_TRACE_RING_PAGES; p++) {
			uintptr_t pa = page();
			if (!pa || map(va + ((uintptr_t)c * PT_TRACE_RING_PAGES + p) * 4096u, pa))
				return -1;
			t->ring_pa[c][p] = pa;
		}
	for (uint32_t c = 0; c < n; c++) {
		/* only this hart has written (boot records, if any): copy them over */
		struct pt_trace_ring *old = &t->ring[c];
		struct pt_trace_ring *r =
			(struct pt_trace_ring *)(va + (uintptr_t)c * PT_TRACE_RING_PAGES * 4096u);
		for (uint64_t i = old->tail; i < old->head; i++) {
			/* field by field: a struct copy may become a memcpy call (freestanding) */
			const struct pt_trace_rec *a = &old->rec[i & (PT_TRACE_RING_RECORDS - 1)];
			struct pt_trace_rec *b = &r->rec[i & (PT_TRACE_RING_RECORDS - 1)];
			b->ts_cycles = a->ts_cycles;
			b->type = a->type;
			b->cpu = a->cpu;
			b->tid = a->tid;
			b->arg0 = a->arg0;
			b->arg1 = a->arg1;
		}
		r->dropped = old->dropped;
		r->dropped_critical = old->dropped_critical;
		r->tail = old->tail;
		r->head = old->head;
		hal_fence();
		pt_trace_rings[c] = r;
	}
	hal_fence();
	/* the host reads the directory's rings from now on; the in-image ones stop here */
	t->rings_magic = PT_RINGS_MAGIC;
	hal_fence();
	return 0;
}

void pt_trace_set_exit_code(uint32_t code)
{
	pt_trace_area.exit_code = code;
	hal_fence();
}
