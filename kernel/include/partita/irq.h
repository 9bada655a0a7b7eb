/*
 * Interrupt handler threads (docs/interrupts.md). A thread configured with `irq: <source>` is
 * the handler of that device interrupt: it loops on pt_irq_wait() and serves the device when it
 * returns. It runs at its configured priority in the same space as every other thread, so a
 * handler below the running thread is not even trapped for (`irq_threshold: follow`).
 */
#ifndef PARTITA_IRQ_H
#define PARTITA_IRQ_H

#include <stdint.h>
#include <stdbool.h>

/* Complete the source the caller last served and wait for its next interrupt. Returns the
 * PLIC source number; PT_EINVAL if the caller is no handler thread. */
int pt_irq_wait(void);

/* Cycle (hal_cycles) at which the kernel's ISR for the interrupt that last woke the caller
 * began: what the interrupt-overhead benchmark measures up to. Kernel threads only. */
uint64_t pt_irq_isr_cycles(void);

/* External-interrupt traps taken on `cpu` so far (claims, whether or not a source was
 * pending). Kernel threads only. */
uint64_t pt_irq_traps(uint32_t cpu);

/* The console UART, interrupt-driven (kernel threads only): the next received byte, or -1;
 * and its interrupts on or off (PT_CONSOLE_IRQ_RX: data received, PT_CONSOLE_IRQ_TX: the
 * transmitter is empty, raised for as long as it is on: a device interrupt a program can raise
 * at an exact instant, which the interrupt tests and benchmarks use). */
#define PT_CONSOLE_IRQ_RX 1u
#define PT_CONSOLE_IRQ_TX 2u
int pt_console_getc(void);
void pt_console_irq(uint32_t mask, bool on);
/* pt_time_cycles() at which the last pt_console_irq took effect: from then on an interrupt it
 * raised can be taken (the benchmark's "interrupt" instant). */
uint64_t pt_console_irq_cycles(void);

/* The real-time clock's alarm (kernel threads only): one interrupt `ns` of virtual time from
 * now, and its acknowledgement (the handler of `irq: rtc0` calls it before re-arming). */
void pt_rtc_alarm_in_ns(uint64_t ns);
void pt_rtc_ack(void);

#endif
