/*
 * Fault entry points called by the trap handler (arch/): a user thread's fault is contained
 * (the thread, or its whole partition by its fault policy, is stopped; the kernel and other
 * partitions go on); a fault of the kernel itself stops the machine with a named exit code.
 */
#include "kernel.h"

void pt_user_fault(uint64_t cause, uint64_t addr, uint64_t pc)
{
	struct pt_thread *t = pt_current();
	pt_printk("FAULT thread=%s cause=%s addr=0x%lx pc=0x%lx\n", t->name, hal_cause_name(cause),
		  addr, pc);
	pt_trace_emit(PT_EV_FAULT, t->tid, cause, addr);
	if (pt_subsys_hooks & PT_SUBSYS_HOOK_FAULT)
		pt_subsys_fault_slow(t->tid, cause, addr);
	if (t->part && t->part->fault_policy == PT_FAULT_STOP_PARTITION) {
		for (int i = 0; i < PT_MAX_THREADS; i++) {
			struct pt_thread *o = &pt_threads[i];
			if (o != t && o->part == t->part && o->tid && o->state != PT_TS_FREE)
				pt_thread_stop(o, PT_STOP_PARTITION);
		}
	}
	pt_thread_stop(t, PT_STOP_FAULT);
}

_Noreturn void pt_kernel_stack_overflow(uint64_t pc, uint64_t addr, uint64_t sp)
{
	struct pt_cpu *c = pt_this_cpu();
	pt_printk("KERNEL PANIC cpu=%u thread=%s kernel stack overflow pc=0x%lx addr=0x%lx "
		  "sp=0x%lx stack=[0x%lx,0x%lx)\n", c->id, c->current ? c->current->name : "?", pc,
		  addr, sp, c->hal.kstack_lo, c->hal.kstack_top);
	pt_trace_emit(PT_EV_SHUTDOWN, 0, PT_EXIT_STACK_OVERFLOW, pc);
	pt_trace_set_exit_code(PT_EXIT_STACK_OVERFLOW);
	hal_poweroff(PT_EXIT_STACK_OVERFLOW);
}

_Noreturn void pt_kernel_panic_trap(const struct hal_trap_frame *tf)
{
	struct pt_cpu *c = pt_this_cpu();
	pt_printk("KERNEL PANIC cpu=%u thread=%s cause=%s(0x%lx) sepc=0x%lx stval=0x%lx\n", c->id,
		  c->current ? c->current->name : "?", hal_cause_name(tf->scause), tf->scause,
		  tf->sepc, tf->stval);
	for (int i = 1; i < 32; i += 4)
		pt_printk("  x%02d=%016lx x%02d=%016lx x%02d=%016lx x%02d=%016lx\n", i, tf->x[i],
			  i + 1, tf->x[i + 1], i + 2, tf->x[i + 2], i + 3,
			  i + 3 < 32 ? tf->x[i + 3] : 0);
	pt_trace_emit(PT_EV_SHUTDOWN, 0, PT_EXIT_TRAP, tf->scause);
	pt_trace_set_exit_code(PT_EXIT_TRAP);
	hal_poweroff(PT_EXIT_TRAP);
}
