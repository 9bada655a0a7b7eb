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

void pt_trace_set_exit_code(uint32_t code)
{
	pt_trace_area.exit_code = code;
	hal_fence();
}
