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
	/* the tdm policy's decision in an RTOS slot: tid = the task chosen for the application
	 * slot (0: it idles), arg0 = application << 32 | cycles from the slot's event to the
	 * decision, arg1 = the event's time (cycles) */
	PT_EV_DATAFLOW_RTOS_SLOT = PT_EV_DATAFLOW_FIRST + 1,
};

_Static_assert(PT_EV_DATAFLOW_FIRST >= PT_EV_SUBSYS_FIRST &&
	       PT_EV_DATAFLOW_FIRST + PT_EV_DATAFLOW_COUNT - 1 <= PT_EV_SUBSYS_LAST,
	       "dataflow trace range outside the subsystem range");

#endif
