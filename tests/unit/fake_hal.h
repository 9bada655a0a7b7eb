/* Host fake of <partita/hal.h> for unit tests: the test sets the cpu id and the clock. */
#ifndef PARTITA_TESTS_FAKE_HAL_H
#define PARTITA_TESTS_FAKE_HAL_H

#include <stdint.h>
#include <partita/hal.h>

void fake_hal_reset(void);
void fake_hal_set_cpu(uint32_t cpu);
void fake_hal_set_cycles(uint64_t cycles);
/* hal_cycles() returns the current value, then adds `step` (0 = a frozen clock). */
void fake_hal_set_cycle_step(uint64_t step);

/* Observations. */
int fake_hal_irq_depth(void);      /* saves minus restores; 0 when balanced */
uint64_t fake_hal_irq_saves(void);
uint64_t fake_hal_fences(void);
uint64_t fake_hal_timer_deadline(void);
uint64_t fake_hal_ipis(uint32_t cpu);

/* Service-hart HAL (<partita/hal_svc.h>): counters are atomic and the cpu id is per thread,
 * so lock tests may run several "harts" as threads. */
uint64_t fake_hal_svc_arms(void);        /* hal_svc_timer_arm calls */
uint64_t fake_hal_svc_deadline(void);    /* the last value armed (any thread) */
uint64_t fake_hal_svc_halts(void);
uint64_t fake_hal_svc_kicks(uint32_t hart);
/* The tick passed to the running hal_svc_call_ticked (call it to simulate an interrupt). */
void fake_hal_svc_tick(void);
/* Called from hal_svc_halt() when set (e.g. to advance the clock). */
void fake_hal_on_halt(void (*fn)(void *ctx), void *ctx);

/* Called from hal_fence() when set, so a test can observe memory at each barrier. */
void fake_hal_on_fence(void (*fn)(void *ctx), void *ctx);

#endif
