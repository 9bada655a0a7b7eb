/*
 * The platform's interrupt controller, an extension of the HAL (issue 15, "Interrupts"): device
 * interrupt sources, their levels and each hart's threshold. On QEMU virt it is the PLIC
 * (platform/qemu-virt/plic.c), whose S-mode context of a hart receives the sources enabled for
 * it; a source traps that hart only while its level is above the hart's threshold, and once
 * claimed it is not delivered again until completed. The kernel core (kernel/core/irq.c) is its
 * only caller; docs/interrupts.md has the priority mapping.
 */
#ifndef PARTITA_HAL_IRQ_H
#define PARTITA_HAL_IRQ_H

#include <stdint.h>
#include <stdbool.h>

/* Levels 1..HAL_IRQ_LEVELS (0 = never delivered); a threshold of HAL_IRQ_LEVELS masks all. */
#define HAL_IRQ_LEVELS 7u
/* Source numbers 1..HAL_IRQ_MAX_SOURCE; 0 is "none" (what a claim returns when nothing is
 * pending). The configuration may name devices instead of numbers: these symbolic sources are
 * resolved by hal_irq_resolve at boot (the platform knows where its devices are). */
#define HAL_IRQ_MAX_SOURCE 95u
#define HAL_IRQ_SRC_UART0 0x100u /* the console UART */
#define HAL_IRQ_SRC_NET0 0x101u  /* the network device of <partita/hal_net.h> */
#define HAL_IRQ_SRC_RTC0 0x102u  /* the real-time clock's alarm */

/* The source number of a configured source (a number, or HAL_IRQ_SRC_*); 0 = no such device. */
uint32_t hal_irq_resolve(uint32_t cfg_source);
/* Route `source` to `cpu` only, at `level` (0 disables it). Any hart, at boot. */
void hal_irq_route(uint32_t source, uint32_t cpu, uint32_t level);
/* The calling hart's threshold: sources at or below it are held by the controller. */
void hal_irq_set_threshold(uint32_t level);
/* Claim the highest pending source of the calling hart (0: none); it stays masked until
 * hal_irq_complete, on the same hart. */
uint32_t hal_irq_claim(void);
void hal_irq_complete(uint32_t source);

/* Console UART interrupts: HAL_UART_IRQ_RX (received data waits) and HAL_UART_IRQ_TX
 * (transmitter empty: raised for as long as it is on and nothing waits to be sent, the device's
 * "ready to send"). Turns the ones in `mask` on or off; any hart. */
#define HAL_UART_IRQ_RX 1u
#define HAL_UART_IRQ_TX 2u
void hal_uart_irq(uint32_t mask, bool on);
uint32_t hal_uart_irq_enabled(void); /* the HAL_UART_IRQ_* bits that are on */
/* hal_cycles() when the last hal_uart_irq took effect: the instant an interrupt its write
 * raised can be taken (the caller's interrupts are unmasked right after). */
uint64_t hal_uart_irq_cycles(void);
int hal_uart_getc(void); /* a received byte, or -1 when none waits */

/* The real-time clock's alarm: one interrupt `ns` from now (virtual time: partita run starts
 * QEMU with -rtc clock=vm), and its acknowledgement. A device-timed interrupt source, which the
 * interrupt tests use as a flood that no hart has to generate. */
void hal_rtc_alarm_in(uint64_t ns);
void hal_rtc_ack(void);

#endif
