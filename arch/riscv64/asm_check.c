/*
 * Compile-time proof that asm.h matches the C structures the assembly reads and writes.
 * No code: only _Static_asserts (a mismatch is a build error naming the field).
 */
#include <stddef.h>
#include <partita/hal_cpu.h>
#include "asm.h"

#define PT_ASM_OFFSET(type, field, value)                                                   \
	_Static_assert(offsetof(type, field) == (value), #type "." #field " != " #value " (asm.h)")

PT_ASM_OFFSET(struct hal_percpu, kstack_top, PC_KSTACK);
PT_ASM_OFFSET(struct hal_percpu, scratch, PC_SCRATCH);
PT_ASM_OFFSET(struct hal_percpu, kstack_lo, PC_KSTACK_LO);
PT_ASM_OFFSET(struct hal_percpu, emerg_sp, PC_EMERG_SP);
PT_ASM_OFFSET(struct hal_percpu, irq_sp, PC_IRQ_SP);
PT_ASM_OFFSET(struct hal_percpu, irq_t0, PC_IRQ_T0);
PT_ASM_OFFSET(struct hal_percpu, irq_replay, PC_IRQ_REPLAY);
PT_ASM_OFFSET(struct hal_irq_frame, ra, IF_RA);
PT_ASM_OFFSET(struct hal_irq_frame, t, IF_T0);
PT_ASM_OFFSET(struct hal_irq_frame, a, IF_A0);
_Static_assert(sizeof(struct hal_irq_frame) == IF_SIZE, "sizeof(struct hal_irq_frame) != IF_SIZE");
_Static_assert(IF_SIZE % 16 == 0, "the interrupt frame keeps sp 16-byte aligned");
PT_ASM_OFFSET(struct hal_trap_frame, x, 0);
PT_ASM_OFFSET(struct hal_trap_frame, sepc, TF_SEPC);
PT_ASM_OFFSET(struct hal_trap_frame, sstatus, TF_SSTATUS);
PT_ASM_OFFSET(struct hal_trap_frame, scause, TF_SCAUSE);
PT_ASM_OFFSET(struct hal_trap_frame, stval, TF_STVAL);
_Static_assert(sizeof(struct hal_trap_frame) == TF_SIZE, "sizeof(struct hal_trap_frame) != TF_SIZE");
_Static_assert(TF_SIZE % 16 == 0, "the trap frame keeps sp 16-byte aligned");
PT_ASM_OFFSET(struct hal_ctx, ra, CTX_RA);
PT_ASM_OFFSET(struct hal_ctx, sp, CTX_SP);
PT_ASM_OFFSET(struct hal_ctx, s, CTX_S0);
_Static_assert(sizeof(struct hal_ctx) == CTX_SIZE, "sizeof(struct hal_ctx) != CTX_SIZE");
