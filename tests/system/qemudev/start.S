/* Bare-metal entry of the device probe: hart 0 only (-smp 1), M-mode, no firmware. A trap (an
 * access fault when no device answers) ends the run as a failure (probe_trap). */
	.section .text.start
	.globl _start
_start:
	la sp, __stack_top
	la t0, trap
	csrw mtvec, t0
	call probe_main
1:	wfi
	j 1b

	.align 2
trap:
	la sp, __stack_top
	csrr a0, mcause
	csrr a1, mtval
	call probe_trap
2:	wfi
	j 2b
