/* Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit. */
/* For every SPM event tid is the SPM task id + 1 (0 = none) and arg0 packs (application core */
/* << 8) | partition (0xff = none). */
#ifndef PARTITA_SUBSYS_SPM_TRACE_EVENTS_H
#define PARTITA_SUBSYS_SPM_TRACE_EVENTS_H

#include <partita/trace.h>

#define PT_EV_SPM_FIRST 32 /* its range: [FIRST, FIRST + COUNT) */
#define PT_EV_SPM_COUNT 16

enum pt_spm_trace_event {
	PT_EV_SPM_SLOT = PT_EV_SPM_FIRST + 0,          /* slot begins; arg1 = slot number */
	PT_EV_SPM_LOAD_BEGIN = PT_EV_SPM_FIRST + 1,    /* arg1 = bytes (image + input mirror) */
	PT_EV_SPM_LOAD_END = PT_EV_SPM_FIRST + 2,      /* arg1 = job number */
	PT_EV_SPM_UNLOAD_BEGIN = PT_EV_SPM_FIRST + 3,  /* arg1 = bytes (data + output mirror) */
	PT_EV_SPM_UNLOAD_END = PT_EV_SPM_FIRST + 4,    /* arg1 = job number */
	PT_EV_SPM_IDLE_SLOT = PT_EV_SPM_FIRST + 5,     /* arg1 = enum pt_spm_idle_reason */
	PT_EV_SPM_EXEC_BEGIN = PT_EV_SPM_FIRST + 6,    /* on the app core; arg1 = job number */
	/* arg1 = job number; arg0 bits 16.. = completion time (cycles) the I/O core's Rule 2
	 * compares with a slot */
	PT_EV_SPM_EXEC_END = PT_EV_SPM_FIRST + 7,
	PT_EV_SPM_RELEASE = PT_EV_SPM_FIRST + 8,       /* arg1 = job number (0 = pending) */
	/* unload finished; arg1 = response time in cycles (release -> unload end) */
	PT_EV_SPM_JOB_DONE = PT_EV_SPM_FIRST + 9,
	/* arg0 = 0 load, 1 unload, 2 dma setup (arg1 = cycles), 3 bytes copied */
	PT_EV_SPM_CALIB = PT_EV_SPM_FIRST + 10,
	/* a phase starts: arg0 = phase, arg1 = its time origin (cycles, a slot of core 0) */
	PT_EV_SPM_PHASE = PT_EV_SPM_FIRST + 11,
};

_Static_assert(PT_EV_SPM_FIRST >= PT_EV_SUBSYS_FIRST &&
	       PT_EV_SPM_FIRST + PT_EV_SPM_COUNT - 1 <= PT_EV_SUBSYS_LAST,
	       "spm trace range outside the subsystem range");

#endif
