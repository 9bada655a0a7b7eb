/*
 * NS16550A console at 0x10000000. QEMU's model transmits immediately, but we still honour
 * LSR.THRE so the driver is correct on a real 16550. Callers serialise (hal_console_write).
 */
#include <stdint.h>
#include <stddef.h>
#include "virt.h"

#define UART_THR 0
#define UART_LSR 5
#define UART_LSR_THRE 0x20

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

void plat_poweroff(int code)
{
	volatile uint32_t *test = (volatile uint32_t *)VIRT_TEST_BASE;
	*test = code == 0 ? VIRT_TEST_PASS : (VIRT_TEST_FAIL | ((uint32_t)code << 16));
	for (;;)
		__asm__ volatile("wfi");
}
