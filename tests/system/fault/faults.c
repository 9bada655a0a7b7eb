/*
 * Guest programs for system tests of fault containment. They run as user threads (U-mode, in
 * their partition's address space); each one misbehaves in one way after a short delay so
 * that the rest of the system is visibly running before and after the fault.
 */
#include <stdint.h>
#include <partita/api.h>

#define KERNEL_TEXT ((volatile uint64_t *)0x80001000ul)

static void say(const char *s)
{
	uint32_t n = 0;
	while (s[n])
		n++;
	pt_console_write(s, n);
}

/* Store into kernel memory: store page fault, the thread is stopped. */
void test_write_kernel(void *arg)
{
	pt_sleep_ns(arg ? (uint64_t)(uintptr_t)arg : 2000000);
	say("test_write_kernel: writing kernel memory\n");
	*KERNEL_TEXT = 0xdeadbeef;
	say("test_write_kernel: STILL ALIVE (containment failed)\n");
}

/* Read a machine-mode CSR from U-mode: illegal instruction. */
void test_illegal(void *arg)
{
	pt_sleep_ns(arg ? (uint64_t)(uintptr_t)arg : 2000000);
	say("test_illegal: executing a privileged instruction\n");
	uint64_t v;
	__asm__ volatile("csrr %0, mstatus" : "=r"(v));
	(void)v;
	say("test_illegal: STILL ALIVE (containment failed)\n");
}

static volatile uint32_t depth_limit = 0xffffffffu; /* opaque to the compiler */

static uint32_t recurse(volatile uint8_t *prev, uint32_t depth)
{
	volatile uint8_t frame[512];
	frame[0] = (uint8_t)depth;
	frame[511] = prev ? prev[0] : 0;
	if (depth >= depth_limit)
		return 0;
	return recurse(frame, depth + 1) + frame[511];
}

/* Unbounded recursion: runs into the unmapped guard page below the user stack. */
void test_stack_overflow(void *arg)
{
	pt_sleep_ns(arg ? (uint64_t)(uintptr_t)arg : 2000000);
	say("test_stack_overflow: recursing\n");
	recurse(0, 0);
	say("test_stack_overflow: STILL ALIVE (containment failed)\n");
}

/* Bad system-call arguments must come back as errors, never crash the kernel. */
void test_bad_syscalls(void *arg)
{
	(void)arg;
	int bad = 0;
	bad |= pt_console_write((const char *)0x80000000ul, 16) != PT_EINVAL;
	bad |= pt_console_write((const char *)0x0ul, 16) != PT_EINVAL;
	bad |= pt_thread_delete(12345) != PT_EINVAL;
	bad |= pt_thread_set_priority(0, 999) != PT_EINVAL;
	bad |= pt_thread_create((const struct pt_thread_attr *)0x80002000ul) != PT_EINVAL;
	struct pt_thread_attr a = { .name = "evil", .entry = (void (*)(void *))0x80000000ul };
	bad |= pt_thread_create(&a) != PT_EINVAL;
	say(bad ? "test_bad_syscalls: FAIL\n" : "test_bad_syscalls: OK\n");
}

/* A periodic user job that reports every 100th job. */
void test_user_tick(void *arg)
{
	static uint32_t jobs; /* in the user window's data (apps/ .bss) */
	(void)arg;
	if (++jobs % 100 == 0)
		say("test_user_tick: 100 jobs\n");
}

/* Kernel-thread stack overflow: the kernel must report it and stop (failure code 3). */
void test_kernel_overflow(void *arg)
{
	pt_sleep_ns(arg ? (uint64_t)(uintptr_t)arg : 1000000);
	say("test_kernel_overflow: recursing on a kernel stack\n");
	recurse(0, 0);
}
