/*
 * Machine-mode entry at 0x80000000 (QEMU -bios none jumps here on every hart, a0 = hartid).
 * Each hart gets a boot stack, then m_start() (M-mode C) configures delegation, PMP, counters
 * and drops to S-mode. The M-mode trap vector below is the only M-mode code that runs after
 * boot: it forwards the CLINT's machine timer and software interrupts to S-mode as SSIP (the
 * one S interrupt that S-mode can clear itself). See docs/kernel.md for why not Sstc.
 */
#include "asm.h"
#include "virt.h"

	.section .text.pt_reset, "ax"
	.globl _start
_start:
	csrw mie, zero
	csrr a0, mhartid
	li t0, BOOT_STACK_BYTES
	addi t1, a0, 1
	mul t0, t0, t1
	la sp, arch_boot_stacks
	add sp, sp, t0
	mv tp, zero
	li t0, 8
	bgeu a0, t0, 1f           /* more harts than PT_MAX_CPUS: park */
	call m_start              /* does not return (mret to S-mode) */
1:	wfi
	j 1b

/* M-mode trap: mscratch -> per-hart 4-dword save area. Only MSIP is expected. */
	.balign 4
	.globl m_trap_vector
m_trap_vector:
	csrrw t0, mscratch, t0
	sd t1, 0(t0)
	sd t2, 8(t0)
	csrr t1, mcause
	li t2, 0x8000000000000007  /* machine timer: disarm, forward as SSIP */
	beq t1, t2, m_timer
	li t2, 0x8000000000000003  /* machine software interrupt */
	bne t1, t2, m_unexpected
	csrr t1, mhartid
	slli t1, t1, 2
	li t2, VIRT_CLINT_MSIP      /* CLINT msip[hart] */
	add t1, t1, t2
	sw zero, 0(t1)
	li t1, 2                   /* mip.SSIP: the S-mode IPI */
	csrs mip, t1
	ld t1, 0(t0)
	ld t2, 8(t0)
	csrrw t0, mscratch, t0
	mret
m_timer:
	csrr t1, mhartid
	slli t1, t1, 3
	li t2, VIRT_CLINT_MTIMECMP  /* CLINT mtimecmp[hart] */
	add t1, t1, t2
	li t2, 1
	slli t2, t2, VIRT_CLINT_NEVER_SHIFT /* "never" (see hal_timer_arm) */
	sd t2, 0(t1)
	csrr t1, mhartid           /* arch_armed_cmp[hart] = never (hal_timer_arm's cache) */
	slli t1, t1, 3
	sd t2, 16(t0)              /* t2 is free to reuse once saved: keep "never" */
	la t2, arch_armed_cmp
	add t1, t1, t2
	ld t2, 16(t0)
	sd t2, 0(t1)
	li t1, 2
	csrs mip, t1
	ld t1, 0(t0)
	ld t2, 8(t0)
	csrrw t0, mscratch, t0
	mret
m_unexpected:
	/* Nothing else may trap to M-mode: fail loudly through the test device. */
	li t1, 0x00EE3333
	li t2, 0x00100000
	sw t1, 0(t2)
2:	wfi
	j 2b
