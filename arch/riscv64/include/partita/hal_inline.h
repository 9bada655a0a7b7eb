/*
 * riscv64: the HAL's hot accessors as static inline functions. partita/hal.h and
 * partita/hal_cpu.h include this header instead of declaring them when the build defines
 * PT_HAL_INLINE (mk/kernel.mk does, with arch/riscv64/include on the include path), so the
 * portable core still reaches the hardware only through partita/hal*.h. Host unit tests and
 * the freestanding checks of mk/unit.mk keep the out-of-line declarations (and a fake HAL).
 * Each accessor was a call of 4-15 instructions; a dispatch makes a dozen of them (most in
 * the trace writer), docs/benchmarks.md.
 */
#ifndef PARTITA_HAL_INLINE_H
#define PARTITA_HAL_INLINE_H

#include <stdint.h>
#include <partita/config.h>
#include <partita/hal_cpu.h>

/* S-mode: the thread pointer holds the hart's per-cpu block (hal_percpu_set). */
static inline struct hal_percpu *hal_percpu_get(void)
{
	struct hal_percpu *p;
	__asm__ volatile("mv %0, tp" : "=r"(p));
	return p;
}

static inline uint32_t hal_cpu_id(void)
{
	return hal_percpu_get()->cpu;
}

/* `cycle` is the virtual clock in ns under icount; >> shift gives instructions (hal.c). */
static inline uint64_t hal_cycles(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c >> pt_config.icount_shift;
}

static inline unsigned long hal_irq_save(void)
{
	unsigned long v;
	__asm__ volatile("csrrc %0, sstatus, %1" : "=r"(v) : "r"(2ul) : "memory");
	return v & 2ul; /* sstatus.SIE */
}

static inline void hal_irq_restore(unsigned long flags)
{
	if (flags & 2ul)
		__asm__ volatile("csrs sstatus, %0" ::"r"(2ul) : "memory");
}

static inline void hal_fence(void)
{
	__asm__ volatile("fence rw, rw" ::: "memory");
}

#endif
