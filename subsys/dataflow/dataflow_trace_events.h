/* Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit. */
/* Data-flow applications (subsys/dataflow, the tdm policy): tid = the actor's thread. */
#ifndef PARTITA_SUBSYS_DATAFLOW_TRACE_EVENTS_H
#define PARTITA_SUBSYS_DATAFLOW_TRACE_EVENTS_H

#include <partita/trace.h>

#define PT_EV_DATAFLOW_FIRST 96 /* its range: [FIRST, FIRST + COUNT) */
#define PT_EV_DATAFLOW_COUNT 16

enum pt_dataflow_trace_event {
	/* an actor finished a firing: arg0 = graph << 16 | actor, arg1 = its firing count */
	PT_EV_DATAFLOW_FIRE = PT_EV_DATAFLOW_FIRST + 0,
	/* an RTOS slot ends on this cpu: arg0 = cycles the scheduling decision took (actual), arg1
	 * = the slot's length in cycles (the worst case it is sized for) */
	PT_EV_DATAFLOW_RTOS_SLOT = PT_EV_DATAFLOW_FIRST + 1,
	/* an application slot begins: arg0 = application index, arg1 = tid chosen (0: idle, the
	 * task was not eligible) */
	PT_EV_DATAFLOW_APP_SLOT = PT_EV_DATAFLOW_FIRST + 2,
};

_Static_assert(PT_EV_DATAFLOW_FIRST >= PT_EV_SUBSYS_FIRST &&
	       PT_EV_DATAFLOW_FIRST + PT_EV_DATAFLOW_COUNT - 1 <= PT_EV_SUBSYS_LAST,
	       "dataflow trace range outside the subsystem range");

#endif
