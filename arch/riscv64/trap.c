/* Trap decoding: the assembly entry saved a full frame; route it to the portable core. */
#include <partita/hal.h>
#include <partita/hal_cpu.h>
#include "csr.h"

void arch_trap(struct hal_trap_frame *tf);
_Noreturn void arch_kstack_overflow(uint64_t sepc, uint64_t stval, uint64_t sp);

/* Entered on the hart's emergency stack when a trap from S-mode finds no room left on the
 * current kernel stack (its guard page below would be hit): report and stop the machine. */
_Noreturn void arch_kstack_overflow(uint64_t sepc, uint64_t stval, uint64_t sp)
{
	pt_kernel_stack_overflow(sepc, stval, sp);
}

static const char *const cause_names[] = {
	[EXC_INST_MISALIGNED] = "instruction_misaligned",
	[EXC_INST_ACCESS] = "instruction_access_fault",
	[EXC_ILLEGAL] = "illegal_instruction",
	[EXC_BREAKPOINT] = "breakpoint",
	[EXC_LOAD_MISALIGNED] = "load_misaligned",
	[EXC_LOAD_ACCESS] = "load_access_fault",
	[EXC_STORE_MISALIGNED] = "store_misaligned",
	[EXC_STORE_ACCESS] = "store_access_fault",
	[EXC_ECALL_U] = "ecall_u",
	[EXC_ECALL_S] = "ecall_s",
	[10] = "reserved",
	[11] = "ecall_m",
	[EXC_INST_PAGE] = "instruction_page_fault",
	[EXC_LOAD_PAGE] = "load_page_fault",
	[14] = "reserved",
	[EXC_STORE_PAGE] = "store_page_fault",
};

const char *hal_cause_name(uint64_t cause)
{
	if (cause & CAUSE_IRQ)
		return "interrupt";
	if (cause < sizeof(cause_names) / sizeof(cause_names[0]) && cause_names[cause])
		return cause_names[cause];
	return "unknown";
}

void arch_trap(struct hal_trap_frame *tf)
{
	uint64_t cause = tf->scause;
	bool from_user = !(tf->sstatus & SSTATUS_SPP);

	if (cause & CAUSE_IRQ) {
		pt_irq_entry();
		switch (cause & 0xff) {
		case IRQ_S_TIMER:
			pt_irq_timer();
			break;
		case IRQ_S_SOFT: {
			/* forwarded CLINT timer and/or IPI */
			extern uint64_t arch_timer_deadline[];
			extern uint64_t arch_armed_cmp[];
			extern volatile uint32_t arch_ipi_pending[];
			uint32_t cpu = hal_cpu_id();
			csr_clear(sip, SIE_SSIE);
			if (__atomic_exchange_n(&arch_ipi_pending[cpu], 0, __ATOMIC_ACQ_REL))
				pt_ipi_handler();
			if (hal_cycles() >= arch_timer_deadline[cpu])
				pt_irq_timer();
			else if (arch_armed_cmp[cpu] == (1ull << 55))
				/* horizon expiry: the M-mode handler marked mtimecmp "never" (entry.S) */
				hal_timer_arm(arch_timer_deadline[cpu]);
			/* else only an IPI: mtimecmp still holds its deadline (an expiry after the
			 * SSIP clear above raises SSIP again and comes back here) */
			break;
		}
		case IRQ_S_EXT: {
			/* after the dedicated context serviced it and a switch follows (trap.S) */
			struct hal_percpu *p = hal_percpu_get();
			if (p->irq_replay)
				p->irq_replay = 0;
			else
				pt_irq_external();
			break;
		}
		default:
			pt_kernel_panic_trap(tf);
		}
	} else if (cause == EXC_ECALL_U) {
		tf->sepc += 4;
		tf->x[10] = (uint64_t)pt_syscall(tf->x[17], tf->x[10], tf->x[11], tf->x[12],
						 tf->x[13], tf->x[14], tf->x[15]);
	} else if (from_user) {
		pt_user_fault(cause, tf->stval, tf->sepc); /* switches away for good */
	} else {
		pt_kernel_panic_trap(tf);
	}
	pt_trap_exit(from_user);
}
