/*
 * S-mode trap entry/exit, voluntary context switch, first entry to user mode.
 *
 * sscratch convention: 0 while the hart runs in S-mode; the per-cpu block address while it
 * runs in U-mode. The entry swaps tp and sscratch: a non-zero tp afterwards means the trap
 * came from U-mode and the kernel stack is taken from percpu->kstack_top; otherwise the trap
 * nests on the current kernel stack.
 *
 * Dedicated interrupt context (docs/interrupts.md): a supervisor external interrupt on a hart
 * whose percpu->irq_sp is set does not save the interrupted thread's frame. It saves the
 * registers a C call clobbers (struct hal_irq_frame) on the hart's interrupt stack and calls
 * pt_irq_fast, which claims the source and wakes its handler thread. If nothing more is due
 * the trap returns at once; otherwise (the handler preempts: a switch follows) it restores
 * those registers and takes the full path below, which saves the whole frame and calls
 * arch_trap with percpu->irq_replay set (the source is not serviced twice). The cost of the
 * cause test: four instructions on an exception (syscalls, faults), nine on the timer / IPI.
 */
#include "asm.h"

	.section .text
	.balign 4
	.globl arch_trap_vector
arch_trap_vector:
	csrrw tp, sscratch, tp
	bnez tp, 1f
	/* from S-mode: tp was 0 in sscratch, restore it */
	csrrw tp, sscratch, tp
	sd t0, PC_IRQ_T0(tp)
	csrr t0, scause
	bltz t0, .Lintr_from_s     /* exceptions (syscalls, faults) fall through */
	ld t0, PC_IRQ_T0(tp)
.Lfull_from_s:
	sd sp, PC_SCRATCH(tp)
	addi sp, sp, -TF_SIZE
	/* kernel stack overflow: the frame would land below the stack (in its guard page) */
	csrw sscratch, t0          /* sscratch is 0 in S-mode: borrow it */
	ld t0, PC_KSTACK_LO(tp)
	bltu sp, t0, .Lkstack_overflow
	csrr t0, sscratch
	csrw sscratch, zero
	sd tp, 4*8(sp)
	j 2f
.Lkstack_overflow:            /* local: profiles attribute the entry to arch_trap_vector */
	ld sp, PC_EMERG_SP(tp)
	csrw sscratch, zero
	csrr a0, sepc
	csrr a1, stval
	ld a2, PC_SCRATCH(tp)
	call arch_kstack_overflow   /* does not return */
1:	/* from U-mode: tp = percpu, sscratch = user tp */
	sd t0, PC_IRQ_T0(tp)
	csrr t0, scause
	bltz t0, .Lintr_from_u
	ld t0, PC_IRQ_T0(tp)
.Lfull_from_u:
	sd sp, PC_SCRATCH(tp)
	ld sp, PC_KSTACK(tp)
	addi sp, sp, -TF_SIZE
	sd t0, 5*8(sp)
	csrr t0, sscratch
	sd t0, 4*8(sp)
	csrw sscratch, zero
	ld t0, 5*8(sp)
2:	sd ra, 1*8(sp)
	sd gp, 3*8(sp)
	sd t0, 5*8(sp)
	sd t1, 6*8(sp)
	sd t2, 7*8(sp)
	sd s0, 8*8(sp)
	sd s1, 9*8(sp)
	sd a0, 10*8(sp)
	sd a1, 11*8(sp)
	sd a2, 12*8(sp)
	sd a3, 13*8(sp)
	sd a4, 14*8(sp)
	sd a5, 15*8(sp)
	sd a6, 16*8(sp)
	sd a7, 17*8(sp)
	sd s2, 18*8(sp)
	sd s3, 19*8(sp)
	sd s4, 20*8(sp)
	sd s5, 21*8(sp)
	sd s6, 22*8(sp)
	sd s7, 23*8(sp)
	sd s8, 24*8(sp)
	sd s9, 25*8(sp)
	sd s10, 26*8(sp)
	sd s11, 27*8(sp)
	sd t3, 28*8(sp)
	sd t4, 29*8(sp)
	sd t5, 30*8(sp)
	sd t6, 31*8(sp)
	ld t0, PC_SCRATCH(tp)
	sd t0, 2*8(sp)
	csrr t0, sepc
	sd t0, TF_SEPC(sp)
	csrr t0, sstatus
	sd t0, TF_SSTATUS(sp)
	csrr t0, scause
	sd t0, TF_SCAUSE(sp)
	csrr t0, stval
	sd t0, TF_STVAL(sp)
	mv a0, sp
	call arch_trap
	/* fall through */
	.globl arch_trap_return
