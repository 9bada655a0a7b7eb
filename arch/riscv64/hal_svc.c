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

void hal_svc_call_on_stack(uintptr_t entry, void *arg, uintptr_t sp_top)
{
	/* the callee follows the ABI: it preserves s0..s11 and sp, so s1 carries our sp across
	 * the call; every caller-saved register is clobbered (no F/D registers in this ABI) */
	register uintptr_t a0 __asm__("a0") = (uintptr_t)arg;
	__asm__ volatile("mv s1, sp\n\t"
			 "mv sp, %[top]\n\t"
			 "jalr ra, 0(%[fn])\n\t"
			 "mv sp, s1"
			 : "+r"(a0)
			 : [top] "r"(sp_top & ~(uintptr_t)15), [fn] "r"(entry)
			 : "s1", "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3",
			   "a4", "a5", "a6", "a7", "memory");
}
