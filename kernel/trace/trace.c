/*
 * Per-hart trace rings: initialisation and the nearly-full path of the append (the common
 * append is inline, trace.h). Each ring has one producer, its own hart, which appends with
 * interrupts masked.
 */
#include <partita/hal.h>
#include "trace.h"

__attribute__((section(".trace"), aligned(4096)))
struct pt_trace_area pt_trace_area;
uint32_t pt_trace_live;

_Static_assert(sizeof(struct pt_trace_rec) == 32, "trace record is 32 bytes (tracefmt.py)");
_Static_assert((PT_TRACE_RING_RECORDS & (PT_TRACE_RING_RECORDS - 1)) == 0,
	       "ring size is a power of two");
_Static_assert(PT_TRACE_RESERVE < PT_TRACE_RING_RECORDS, "the reserve leaves ordinary slots");
_Static_assert(__builtin_offsetof(struct pt_trace_ring, rec) == 64,
	       "ring header is 64 bytes (dropped_critical took pad[0])");

void pt_trace_init(uint32_t ncpus)
{
	struct pt_trace_area *t = &pt_trace_area;

	pt_trace_live = 0;
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
	pt_trace_live = 1;
}

/*
 * head - tail >= RECORDS - RESERVE: only a critical record may still be written, into one of
 * the reserved slots; an ordinary one is counted in `dropped`. A critical record that finds
 * even the reserve full is counted in `dropped` and in `dropped_critical`.
 */
__attribute__((noinline, cold)) void pt_trace_emit_reserve(struct pt_trace_ring *r, uint64_t head,
							    uint16_t type, uint32_t tid,
							    uint64_t a0, uint64_t a1)
{
	bool critical = pt_trace_is_critical(type);
	if (!critical || head - r->tail >= PT_TRACE_RING_RECORDS) {
		r->dropped = r->dropped + 1;
		if (critical)
			r->dropped_critical = r->dropped_critical + 1;
		return;
	}
	struct pt_trace_rec *rec = &r->rec[head & (PT_TRACE_RING_RECORDS - 1)];
	rec->ts_cycles = hal_cycles();
	rec->type = type;
	rec->cpu = (uint16_t)(r - pt_trace_area.ring);
	rec->tid = tid;
	rec->arg0 = a0;
	rec->arg1 = a1;
	hal_fence(); /* the record is visible before the head that publishes it */
	r->head = head + 1;
}

void pt_trace_set_exit_code(uint32_t code)
{
	pt_trace_area.exit_code = code;
	hal_fence();
}
