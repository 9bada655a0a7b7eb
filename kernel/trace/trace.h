/*
 * Trace writer: per-hart single-producer rings in `pt_trace_area` (record format and layout in
 * <partita/trace.h>). Callable from any context, interrupts on or off; never blocks.
 */
#ifndef PARTITA_KERNEL_TRACE_H
#define PARTITA_KERNEL_TRACE_H

#include <stdint.h>
#include <partita/trace.h>

/* The area the host finds by symbol name; placed by the linker in section .trace. */
extern struct pt_trace_area pt_trace_area;

/*
 * Fill the area header and empty every ring. Called once, by one hart, before any other hart
 * emits (guest RAM is a shared file that may hold a previous run's bytes, so nothing is assumed
 * zero). The magic is stored last: a reader that sees it sees a consistent header.
 */
void pt_trace_init(uint32_t ncpus);

/*
 * Append one record to the calling hart's ring, stamped with hal_cycles(). If the ring is full
 * the record is counted in `dropped`, never written over an unread one. A no-op before
 * pt_trace_init() and on a hart beyond PT_TRACE_MAX_CPUS.
 */
void pt_trace_emit(uint16_t type, uint32_t tid, uint64_t a0, uint64_t a1);

/* Record the exit code in the header (0 = clean), published with a fence. */
void pt_trace_set_exit_code(uint32_t code);

#endif
