/*
 * Offsets and sizes the assembly (entry.S, trap.S, mstart.c) uses to reach C structures.
 * Each one is checked against the C layout at compile time (asm_check.c): a change of
 * struct hal_percpu, hal_trap_frame or hal_ctx that these numbers miss breaks the build.
 */
#ifndef ARCH_RISCV64_ASM_H
#define ARCH_RISCV64_ASM_H
#define BOOT_STACK_BYTES 16384 /* per-hart stack until the first thread runs */
/* struct hal_percpu (the thread pointer register holds its address in S-mode) */
#define PC_KSTACK 0     /* kstack_top: the trap entry's stack for traps from user mode */
#define PC_SCRATCH 8    /* scratch: the interrupted sp while the entry switches stacks */
#define PC_KSTACK_LO 24 /* kstack_lo: below it, the entry reports a kernel stack overflow */
#define PC_EMERG_SP 32  /* emerg_sp: stack for that report */
#define PC_IRQ_SP 40    /* irq_sp: top of the hart's interrupt stack, 0 = no dedicated context */
#define PC_IRQ_T0 48    /* irq_t0: t0 while the entry decodes scause */
#define PC_IRQ_REPLAY 56 /* irq_replay: the full path follows an interrupt already serviced */
/* struct hal_irq_frame: ra, t0..t6, a0..a7 (the dedicated interrupt context's frame) */
#define IF_RA 0
#define IF_T0 8    /* t<n> at IF_T0 + 8 * n */
#define IF_A0 64   /* a<n> at IF_A0 + 8 * n */
#define IF_SIZE (16 * 8)
/* scause of a supervisor external interrupt, shifted left by one (the interrupt bit drops out) */
#define SCAUSE_S_EXT_X2 18
/* struct hal_trap_frame: x[32] then sepc, sstatus, scause, stval */
#define TF_SEPC (32 * 8)
#define TF_SSTATUS (33 * 8)
#define TF_SCAUSE (34 * 8)
#define TF_STVAL (35 * 8)
#define TF_SIZE (36 * 8)
/* struct hal_ctx (hal_ctx_switch): ra, sp, s0..s11 */
#define CTX_RA 0
#define CTX_SP 8
#define CTX_S0 16 /* s<n> at CTX_S0 + 8 * n */
#define CTX_SIZE (14 * 8)
#endif
