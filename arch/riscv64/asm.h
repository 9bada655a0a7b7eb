#ifndef ARCH_RISCV64_ASM_H
#define ARCH_RISCV64_ASM_H
#define BOOT_STACK_BYTES 16384
/* struct hal_percpu offsets */
#define PC_KSTACK 0
#define PC_SCRATCH 8
#define PC_KSTACK_LO 24
#define PC_EMERG_SP 32
/* struct hal_trap_frame: x[32] then sepc, sstatus, scause, stval */
#define TF_SEPC (32 * 8)
#define TF_SSTATUS (33 * 8)
#define TF_SCAUSE (34 * 8)
#define TF_STVAL (35 * 8)
#define TF_SIZE (36 * 8)
#endif
