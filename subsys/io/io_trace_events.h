/* Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit. */
/* The I/O core's events (subsys/io). */
#ifndef PARTITA_SUBSYS_IO_TRACE_EVENTS_H
#define PARTITA_SUBSYS_IO_TRACE_EVENTS_H

#include <partita/trace.h>

#define PT_EV_IO_FIRST 48 /* its range: [FIRST, FIRST + COUNT) */
#define PT_EV_IO_COUNT 16

enum pt_io_trace_event {
	/* tid = tasks reached; arg0 = flow, arg1 = bytes */
	PT_EV_IO_RX = PT_EV_IO_FIRST + 0,
	PT_EV_IO_TX = PT_EV_IO_FIRST + 1,              /* arg0 = flow id, arg1 = bytes */
	/* an arrival a subscribed task lost (its queue full, or overwrite): tid = that task, arg0
	 * = flow id, arg1 = drops of this (task, flow) so far */
	PT_EV_IO_DROP = PT_EV_IO_FIRST + 2,
	PT_EV_IO_MIRROR_IN = PT_EV_IO_FIRST + 3,       /* tid = task; arg1 = bytes delivered */
	PT_EV_IO_MIRROR_OUT = PT_EV_IO_FIRST + 4,      /* tid = task; arg1 = bytes collected */
	/* I/O core wrote a console line of an application core: arg0 = core << 8, arg1 = bytes */
	PT_EV_IO_CONSOLE = PT_EV_IO_FIRST + 5,
};

_Static_assert(PT_EV_IO_FIRST >= PT_EV_SUBSYS_FIRST &&
	       PT_EV_IO_FIRST + PT_EV_IO_COUNT - 1 <= PT_EV_SUBSYS_LAST,
	       "io trace range outside the subsystem range");

#endif
