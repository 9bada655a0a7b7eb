/*
 * Per-hart trace rings. Each ring has one producer, its own hart; interrupts are masked for
 * the few instructions of an append, so an interrupt handler that traces on the same hart
 * cannot interleave with the interrupted append (that is what makes "single producer" true
 * without a lock). The record is written first, then a fence, then `head`: a reader that
 * loads `head` (and fences) sees every record below it complete.
 */
#include <partita/hal.h>
#include "trace.h"

__attribute__((section(".trace"), aligned(4096)))
struct pt_trace_area pt_trace_area;

_Static_assert(sizeof(struct pt_trace_rec) == 32, "trace record is 32 bytes (tracefmt.py)");
_Static_assert((PT_TRACE_RING_RECORDS & (PT_TRACE_RING_RECORDS - 1)) == 0,
	       "ring size is a power of two");

void pt_trace_init(uint32_t ncpus)
{
	struct pt_trace_area *t = &pt_trace_area;

	t->magic = 0;
	hal_fence();
	for (uint32_t c = 0; c < PT_TRACE_MAX_CPUS; c++) {
		t->ring[c].head = 0;
		t->ring[c].dropped = 0;
		t->ring[c].tail = 0;
	}
	t->ncpus = ncpus;
	t->rec_size = sizeof(struct pt_trace_rec);
	t->cycles_per_sec = hal_cycles_per_sec();
	t->records_per_ring = PT_TRACE_RING_RECORDS;
	t->exit_code = 0;
	hal_fence();
	t->magic = PT_TRACE_MAGIC;
	hal_fence();
}

void pt_trace_emit(uint16_t type, uint32_t tid, uint64_t a0, uint64_t a1)
{
	unsigned long flags;
	struct pt_trace_ring *r;
	struct pt_trace_rec *rec;
	uint32_t cpu;
	uint64_t head;

	if (pt_trace_area.magic != PT_TRACE_MAGIC)
		return;
	flags = hal_irq_save();
	cpu = hal_cpu_id();
	if (cpu >= PT_TRACE_MAX_CPUS) {
		hal_irq_restore(flags);
		return;
	}
	r = &pt_trace_area.ring[cpu];
	head = r->head;
	if (head - r->tail >= PT_TRACE_RING_RECORDS) {
		r->dropped = r->dropped + 1;
		hal_irq_restore(flags);
		return;
	}
	rec = &r->rec[head & (PT_TRACE_RING_RECORDS - 1)];
	rec->ts_cycles = hal_cycles();
	rec->type = type;
	rec->cpu = (uint16_t)cpu;
	rec->tid = tid;
	rec->arg0 = a0;
	rec->arg1 = a1;
	hal_fence(); /* the record is visible before the head that publishes it */
	r->head = head + 1;
	hal_irq_restore(flags);
}

void pt_trace_set_exit_code(uint32_t code)
{
	pt_trace_area.exit_code = code;
	hal_fence();
}
