/*
 * M-mode start (runs on every hart before the kernel, no MMU). Hart 0 clears .bss; the other
 * harts wait for it. Then: PMP opens all memory to S/U, exceptions and S interrupts go to
 * S-mode, counters are readable from S/U, the M-mode forwarder is installed, and mret enters
 * arch_s_entry() in S-mode. Harts beyond the configured count stay parked here.
 */
#include <stdint.h>
#include <partita/config.h>
#include "csr.h"
#include "asm.h"
#include "virt.h"

/* Outside .bss: hart 0 clears .bss while every hart already runs on its boot stack. */
char arch_boot_stacks[PT_MAX_CPUS][BOOT_STACK_BYTES]
	__attribute__((section(".bootstack"), aligned(16)));
static uint64_t m_scratch[PT_MAX_CPUS][4];
/* In .data, not .bss: it must read 0 before hart 0 clears .bss (the RAM file may hold an
 * earlier run's contents; QEMU's loader rewrites .data at every boot). */
static volatile uint32_t bss_ready __attribute__((section(".data")));

extern char __bss_start[], __bss_end[], __ubss_start[], __ubss_end[];
extern void m_trap_vector(void);
extern void arch_s_entry(uint64_t hartid);
void m_start(uint64_t hartid);

static void zero(char *a, char *b)
{
	for (uint64_t *p = (uint64_t *)a; p < (uint64_t *)b; p++)
		*p = 0;
}

void m_start(uint64_t hartid)
{
	if (hartid == 0) {
		zero(__bss_start, __bss_end);
		zero(__ubss_start, __ubss_end);
		__asm__ volatile("fence rw, rw" ::: "memory");
		bss_ready = 1;
		__asm__ volatile("fence rw, rw" ::: "memory");
		for (uint32_t h = 1; h < PT_MAX_CPUS; h++) /* wake the waiting harts */
			*VIRT_CLINT_MSIP_REG(h) = 1;
	} else {
		/* Wait in wfi, not in a spin loop: under icount every instruction of every hart
		 * advances the one virtual clock, so spinning harts would slow hart 0's boot. */
		csr_write(mie, 1ul << IRQ_M_SOFT);
		while (!bss_ready)
			__asm__ volatile("wfi");
		*VIRT_CLINT_MSIP_REG(hartid) = 0;
		csr_write(mie, 0);
		__asm__ volatile("fence rw, rw" ::: "memory");
	}
	if (hartid >= pt_config.ncpus) {
		for (;;)
			__asm__ volatile("wfi");
	}
	/* PMP entry 0: TOR up to the top of the address space, RWX for S and U. */
	csr_write(pmpaddr0, 0x3ffffffffffffful);
	csr_write(pmpcfg0, 0xf);
	/* All exceptions except ecalls from S/M go to S; S interrupts go to S. */
	csr_write(medeleg, 0xb1fful);
	csr_write(mideleg, SIE_SSIE | SIE_STIE | SIE_SEIE);
	csr_write(mcounteren, 7);       /* cycle, time, instret readable in S */
	csr_write(scounteren, 7);       /* ... and in U */
	/* The timer is the CLINT's mtimecmp, forwarded by m_trap_vector (not Sstc: see
	 * docs/kernel.md). Start disarmed ("never" = 2^55 ticks). */
	*VIRT_CLINT_MTIMECMP_REG(hartid) = 1ul << VIRT_CLINT_NEVER_SHIFT;
	csr_write(mscratch, (uint64_t)&m_scratch[hartid][0]);
	csr_write(mtvec, (uint64_t)m_trap_vector);
	csr_write(mie, (1ul << IRQ_M_SOFT) | (1ul << 7)); /* MSIP (IPIs), MTIP (timer) */
	csr_write(satp, 0);
	uint64_t ms = csr_read(mstatus);
	ms = (ms & ~MSTATUS_MPP_MASK) | MSTATUS_MPP_S;
	csr_write(mstatus, ms);
	csr_write(mepc, (uint64_t)arch_s_entry);
	register uint64_t a0 __asm__("a0") = hartid;
	__asm__ volatile("mret" ::"r"(a0));
	__builtin_unreachable();
}
