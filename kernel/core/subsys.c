/*
 * The subsystem registry (<partita/subsys.h>): boot, per-hart entry, job, dispatch and fault
 * hooks and
 * subsystem system calls, for whichever subsystems the image links. The core names none.
 */
#include "kernel.h"
#include <partita/subsys.h>
#include <partita/syscall.h>

/* The table's bounds (subsys_table.c: the linker section; host unit tests give their own). */
extern const struct pt_subsys *const pt_subsys_begin, *const pt_subsys_end;
#define FOR_EACH_SUBSYS(s) for (const struct pt_subsys *s = pt_subsys_begin; s < pt_subsys_end; s++)

uint32_t pt_subsys_hooks; /* PT_SUBSYS_HOOK_* of any linked subsystem: one test on hot paths */

/* Hart 0: check the table (ranges do not overlap), note which hooks exist, boot each. */
void pt_subsys_boot_all(void)
{
	FOR_EACH_SUBSYS(a) {
		if (a->trace_count && (a->trace_first < PT_EV_SUBSYS_FIRST ||
				       a->trace_first + a->trace_count > PT_EV_SUBSYS_LAST + 1))
			pt_panic("subsystem %s: trace events %u..%u outside %u..%u", a->name,
				 a->trace_first, a->trace_first + a->trace_count - 1,
				 PT_EV_SUBSYS_FIRST, PT_EV_SUBSYS_LAST);
		if (a->nsyscalls && (a->syscall_first < PT_SYS_SUBSYS_FIRST || !a->syscall))
			pt_panic("subsystem %s: system calls below %u or without a handler", a->name,
				 PT_SYS_SUBSYS_FIRST);
		for (const struct pt_subsys *b = pt_subsys_begin; b < a; b++) {
			if (a->trace_count && b->trace_count &&
			    a->trace_first < b->trace_first + b->trace_count &&
			    b->trace_first < a->trace_first + a->trace_count)
				pt_panic("subsystems %s and %s: trace event ranges overlap", b->name,
					 a->name);
			if (a->nsyscalls && b->nsyscalls &&
			    a->syscall_first < b->syscall_first + b->nsyscalls &&
			    b->syscall_first < a->syscall_first + a->nsyscalls)
				pt_panic("subsystems %s and %s: system call ranges overlap", b->name,
					 a->name);
		}
		pt_subsys_hooks |= (a->on_release ? PT_SUBSYS_HOOK_RELEASE : 0) |
				   (a->on_complete ? PT_SUBSYS_HOOK_COMPLETE : 0) |
				   (a->on_fault ? PT_SUBSYS_HOOK_FAULT : 0) |
				   (a->on_dispatch ? PT_SUBSYS_HOOK_DISPATCH : 0) |
				   (a->on_preempt_point ? PT_SUBSYS_HOOK_PREEMPT_POINT : 0);
	}
	FOR_EACH_SUBSYS(s)
		if (s->boot)
			s->boot();
}

void pt_subsys_cpu_entry_all(uint32_t cpu)
{
	FOR_EACH_SUBSYS(s)
		if (s->cpu_entry)
			s->cpu_entry(cpu); /* does not return on a hart the subsystem owns */
}

void pt_subsys_release_slow(uint32_t tid, uint64_t job)
{
	FOR_EACH_SUBSYS(s)
		if (s->on_release)
			s->on_release(tid, job);
}

void pt_subsys_complete_slow(uint32_t tid, uint64_t job, uint64_t response_cycles)
{
	FOR_EACH_SUBSYS(s)
		if (s->on_complete)
			s->on_complete(tid, job, response_cycles);
}

void pt_subsys_dispatch_slow(uint32_t cpu, uint32_t prev_tid, uint32_t next_tid)
{
	FOR_EACH_SUBSYS(s)
		if (s->on_dispatch)
			s->on_dispatch(cpu, prev_tid, next_tid);
}

void pt_subsys_preempt_point_slow(uint32_t cpu)
{
	FOR_EACH_SUBSYS(s)
		if (s->on_preempt_point)
			s->on_preempt_point(cpu);
}

void pt_subsys_fault_slow(uint32_t tid, uint64_t cause, uint64_t addr)
{
	FOR_EACH_SUBSYS(s)
		if (s->on_fault)
			s->on_fault(tid, cause, addr);
}

int64_t pt_subsys_syscall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	FOR_EACH_SUBSYS(s)
		if (s->nsyscalls && nr >= s->syscall_first && nr < (uint64_t)s->syscall_first + s->nsyscalls)
			return s->syscall((uint32_t)nr, a0, a1, a2, a3);
	return PT_EINVAL;
}
