/* RISC-V CSR access and bit names (privileged spec 1.12). */
#ifndef ARCH_RISCV64_CSR_H
#define ARCH_RISCV64_CSR_H

#include <stdint.h>

#define csr_read(csr) ({ uint64_t __v; __asm__ volatile("csrr %0, " #csr : "=r"(__v)); __v; })
#define csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"rK"((uint64_t)(v)) : "memory")
#define csr_set(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"rK"((uint64_t)(v)) : "memory")
#define csr_clear(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"rK"((uint64_t)(v)) : "memory")
#define csr_read_clear(csr, v) ({ uint64_t __v; __asm__ volatile("csrrc %0, " #csr ", %1" \
	: "=r"(__v) : "rK"((uint64_t)(v)) : "memory"); __v; })

#define SSTATUS_SIE (1ul << 1)
#define SSTATUS_SPIE (1ul << 5)
#define SSTATUS_SPP (1ul << 8)
#define SSTATUS_SUM (1ul << 18)
#define MSTATUS_MPP_MASK (3ul << 11)
#define MSTATUS_MPP_S (1ul << 11)

#define IRQ_S_SOFT 1
#define IRQ_S_TIMER 5
#define IRQ_S_EXT 9
#define IRQ_M_SOFT 3
#define SIE_SSIE (1ul << IRQ_S_SOFT)
#define SIE_STIE (1ul << IRQ_S_TIMER)
#define SIE_SEIE (1ul << IRQ_S_EXT)

#define CAUSE_IRQ (1ul << 63)
#define EXC_INST_MISALIGNED 0
#define EXC_INST_ACCESS 1
#define EXC_ILLEGAL 2
#define EXC_BREAKPOINT 3
#define EXC_LOAD_MISALIGNED 4
#define EXC_LOAD_ACCESS 5
#define EXC_STORE_MISALIGNED 6
#define EXC_STORE_ACCESS 7
#define EXC_ECALL_U 8
#define EXC_ECALL_S 9
#define EXC_INST_PAGE 12
#define EXC_LOAD_PAGE 13
#define EXC_STORE_PAGE 15

#define MENVCFG_STCE (1ul << 63)
#define CSR_STIMECMP 0x14d
#define CSR_MENVCFG 0x30a

#endif