arch_trap_return:
	/* sp = frame; interrupts are masked here */
	ld t0, TF_SSTATUS(sp)
	csrw sstatus, t0
	ld t1, TF_SEPC(sp)
	csrw sepc, t1
	andi t0, t0, 0x100       /* SPP */
	bnez t0, 3f
	csrw sscratch, tp        /* back to U: next trap finds the per-cpu block */
	addi t0, sp, TF_SIZE
	sd t0, PC_KSTACK(tp)
	ld tp, 4*8(sp)           /* the user's tp */
	/* Back to S: tp stays this hart's per-cpu block. The frame holds the tp of the hart
	 * that took the trap, and a kernel thread preempted there may resume on another one
	 * (G-EDF migration). */
3:	ld ra, 1*8(sp)
	ld gp, 3*8(sp)
	ld t0, 5*8(sp)
	ld t1, 6*8(sp)
	ld t2, 7*8(sp)
	ld s0, 8*8(sp)
	ld s1, 9*8(sp)
	ld a0, 10*8(sp)
	ld a1, 11*8(sp)
	ld a2, 12*8(sp)
	ld a3, 13*8(sp)
	ld a4, 14*8(sp)
	ld a5, 15*8(sp)
	ld a6, 16*8(sp)
	ld a7, 17*8(sp)
	ld s2, 18*8(sp)
	ld s3, 19*8(sp)
	ld s4, 20*8(sp)
	ld s5, 21*8(sp)
	ld s6, 22*8(sp)
	ld s7, 23*8(sp)
	ld s8, 24*8(sp)
	ld s9, 25*8(sp)
	ld s10, 26*8(sp)
	ld s11, 27*8(sp)
	ld t3, 28*8(sp)
	ld t4, 29*8(sp)
	ld t5, 30*8(sp)
	ld t6, 31*8(sp)
	ld sp, 2*8(sp)
	sret

/* An interrupt: the external one takes the dedicated context, the others the full path. */
.Lintr_from_s:
	slli t0, t0, 1             /* the interrupt bit drops out */
	addi t0, t0, -SCAUSE_S_EXT_X2
	beqz t0, .Lirq_entry
	ld t0, PC_IRQ_T0(tp)
	j .Lfull_from_s
.Lintr_from_u:
	slli t0, t0, 1
	addi t0, t0, -SCAUSE_S_EXT_X2
	beqz t0, .Lirq_entry
	ld t0, PC_IRQ_T0(tp)
	j .Lfull_from_u

/*
 * The dedicated interrupt context. Entered with tp = percpu, the interrupted t0 in
 * PC_IRQ_T0(tp), and sscratch = the user's tp (from U) or 0 (from S); interrupts masked.
 */
.Lirq_entry:
	ld t0, PC_IRQ_SP(tp)
	beqz t0, .Lirq_no_context
	sd sp, PC_SCRATCH(tp)
	addi sp, t0, -IF_SIZE
	sd ra, IF_RA(sp)
	ld t0, PC_IRQ_T0(tp)
	sd t0, IF_T0+0(sp)
	sd t1, IF_T0+8(sp)
	sd t2, IF_T0+16(sp)
	sd t3, IF_T0+24(sp)
	sd t4, IF_T0+32(sp)
	sd t5, IF_T0+40(sp)
	sd t6, IF_T0+48(sp)
	sd a0, IF_A0+0(sp)
	sd a1, IF_A0+8(sp)
	sd a2, IF_A0+16(sp)
	sd a3, IF_A0+24(sp)
	sd a4, IF_A0+32(sp)
	sd a5, IF_A0+40(sp)
	sd a6, IF_A0+48(sp)
	sd a7, IF_A0+56(sp)
	call pt_irq_fast
	mv t0, a0                  /* restored last, from PC_IRQ_T0 */
	ld ra, IF_RA(sp)
	ld t1, IF_T0+8(sp)
	ld t2, IF_T0+16(sp)
	ld t3, IF_T0+24(sp)
	ld t4, IF_T0+32(sp)
	ld t5, IF_T0+40(sp)
	ld t6, IF_T0+48(sp)
	ld a0, IF_A0+0(sp)
	ld a1, IF_A0+8(sp)
	ld a2, IF_A0+16(sp)
	ld a3, IF_A0+24(sp)
	ld a4, IF_A0+32(sp)
	ld a5, IF_A0+40(sp)
	ld a6, IF_A0+48(sp)
	ld a7, IF_A0+56(sp)
	ld sp, PC_SCRATCH(tp)
	bnez t0, .Lirq_full
	/* nothing more is due: back to the interrupted thread, untouched */
	csrr t0, sstatus
	andi t0, t0, 0x100         /* SPP */
	bnez t0, 5f
	ld t0, PC_IRQ_T0(tp)
	csrrw tp, sscratch, tp     /* to U: tp = the user's, sscratch = percpu */
	sret
