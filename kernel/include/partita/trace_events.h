/* Generated from kernel/trace/trace_events.yaml by partita.trace.eventgen; do not edit. */
/* The kernel's trace events (record `type`, <partita/trace.h>); subsystems own
 * ranges inside PT_EV_SUBSYS_FIRST..PT_EV_SUBSYS_LAST, each declared in its
 * registry entry (<partita/subsys.h>). */
#ifndef PARTITA_TRACE_EVENTS_H
#define PARTITA_TRACE_EVENTS_H

enum pt_trace_event {
	PT_EV_BOOT = 1,                                /* arg0 = number of harts online */
	/* tid names itself: arg0..arg1 = 16 bytes of name; once per thread */
	PT_EV_THREAD_INFO = 2,
	/* job released: arg0 = job number, arg1 = absolute deadline (cycles) */
	PT_EV_RELEASE = 3,
	PT_EV_DISPATCH = 4,                            /* tid starts running on cpu */
	/* tid stops running, still ready: arg0 = tid that preempts it */
	PT_EV_PREEMPT = 5,
	/* job completed: arg0 = job number, arg1 = response time (cycles) */
	PT_EV_COMPLETE = 6,
	/* arg0 = job number, arg1 = absolute deadline (cycles) */
	PT_EV_DEADLINE_MISS = 7,
	/* job still running at its next release: arg0 = job number */
	PT_EV_OVERRUN = 8,
	PT_EV_MIGRATE = 9,                             /* arg0 = from cpu, arg1 = to cpu */
	/* arg0 = object kind (enum pt_obj_kind), arg1 = object id */
	PT_EV_BLOCK = 10,
	PT_EV_UNBLOCK = 11,                            /* arg0 = reason (0 = given, 1 = timeout) */
	PT_EV_IRQ_ENTER = 12,                          /* arg0 = cause */
	PT_EV_IRQ_EXIT = 13,
	PT_EV_SYSCALL = 14,                            /* arg0 = syscall number, arg1 = result */
	/* arg0 = scause, arg1 = faulting address (stval) */
	PT_EV_FAULT = 15,
	/* thread stopped by the kernel: arg0 = reason */
	PT_EV_THREAD_STOP = 16,
	PT_EV_IDLE = 17,                               /* cpu goes idle */
	/* user mark: arg0, arg1 free (benchmarks, tests) */
	PT_EV_MARK = 18,
	/* arg0 = exit code (enum pt_exit_code: 0 ok, 1 panic, 2 kernel trap, 3 kernel stack
	 * overflow), arg1 = pc or cause */
	PT_EV_SHUTDOWN = 19,
	/* a refused heap call: arg0 = -error | op << 8 | color << 16 (color 0xffff: none), arg1 =
	 * bytes or pointer */
	PT_EV_HEAP_ERROR = 20,
	/* a device interrupt claimed on this cpu (docs/interrupts.md): tid = its handler thread
	 * (0: none bound), arg0 = PLIC source, arg1 = 1 on the dedicated interrupt context, 0 on
	 * the full trap path */
	PT_EV_IRQ_CLAIM = 21,
	/* the claim woke its handler thread tid: arg0 = PLIC source, arg1 = the cycle its ISR
	 * began */
	PT_EV_IRQ_HANDLER_WAKE = 22,
	/* handler thread tid completed its source and waits for the next interrupt: arg0 = PLIC
	 * source */
	PT_EV_IRQ_WAIT = 23,
	PT_EV_SUBSYS_FIRST = 32,
	PT_EV_SUBSYS_LAST = 255,
};

#endif
