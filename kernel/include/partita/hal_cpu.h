/*
 * The CPU-level half of the HAL: execution contexts, traps, address spaces. Like hal.h it is
 * implemented by arch/riscv64 and is the only way kernel/core reaches the hardware. It is
 * separate from hal.h because host unit tests of the policies, allocator and trace writer
 * never need it.
 */
#ifndef PARTITA_HAL_CPU_H
#define PARTITA_HAL_CPU_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/* Callee-saved state of a voluntary switch: ra, sp, s0..s11. */
struct hal_ctx {
	uint64_t ra, sp;
	uint64_t s[12];
};

/* Head of the per-cpu block; the thread pointer register holds its address in S-mode.
 * The trap entry reads kstack_top (offset 0) and uses scratch (offset 8). */
struct hal_percpu {
	uint64_t kstack_top; /* top of the running thread's kernel stack */
	uint64_t scratch;
	uint32_t cpu;
	uint32_t pad;
	uint64_t kstack_lo;  /* lowest valid address of that stack (0 = unchecked) */
	uint64_t emerg_sp;   /* stack used to report a kernel stack overflow */
	/* Dedicated interrupt context (docs/interrupts.md): the top of this hart's interrupt stack,
	 * on which an external interrupt that only wakes a handler thread runs with nothing but
	 * the registers its own path clobbers saved (0 = off: every trap saves the full frame). */
	uint64_t irq_sp;
	uint64_t irq_t0;     /* the interrupted t0 while the entry decodes the cause */
	uint64_t irq_replay; /* 1: the full path re-enters for an interrupt already serviced */
};

/* What the dedicated interrupt context saves on the interrupt stack: the registers a C call
 * may clobber (the callee-saved ones survive pt_irq_fast by the calling convention; gp is
 * never used by the kernel; tp is this hart's per-cpu block). */
struct hal_irq_frame {
	uint64_t ra;
	uint64_t t[7];  /* t0..t6 */
	uint64_t a[8];  /* a0..a7 */
};

/* Register state saved by the trap entry (full context). */
struct hal_trap_frame {
	uint64_t x[32]; /* x[0] unused; x[2] = sp, x[10..17] = a0..a7 */
	uint64_t sepc, sstatus, scause, stval;
};

/* Prepare `c` so that the first hal_ctx_switch to it calls fn(arg) on stack_top. */
void hal_ctx_init(struct hal_ctx *c, uintptr_t stack_top, void (*fn)(void *), void *arg);
/* Save callee-saved registers into `from`, load `to`. Interrupts must be masked. */
void hal_ctx_switch(struct hal_ctx *from, struct hal_ctx *to);
/* Drop to user mode at pc with the given stack and a0..a2; kernel stack = percpu kstack_top. */
_Noreturn void hal_user_enter(uintptr_t pc, uintptr_t sp, uint64_t a0, uint64_t a1,
			      uint64_t a2);
void hal_irq_enable(void);
/* wfi with interrupts masked: returns when one is pending (and acknowledges an IPI). */
void hal_wait_for_interrupt_masked(void);
void hal_percpu_set(struct hal_percpu *p);
#ifndef PT_HAL_INLINE
struct hal_percpu *hal_percpu_get(void); /* inline with PT_HAL_INLINE (partita/hal.h) */
#endif

/* ---- address spaces (Sv39) ---- */
#define HAL_PAGE_SIZE 4096ul
#define HAL_KSTACK_VA 0xC0000000ul   /* kernel stacks (guard page below each), in every table */
#define HAL_KSTACK_VA_END 0x100000000ul
/* kernel data window (inside the kernel-stack window, so in every table): the linker's
 * .kdata section (arch/riscv64/kernel.ld), mapped at boot by the core (kernel/core/kdata.c) */
#define HAL_KDATA_VA 0xD0000000ul
#define HAL_KDATA_VA_END 0xE0000000ul
/* the trace rings in kernel-color pages, at the top of the kernel data window */
#define HAL_KTRACE_VA 0xDF000000ul
#define HAL_USER_VA 0x100000000ul    /* per-partition user region (stacks, heap) */
#define HAL_USER_VA_END 0x140000000ul

#define HAL_MAP_R 1u
#define HAL_MAP_W 2u
#define HAL_MAP_X 4u
#define HAL_MAP_U 8u

typedef uint64_t hal_as_t; /* an address space; 0 = the kernel's */

/* hart 0, once: build the kernel table. The page-table pages (PT_PGTABLE_PAGES, taken at
 * once here, used for every table made later) come from `table_page`, which returns a
 * physical page or 0: the core draws them from the kernel data colors; NULL = a static pool
 * in the image. Paging is off until hal_mmu_enable. -1 if `table_page` ran out. */
int hal_mmu_init(uintptr_t (*table_page)(void));
void hal_mmu_enable(void);          /* every hart: switch to the kernel table */
hal_as_t hal_as_create(uint16_t asid); /* a user address space; 0 if out of tables */
/* Give `as` its own copies of the application data pages (the user window's .data/.bss), so
 * one partition's globals are invisible to every other partition (PT_SHARED ones excepted). Each copy starts as the
 * page's current contents: call at boot, before any thread runs. `page` returns a zeroed or
 * dirty physical page (the core draws it from the partition's colors) or 0; -1 on failure. */
int hal_as_private_data(hal_as_t as, uintptr_t (*page)(void *ctx), void *ctx);
/* Map [va, va+bytes) to physical pa. Kernel-stack VAs go to the table shared by all. */
int hal_as_map(hal_as_t as, uintptr_t va, uintptr_t pa, size_t bytes, unsigned flags);
void hal_as_switch(hal_as_t as);
/* true if every byte of [va, va+n) is mapped user-accessible (and writable if `write`). */
bool hal_as_check(hal_as_t as, uintptr_t va, size_t n, bool write);
/* Free RAM after the kernel image: [lo, hi). */
void hal_ram_range(uintptr_t *lo, uintptr_t *hi);

/* ---- trap decoding: arch calls these core entry points ---- */
/* every interrupt, first, before it is decoded (a preemption point, <partita/subsys.h>) */
void pt_irq_entry(void);
void pt_irq_timer(void);
/* An external interrupt, full trap frame saved: claim and service one source. */
void pt_irq_external(void);
/* The same on the dedicated interrupt context (interrupt stack, partial frame): non-zero when
 * the trap must leave through the full path (a reschedule or other work of pt_trap_exit is
 * due); the arch then saves the full frame and calls pt_trap_exit without servicing again. */
int pt_irq_fast(void);
void pt_ipi_handler(void);
/* System call: nr and six arguments; returns the value for a0. */
int64_t pt_syscall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		   uint64_t a4, uint64_t a5);
/* Exception from user mode: the thread is stopped (does not return to it). */
void pt_user_fault(uint64_t cause, uint64_t addr, uint64_t pc);
/* Exception in kernel mode: print, power off. */
_Noreturn void pt_kernel_panic_trap(const struct hal_trap_frame *tf);
/* A kernel stack overflowed (detected by the trap entry): report, power off. */
_Noreturn void pt_kernel_stack_overflow(uint64_t pc, uint64_t addr, uint64_t sp);
/* The kernel's C entry on every hart, called by arch/ after its early set-up. */
void pt_kmain(uint32_t cpu);
/* Called before returning from any trap (preemption point). */
void pt_trap_exit(bool to_user);
/* Name of an exception cause ("store_page_fault", ...). */
const char *hal_cause_name(uint64_t cause);

#endif