5:	ld t0, PC_IRQ_T0(tp)
	sret
.Lirq_full:
	/* a switch follows: save the full frame now, as a trap entry would have */
	li t0, 1
	sd t0, PC_IRQ_REPLAY(tp)
.Lirq_no_context:
	csrr t0, sstatus
	andi t0, t0, 0x100         /* SPP */
	bnez t0, 6f
	ld t0, PC_IRQ_T0(tp)
	j .Lfull_from_u
6:	ld t0, PC_IRQ_T0(tp)
	j .Lfull_from_s

/* void hal_ctx_switch(struct hal_ctx *from, struct hal_ctx *to): callee-saved only. */
	.globl hal_ctx_switch
hal_ctx_switch:
	sd ra, CTX_RA(a0)
	sd sp, CTX_SP(a0)
	sd s0, CTX_S0+0(a0)
	sd s1, CTX_S0+8(a0)
	sd s2, CTX_S0+16(a0)
	sd s3, CTX_S0+24(a0)
	sd s4, CTX_S0+32(a0)
	sd s5, CTX_S0+40(a0)
	sd s6, CTX_S0+48(a0)
	sd s7, CTX_S0+56(a0)
	sd s8, CTX_S0+64(a0)
	sd s9, CTX_S0+72(a0)
	sd s10, CTX_S0+80(a0)
	sd s11, CTX_S0+88(a0)
	ld ra, CTX_RA(a1)
	ld sp, CTX_SP(a1)
	ld s0, CTX_S0+0(a1)
	ld s1, CTX_S0+8(a1)
	ld s2, CTX_S0+16(a1)
	ld s3, CTX_S0+24(a1)
	ld s4, CTX_S0+32(a1)
	ld s5, CTX_S0+40(a1)
	ld s6, CTX_S0+48(a1)
	ld s7, CTX_S0+56(a1)
	ld s8, CTX_S0+64(a1)
	ld s9, CTX_S0+72(a1)
	ld s10, CTX_S0+80(a1)
	ld s11, CTX_S0+88(a1)
	ret

/* First run of a thread: s0 = fn, s1 = arg (set by hal_ctx_init). */
	.globl arch_thread_trampoline
arch_thread_trampoline:
	mv a0, s1
	jalr s0
4:	j 4b

/* hal_user_enter(pc, sp, a0, a1, a2): enter U-mode with interrupts enabled after sret. */
	.globl hal_user_enter
hal_user_enter:
	csrci sstatus, 2         /* SIE off until sret */
	csrw sepc, a0
	li t0, 0x100             /* SPP = U */
	csrc sstatus, t0
	li t0, 0x20              /* SPIE: interrupts on in U */
	csrs sstatus, t0
	csrw sscratch, tp        /* kstack_top was set by the switch */
	mv sp, a1
	mv a0, a2
	mv a1, a3
	mv a2, a4
	li tp, 0
	li ra, 0
	li gp, 0
	li t0, 0
	li t1, 0
	li t2, 0
	li s0, 0
	li s1, 0
	li a3, 0
	li a4, 0
	li a5, 0
	li a6, 0
	li a7, 0
	li s2, 0
	li s3, 0
	li s4, 0
	li s5, 0
	li s6, 0
	li s7, 0
	li s8, 0
	li s9, 0
	li s10, 0
	li s11, 0
	li t3, 0
	li t4, 0
	li t5, 0
	li t6, 0
	sret
