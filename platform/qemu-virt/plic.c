/*
 * PLIC driver: the HAL's interrupt-controller interface (<partita/hal_irq.h>) on QEMU virt.
 * Every source is routed to the S-mode context of one hart; M-mode contexts keep every source
 * disabled (mideleg hands S external interrupts to S-mode, arch/riscv64/mstart.c).
 */
#include <stdint.h>
#include <stdbool.h>
#include <partita/hal_irq.h>
#include <partita/hal.h>
#include <partita/config.h>
#include "virt.h"

int plat_virtio_net_slot(void); /* virtio/virtio_net.c: -1 if no network device */

_Static_assert(HAL_IRQ_LEVELS == VIRT_PLIC_LEVELS, "HAL_IRQ_LEVELS is the PLIC's level count");
_Static_assert(HAL_IRQ_MAX_SOURCE < VIRT_PLIC_SOURCES, "source numbers fit the PLIC");

static inline volatile uint32_t *reg(uint64_t addr)
{
	return (volatile uint32_t *)addr;
}

uint32_t hal_irq_resolve(uint32_t cfg_source)
{
	if (cfg_source == HAL_IRQ_SRC_UART0)
		return VIRT_UART0_IRQ;
	if (cfg_source == HAL_IRQ_SRC_RTC0)
		return VIRT_RTC_IRQ;
	if (cfg_source == HAL_IRQ_SRC_NET0) {
		int slot = plat_virtio_net_slot();
		return slot < 0 ? 0 : VIRT_VIRTIO_IRQ + (uint32_t)slot;
	}
	return cfg_source >= 1 && cfg_source <= HAL_IRQ_MAX_SOURCE ? cfg_source : 0;
}

void hal_irq_route(uint32_t source, uint32_t cpu, uint32_t level)
{
	if (source == 0 || source > HAL_IRQ_MAX_SOURCE)
		return;
	*reg(VIRT_PLIC_PRIORITY(source)) = level > HAL_IRQ_LEVELS ? HAL_IRQ_LEVELS : level;
	uint32_t word = source / 32, bit = 1u << (source % 32);
	for (uint32_t h = 0; h < pt_config.ncpus; h++) {
		volatile uint32_t *en = reg(VIRT_PLIC_ENABLE(VIRT_PLIC_S_CONTEXT(h)) + 4ul * word);
		if (h == cpu && level)
			*en |= bit;
		else
			*en &= ~bit;
	}
}

void hal_irq_set_threshold(uint32_t level)
{
	*reg(VIRT_PLIC_THRESHOLD(VIRT_PLIC_S_CONTEXT(hal_cpu_id()))) = level;
}

uint32_t hal_irq_claim(void)
{
	return *reg(VIRT_PLIC_CLAIM(VIRT_PLIC_S_CONTEXT(hal_cpu_id())));
}

void hal_irq_complete(uint32_t source)
{
	*reg(VIRT_PLIC_CLAIM(VIRT_PLIC_S_CONTEXT(hal_cpu_id()))) = source;
}
