/*
 * Trace writer: per-hart single-producer rings in `pt_trace_area` (record format and layout in
 * <partita/trace.h>). Callable from any context, interrupts on or off; never blocks.
 *
 * The append is inline and call-free (about 25 instructions: it runs 2-4 times on every
 * kernel operation), the critical-record reserve included: an ordinary record is dropped once
 * head - tail >= RECORDS - PT_TRACE_RESERVE, a critical one only when the ring is full. Building with PT_TRACE=0 (mk/kernel.mk, `partita bench` for its "tracing off"
 * column) compiles every record out; the area is still initialised, with empty rings.
 */
#ifndef PARTITA_KERNEL_TRACE_H
#define PARTITA_KERNEL_TRACE_H

#include <stdint.h>
#include <stdbool.h>
#include <partita/hal.h>
#include <partita/trace.h>

#ifndef PT_TRACE
#define PT_TRACE 1
#endif

/* The area the host finds by symbol name; placed by the linker in section .trace. */
extern struct pt_trace_area pt_trace_area;
/* Each hart's ring, NULL until pt_trace_init() has run (kernel .bss: zero at every boot,
 * unlike the area, which lives in the shared RAM file and may hold a previous run's bytes).
 * One load gives the append both "initialised?" and the ring address (no multiply). */
extern struct pt_trace_ring *pt_trace_rings[PT_TRACE_MAX_CPUS];

/*
 * Fill the area header and empty every ring. Called once, by one hart, before any other hart
 * emits (guest RAM is a shared file that may hold a previous run's bytes, so nothing is assumed
 * zero). The magic is stored last: a reader that sees it sees a consistent header.
 */
void pt_trace_init(uint32_t ncpus);

/* DEADLINE_MISS, OVERRUN, THREAD_STOP, FAULT and SHUTDOWN may use the reserve. */
static inline bool pt_trace_is_critical(uint16_t type)
{
	return type == PT_EV_DEADLINE_MISS || type == PT_EV_OVERRUN ||
	       type == PT_EV_THREAD_STOP || type == PT_EV_FAULT || type == PT_EV_SHUTDOWN;
}

/*
 * Append one record to the calling hart's ring, stamped with hal_cycles(); the caller has
 * interrupts masked (every scheduler and sync path does), so an interrupt handler tracing on
 * the same hart cannot interleave with the append: that is what makes "single producer" true
 * without a lock. The record is written first, then a fence, then `head`: a reader that loads
 * `head` (and fences) sees every record below it complete. If the ring is full (beyond the
 * reserve for an ordinary record) the record is counted in `dropped`, never written over an
 * unread one; a critical record lost that way is also counted in `dropped_critical`.
 * A no-op before pt_trace_init() and on a hart beyond PT_TRACE_MAX_CPUS.
 */
static inline void pt_trace_emit_masked(uint16_t type, uint32_t tid, uint64_t a0, uint64_t a1)
{
#if PT_TRACE
	uint32_t cpu = hal_cpu_id();
	if (cpu >= PT_TRACE_MAX_CPUS)
		return;
	struct pt_trace_ring *r = pt_trace_rings[cpu];
	if (!r)
		return;
	uint64_t head = r->head;
	/* type is a constant at every call site: the limit folds to one of two constants, and
	 * the full-ring path has no call (a call would cost the caller saved registers) */
	bool critical = pt_trace_is_critical(type);
	if (__builtin_expect(head - r->tail >= PT_TRACE_RING_RECORDS -
						 (critical ? 0 : PT_TRACE_RESERVE), 0)) {
		r->dropped = r->dropped + 1;
		if (critical)
			r->dropped_critical = r->dropped_critical + 1;
		return;
	}
	struct pt_trace_rec *rec = &r->rec[head & (PT_TRACE_RING_RECORDS - 1)];
	rec->ts_cycles = hal_cycles();
	rec->type = type;
	rec->cpu = (uint16_t)cpu;
	rec->tid = tid;
	rec->arg0 = a0;
	rec->arg1 = a1;
	hal_fence(); /* the record is visible before the head that publishes it */
	r->head = head + 1;
#else
	(void)type, (void)tid, (void)a0, (void)a1;
#endif
}

/* The same from any context: masks interrupts for the append. */
static inline void pt_trace_emit(uint16_t type, uint32_t tid, uint64_t a0, uint64_t a1)
{
#if PT_TRACE
	unsigned long flags = hal_irq_save();
	pt_trace_emit_masked(type, tid, a0, a1);
	hal_irq_restore(flags);
#else
	(void)type, (void)tid, (void)a0, (void)a1;
#endif
}

/*
 * Hart 0, paging on, before any other hart runs: move the online harts' rings into pages from
 * page() (zeroed pages of the kernel data colors), mapped at `va` onward, list the pages in
 * the area's directory and switch the writers to them (records already written are copied).
 * Returns 0, or -1 if page() or map() failed (the in-image rings stay in use).
 */
int pt_trace_place_rings(uintptr_t va, uintptr_t (*page)(void),
			 int (*map)(uintptr_t va, uintptr_t pa));

/* Record the exit code in the header (0 = clean), published with a fence. */
void pt_trace_set_exit_code(uint32_t code);

#endif
