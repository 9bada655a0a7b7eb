/*
 * The narrow hardware abstraction the portable kernel core talks to.
 * arch/riscv64 + platform/qemu-virt implement it for the target; tests/unit implements a
 * fake for host unit tests. kernel/ includes only this header, never arch/ or platform/.
 */
#ifndef PARTITA_HAL_H
#define PARTITA_HAL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/* PT_HAL_INLINE: the architecture provides the hot accessors marked (inline) as static inline
 * functions in <partita/hal_inline.h>, found on its include path (arch/riscv64/include). */
#ifdef PT_HAL_INLINE
#include <partita/hal_inline.h>
#else
/* Identity of the calling hart, 0..ncpus-1. (inline) */
uint32_t hal_cpu_id(void);

/* Monotonic cycle counter with one time base on every hart (virtual ns x 2^-shift under
 * icount). All kernel times are in these cycles; hal_cycles_per_sec() converts. (inline) */
uint64_t hal_cycles(void);

/* Local interrupt masking. Nests: restore what save returned. (inline) */
unsigned long hal_irq_save(void);
void hal_irq_restore(unsigned long flags);

/* Full memory barrier between harts. (inline) */
void hal_fence(void);
#endif

uint64_t hal_cycles_per_sec(void);

/* One-shot timer of the calling hart: interrupt at or after `deadline_cycles` (absolute).
 * Re-arming replaces the previous deadline; UINT64_MAX disarms. */
void hal_timer_arm(uint64_t deadline_cycles);

/* Inter-processor interrupt to `cpu`; the target calls pt_ipi_handler(). */
void hal_ipi_send(uint32_t cpu);

/* Busy-wait with interrupts masked until hal_cycles() reaches `deadline_cycles`, returning a
 * constant number of cycles after it whatever the time of the call (the platform's exact
 * alignment: under icount a jump into a sled of nops absorbs the coarse loop's phase). A
 * time-triggered policy starts slots with it so that an interrupt's varying latency never
 * shifts them (kernel/sched/tdm). Returns at once if the deadline has passed. */
void hal_spin_until(uint64_t deadline_cycles);

/* Wait for an interrupt with interrupts enabled (idle loop). */
void hal_wait_for_interrupt(void);

/* A spin-lock waiter's pause between looks at the lock. Where the harts run in turns (QEMU
 * icount runs them round-robin from one host thread), it ends the caller's turn: a waiter
 * spinning with interrupts masked would otherwise keep it, and the holder would never run to
 * release the lock (docs/kernel.md, "Spin locks under icount"). */
void hal_spin_pause(void);

/* Console output (UART). */
void hal_console_write(const char *s, size_t n);

/* Power the machine off; `code` 0 = success. Does not return. */
_Noreturn void hal_poweroff(int code);

#endif
