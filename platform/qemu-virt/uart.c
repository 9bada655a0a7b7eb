/*
 * NS16550A console at 0x10000000. QEMU's model transmits immediately, but we still honour
 * LSR.THRE so the driver is correct on a real 16550. Callers serialise (hal_console_write).
 * Its interrupts (receive data, transmitter empty) reach the PLIC as source VIRT_UART0_IRQ;
 * the kernel routes them to a handler thread (kernel/core/irq.c, docs/interrupts.md).
 */
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <partita/hal.h>
#include <partita/hal_irq.h>
#include "virt.h"

#define UART_RBR 0
#define UART_THR 0
#define UART_IER 1
#define UART_LSR 5
#define UART_LSR_DR 0x01
#define UART_LSR_THRE 0x20
#define UART_IER_ERBFI 0x01 /* received data available */
#define UART_IER_ETBEI 0x02 /* transmitter holding register empty */

static inline volatile uint8_t *uart_reg(unsigned r)
{
	return (volatile uint8_t *)(VIRT_UART0_BASE + r);
}

void plat_uart_putc(char c)
{
	while (!(*uart_reg(UART_LSR) & UART_LSR_THRE))
		;
	*uart_reg(UART_THR) = (uint8_t)c;
}

/* IER is read-modify-written by any hart: a ticket lock, interrupts masked, keeps the shadow
 * and the register in step. */
static uint32_t ier_next, ier_owner;
static uint8_t ier_shadow;
static uint64_t ier_cycles;

void hal_uart_irq(uint32_t mask, bool on)
{
	uint8_t bits = (uint8_t)((mask & HAL_UART_IRQ_RX ? UART_IER_ERBFI : 0) |
				 (mask & HAL_UART_IRQ_TX ? UART_IER_ETBEI : 0));
	unsigned long f = hal_irq_save();
	uint32_t me = __atomic_fetch_add(&ier_next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&ier_owner, __ATOMIC_ACQUIRE) != me)
		;
	ier_shadow = on ? (uint8_t)(ier_shadow | bits) : (uint8_t)(ier_shadow & ~bits);
	*uart_reg(UART_IER) = ier_shadow;
	__atomic_store_n(&ier_owner, me + 1, __ATOMIC_RELEASE);
	ier_cycles = hal_cycles(); /* an interrupt raised by the write is taken from here on */
	hal_irq_restore(f);
}

uint64_t hal_uart_irq_cycles(void)
{
	return ier_cycles;
}

uint32_t hal_uart_irq_enabled(void)
{
	uint8_t s = __atomic_load_n(&ier_shadow, __ATOMIC_RELAXED);
	return (s & UART_IER_ERBFI ? HAL_UART_IRQ_RX : 0) | (s & UART_IER_ETBEI ? HAL_UART_IRQ_TX : 0);
}

int hal_uart_getc(void)
{
	if (!(*uart_reg(UART_LSR) & UART_LSR_DR))
		return -1;
	return *uart_reg(UART_RBR);
}

void plat_poweroff(int code)
{
	volatile uint32_t *test = (volatile uint32_t *)VIRT_TEST_BASE;
	*test = code == 0 ? VIRT_TEST_PASS : (VIRT_TEST_FAIL | ((uint32_t)code << 16));
	for (;;)
		__asm__ volatile("wfi");
}
