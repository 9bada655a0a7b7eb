/* Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit. */
/* The proxy kernel's delegation to the user-level kernel (subsys/uk, docs/proxy-kernel.md); */
/* tid = the calling thread. */
#ifndef PARTITA_SUBSYS_UK_TRACE_EVENTS_H
#define PARTITA_SUBSYS_UK_TRACE_EVENTS_H

#include <partita/trace.h>

#define PT_EV_UK_FIRST 80 /* its range: [FIRST, FIRST + COUNT) */
#define PT_EV_UK_COUNT 16

enum pt_uk_trace_event {
	/* request queued: arg0 = op << 32 | hart, arg1 = seq */
	PT_EV_UK_SEND = PT_EV_UK_FIRST + 0,
	/* waiter got its reply: arg0 = seq, arg1 = result */
	PT_EV_UK_REPLY = PT_EV_UK_FIRST + 1,
	/* no UK serves the mailbox: the call fails with PT_UK_ENOUK; arg0 = op */
	PT_EV_UK_NOUK = PT_EV_UK_FIRST + 2,
	/* the UK went away with the request pending (PT_UK_EDEAD): arg0 = op, arg1 = seq */
	PT_EV_UK_DEAD = PT_EV_UK_FIRST + 3,
	/* no reply within the configured timeout (PT_UK_ETIMEOUT): arg0 = op, arg1 = seq */
	PT_EV_UK_TIMEOUT = PT_EV_UK_FIRST + 4,
	/* the hart's request ring was full (PT_UK_EFULL): arg0 = op, arg1 = hart */
	PT_EV_UK_FULL = PT_EV_UK_FIRST + 5,
	/* a reply nobody waits for (its waiter gave up) was dropped: arg0 = seq, arg1 = result */
	PT_EV_UK_STALE = PT_EV_UK_FIRST + 6,
};

_Static_assert(PT_EV_UK_FIRST >= PT_EV_SUBSYS_FIRST &&
	       PT_EV_UK_FIRST + PT_EV_UK_COUNT - 1 <= PT_EV_SUBSYS_LAST,
	       "uk trace range outside the subsystem range");

#endif
