/* QEMU riscv64 `virt` machine memory map (hw/riscv/virt.c, QEMU 7.2). */
#ifndef PLATFORM_QEMU_VIRT_H
#define PLATFORM_QEMU_VIRT_H

#define VIRT_TEST_BASE   0x00100000ul /* sifive_test: 0x5555 pass, 0x3333|code<<16 fail */
#define VIRT_CLINT_BASE  0x02000000ul /* msip[hart] at +4*hart, mtimecmp at +0x4000 */
#define VIRT_PLIC_BASE   0x0c000000ul
#define VIRT_UART0_BASE  0x10000000ul /* NS16550A */
#define VIRT_RAM_BASE    0x80000000ul
#define VIRT_TIMEBASE_HZ 10000000ul   /* mtime / rdtime frequency */

#define VIRT_TEST_PASS 0x5555u
#define VIRT_TEST_FAIL 0x3333u

#endif
