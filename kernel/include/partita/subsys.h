/*
 * The subsystem registry: how a subsystem (one folder under subsys/) plugs into the kernel
 * without the kernel naming it. A subsystem declares itself once with PT_SUBSYS_REGISTER; the
 * entry lands in a linker-section table (.pt_subsys) that the core walks. A configuration that
 * does not use a subsystem does not compile or link it (partita config writes the list into
 * build/<cfg>/gen/subsys.mk), so its entry is simply absent.
 *
 * Every member but `name` is optional (NULL / 0 = none). Hooks run on the hart where the
 * event happens, with interrupts masked and no kernel lock held unless stated.
 */
#ifndef PARTITA_SUBSYS_H
#define PARTITA_SUBSYS_H

#include <stdint.h>

struct pt_subsys {
	const char *name;
	/* hart 0, once: after the core's tables and the configured threads exist, before any
	 * other hart starts */
	void (*boot)(void);
	/* every hart, before it starts scheduling: returns at once on a hart the subsystem does
	 * not own, never returns on one it does (its role, e.g. brief 0's I/O core) */
	void (*cpu_entry)(uint32_t cpu);
	/* a job of thread `tid` released / completed (response in cycles); t->sched locked */
	void (*on_release)(uint32_t tid, uint64_t job);
	void (*on_complete)(uint32_t tid, uint64_t job, uint64_t response_cycles);
	/* `cpu` switches from thread prev_tid to next_tid (0: idle), its scheduler instance
	 * locked, just before the switch. Linking a subsystem with this hook takes every cpu off
	 * the core's lean dispatch path (kernel/core/sched_core.c), so keep it short. */
	void (*on_dispatch)(uint32_t cpu, uint32_t prev_tid, uint32_t next_tid);
	/* the running thread reached a point where the kernel may take the cpu from it: the
	 * entry of every interrupt (also the timer-horizon expiries that the architecture
	 * handles alone) and the end of its job, before the kernel reads the time. The hook's
	 * own time is charged to that thread (the cache model pays its modeled stalls back
	 * here, subsys/cachemodel). Interrupts masked, no lock held. */
	void (*on_preempt_point)(uint32_t cpu);
	/* a user thread faulted (before it is stopped) */
	void (*on_fault)(uint32_t tid, uint64_t cause, uint64_t addr);
	/* its trace events: [trace_first, trace_first + trace_count) inside 32..63 of
	 * <partita/trace.h>; checked at boot not to overlap another subsystem's */
	uint16_t trace_first, trace_count;
	/* its system calls: numbers [syscall_first, syscall_first + nsyscalls) from
	 * PT_SYS_SUBSYS_FIRST up, served by `syscall` (arguments unchecked: check them) */
	uint16_t syscall_first, nsyscalls;
	int64_t (*syscall)(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);
};

#define PT_SUBSYS_REGISTER(id)                                                          \
	static const struct pt_subsys pt_subsys_entry_##id                               \
		__attribute__((section(".pt_subsys"), used, aligned(8)))

/* The table (linker script); walked by kernel/core/subsys.c. */
extern const struct pt_subsys __pt_subsys_start[], __pt_subsys_end[];

#endif
