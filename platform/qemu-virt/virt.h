/*
 * QEMU riscv64 `virt` machine memory map (hw/riscv/virt.c, QEMU 7.2). The one header that
 * holds device addresses: arch/riscv64 (C and assembly) and platform/qemu-virt include it;
 * nothing else writes the CLINT (kernel/ and subsys/ go through partita/hal*.h).
 */
#ifndef PLATFORM_QEMU_VIRT_H
#define PLATFORM_QEMU_VIRT_H

#ifdef __ASSEMBLER__
#define VIRT_UL(x) x
#else
#define VIRT_UL(x) x##ul
#endif

#define VIRT_TEST_BASE   VIRT_UL(0x00100000) /* sifive_test: 0x5555 pass, 0x3333|code<<16 fail */
#define VIRT_CLINT_BASE  VIRT_UL(0x02000000)
#define VIRT_PLIC_BASE   VIRT_UL(0x0c000000)
#define VIRT_RTC_BASE    VIRT_UL(0x00101000) /* goldfish RTC */
#define VIRT_UART0_BASE  VIRT_UL(0x10000000) /* NS16550A */
#define VIRT_RAM_BASE    VIRT_UL(0x80000000)
#define VIRT_TIMEBASE_HZ VIRT_UL(10000000)   /* mtime / rdtime frequency */

/* CLINT (SiFive layout): a 32-bit msip word per hart (writing 1 raises its machine software
 * interrupt) and a 64-bit mtimecmp per hart, in VIRT_TIMEBASE_HZ ticks. */
#define VIRT_CLINT_MSIP      VIRT_CLINT_BASE                  /* + 4 * hart */
#define VIRT_CLINT_MTIMECMP  (VIRT_CLINT_BASE + VIRT_UL(0x4000)) /* + 8 * hart */
#ifndef __ASSEMBLER__
#define VIRT_CLINT_MSIP_REG(hart) ((volatile uint32_t *)(VIRT_CLINT_MSIP + 4ul * (hart)))
#define VIRT_CLINT_MTIMECMP_REG(hart) \
	((volatile uint64_t *)(VIRT_CLINT_MTIMECMP + 8ul * (hart)))
#endif
/* The CLINT's "never": 2^55 ticks (over 100 years), not ~0: QEMU 7.2 converts
 * (cmp - time) to ns with a 64-bit multiply, and ~0 would wrap into a deadline in the past. */
#define VIRT_CLINT_NEVER_SHIFT 55

/* PLIC (SiFive layout, hw/intc/sifive_plic.c): a 32-bit priority word per source (0..7), one
 * enable bit per source and context, and a threshold and claim/complete word per context.
 * QEMU virt gives every hart two contexts, M-mode (2 * hart) and S-mode (2 * hart + 1). */
#define VIRT_PLIC_PRIORITY(src)  (VIRT_PLIC_BASE + 4ul * (src))
#define VIRT_PLIC_ENABLE(ctx)    (VIRT_PLIC_BASE + VIRT_UL(0x2000) + 0x80ul * (ctx))
#define VIRT_PLIC_THRESHOLD(ctx) (VIRT_PLIC_BASE + VIRT_UL(0x200000) + 0x1000ul * (ctx))
#define VIRT_PLIC_CLAIM(ctx)     (VIRT_PLIC_THRESHOLD(ctx) + 4ul)
#define VIRT_PLIC_S_CONTEXT(hart) (2ul * (hart) + 1ul)
#define VIRT_PLIC_LEVELS 7u      /* VIRT_IRQCHIP_NUM_PRIO_BITS = 3 */
#define VIRT_PLIC_SOURCES 96u    /* VIRT_IRQCHIP_NUM_SOURCES: 0 (none) .. 95 */
#define VIRT_UART0_IRQ 10u
#define VIRT_RTC_IRQ 11u
#define VIRT_VIRTIO_IRQ 1u       /* virtio-mmio slot i raises source VIRT_VIRTIO_IRQ + i */

#define VIRT_TEST_PASS 0x5555u
#define VIRT_TEST_FAIL 0x3333u

#endif
