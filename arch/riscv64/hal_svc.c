/*
 * The service-hart HAL (<partita/hal_svc.h>) on riscv64 / QEMU virt: the hart's own CLINT
 * comparator, raw msip kicks, wfi, and a job run with a tick interrupt. The M-mode forwarder
 * (entry.S) turns the CLINT's machine timer and software interrupts into SSIP and writes
 * "never" into an expired comparator; a service hart keeps sstatus.SIE = 0 outside
 * hal_svc_call_ticked, so `wfi` still wakes on SSIP but no trap is taken.
 */
#include <partita/hal.h>
#include <partita/hal_svc.h>
#include <partita/config.h>
#include "csr.h"
#include "virt.h"

#define MTIME_NS (1000000000ul / VIRT_TIMEBASE_HZ) /* ns per CLINT tick (100) */

void hal_svc_timer_arm(uint64_t deadline_cycles)
{
	uint64_t ns = deadline_cycles << pt_config.icount_shift;
	*VIRT_CLINT_MTIMECMP_REG(hal_cpu_id()) = (ns + MTIME_NS - 1) / MTIME_NS;
}

void hal_svc_kick(uint32_t hart)
{
	__asm__ volatile("fence rw, o" ::: "memory"); /* our stores before the device write */
	*VIRT_CLINT_MSIP_REG(hart) = 1;
}

void hal_svc_halt(void)
{
	__asm__ volatile("wfi" ::: "memory");
	csr_clear(sip, SIE_SSIE);
}

/* hal.c's view of the scheduler hart's timer and IPIs (the forwarder updates armed_cmp) */
extern uint64_t arch_timer_deadline[];
extern uint64_t arch_armed_cmp[];
extern volatile uint32_t arch_ipi_pending[];

int hal_svc_client_halt(void)
{
	uint32_t cpu = hal_cpu_id();
	if (!(csr_read(sip) & SIE_SSIE))
		__asm__ volatile("wfi" ::: "memory");
	if (!(csr_read(sip) & SIE_SSIE))
		return 1; /* woken for another reason: look again */
	/* SSIP: a kick, and/or the kernel's IPI or timer (arch_trap must see those) */
	if (__atomic_load_n(&arch_ipi_pending[cpu], __ATOMIC_ACQUIRE) ||
	    hal_cycles() >= arch_timer_deadline[cpu] ||
	    arch_armed_cmp[cpu] == (1ull << VIRT_CLINT_NEVER_SHIFT))
		return 0;
	csr_clear(sip, SIE_SSIE);
	/* an expiry racing with the clear re-raises SSIP (the forwarder sets it again) */
	return 1;
}

void hal_svc_sync_icache(void)
{
	__asm__ volatile("fence.i" ::: "memory"); /* Zifencei: this hart's fetch only */
}

/* tick handler of each hart inside hal_svc_call_ticked (written only by that hart) */
static void (*ticks[PT_MAX_CPUS])(void);

/* S-mode trap vector of a service hart inside hal_svc_call_ticked. */
__attribute__((interrupt("supervisor"), aligned(8))) static void svc_trap(void)
{
	uint64_t cause = csr_read(scause);
	if (!(cause & CAUSE_IRQ))
		pt_svc_fault(cause, csr_read(sepc), csr_read(stval));
	/* SSIP: the forwarded timer or a kick; either way the tick re-arms */
	csr_clear(sip, SIE_SSIE);
	ticks[hal_cpu_id()]();
}

void hal_svc_call_ticked(uintptr_t entry, void *arg, void (*tick)(void))
{
	uint64_t old = csr_read(stvec);
	ticks[hal_cpu_id()] = tick;
	csr_write(stvec, (uintptr_t)svc_trap);
	tick();
	csr_set(sstatus, SSTATUS_SIE);
	((void (*)(void *))entry)(arg);
	csr_clear(sstatus, SSTATUS_SIE);
	csr_write(stvec, old);
}
