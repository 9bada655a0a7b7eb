/*
 * The subsystem registry (kernel/core/subsys.c) on the host: a table of subsystems is booted
 * in order, its hooks are called, subsystem system calls reach their owner, and overlapping
 * trace-event or system-call ranges stop the boot naming both subsystems.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/kernel.h"
#include <partita/subsys.h>
#include <partita/syscall.h>

static struct pt_subsys table[3];
const struct pt_subsys *const pt_subsys_begin = table;
const struct pt_subsys *const pt_subsys_end = table + 3;

static char log_buf[256];
static jmp_buf panic_jmp;
static char panic_msg[256];

_Noreturn void pt_panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	longjmp(panic_jmp, 1);
}

static void note(const char *s)
{
	strncat(log_buf, s, sizeof(log_buf) - strlen(log_buf) - 1);
}

static void boot_a(void) { note("bootA "); }
static void boot_c(void) { note("bootC "); }
static void entry_a(uint32_t cpu) { note(cpu == 1 ? "entryA1 " : "entryA "); }
static void rel_c(uint32_t tid, uint64_t job) { (void)tid; note(job == 7 ? "relC7 " : "relC "); }
static int64_t sys_c(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	(void)a1, (void)a2, (void)a3;
	return (int64_t)nr * 1000 + (int64_t)a0;
}

static void disp_b(uint32_t cpu, uint32_t prev, uint32_t next)
{
	char b[32];
	snprintf(b, sizeof(b), "dispB%u:%u>%u ", cpu, prev, next);
	note(b);
}

static void point_c(uint32_t cpu)
{
	char b[16];
	snprintf(b, sizeof(b), "pointC%u ", cpu);
	note(b);
}

static void reset(void)
{
	memset(table, 0, sizeof(table));
	log_buf[0] = panic_msg[0] = 0;
	pt_subsys_hooks = 0;
	table[0] = (struct pt_subsys){ .name = "a", .boot = boot_a, .cpu_entry = entry_a,
				       .trace_first = 32, .trace_count = 8 };
	table[1] = (struct pt_subsys){ .name = "b", .trace_first = 40, .trace_count = 8,
				       .on_dispatch = disp_b };
	table[2] = (struct pt_subsys){ .name = "c", .boot = boot_c, .on_release = rel_c,
				       .trace_first = 48, .trace_count = 16,
				       .syscall_first = PT_SYS_SUBSYS_FIRST + 2, .nsyscalls = 2,
				       .syscall = sys_c };
}

static int boot_panics(void)
{
	if (setjmp(panic_jmp))
		return 1;
	pt_subsys_boot_all();
	return 0;
}

static void test_boot_entry_hooks_and_syscalls(void **state)
{
	(void)state;
	reset();
	assert_false(boot_panics());
	assert_string_equal(log_buf, "bootA bootC ");
	pt_subsys_cpu_entry_all(1);
	assert_string_equal(log_buf, "bootA bootC entryA1 ");
	assert_int_equal(pt_subsys_hooks, PT_SUBSYS_HOOK_RELEASE | PT_SUBSYS_HOOK_DISPATCH);
	pt_subsys_on_release(5, 7);
	assert_string_equal(log_buf, "bootA bootC entryA1 relC7 ");
	pt_subsys_dispatch_slow(2, 5, 0);
	assert_string_equal(log_buf, "bootA bootC entryA1 relC7 dispB2:5>0 ");
	pt_subsys_on_complete(5, 7, 100); /* nobody registered it: nothing happens */
	pt_subsys_on_preempt_point(3);    /* nor this one */
	assert_string_equal(log_buf, "bootA bootC entryA1 relC7 dispB2:5>0 ");
	assert_int_equal(pt_subsys_syscall(PT_SYS_SUBSYS_FIRST + 3, 9, 0, 0, 0),
			 (PT_SYS_SUBSYS_FIRST + 3) * 1000 + 9);
	assert_int_equal(pt_subsys_syscall(PT_SYS_SUBSYS_FIRST + 4, 9, 0, 0, 0), PT_EINVAL);
	assert_int_equal(pt_subsys_syscall(PT_SYS_SUBSYS_FIRST, 9, 0, 0, 0), PT_EINVAL);
}

static void test_preempt_point_hook(void **state)
{
	(void)state;
	reset();
	table[2].on_preempt_point = point_c;
	assert_false(boot_panics());
	assert_true(pt_subsys_hooks & PT_SUBSYS_HOOK_PREEMPT_POINT);
	pt_subsys_on_preempt_point(3);
	assert_string_equal(log_buf, "bootA bootC pointC3 ");
}

static void test_overlapping_trace_ranges_stop_the_boot(void **state)
{
	(void)state;
	reset();
	table[1].trace_first = 36; /* inside a's 32..39 */
	assert_true(boot_panics());
	assert_non_null(strstr(panic_msg, "a and b"));
	assert_non_null(strstr(panic_msg, "trace"));
	assert_string_equal(log_buf, ""); /* checked before anything boots */
}

static void test_trace_range_outside_the_subsystem_events(void **state)
{
	(void)state;
	reset();
	table[2].trace_first = PT_EV_SUBSYS_LAST - 15;
	table[2].trace_count = 17; /* one past PT_EV_SUBSYS_LAST */
	assert_true(boot_panics());
	assert_non_null(strstr(panic_msg, "subsystem c"));
}

static void test_overlapping_syscalls_stop_the_boot(void **state)
{
	(void)state;
	reset();
	table[0].syscall_first = PT_SYS_SUBSYS_FIRST + 3;
	table[0].nsyscalls = 1;
	table[0].syscall = sys_c;
	assert_true(boot_panics());
	assert_non_null(strstr(panic_msg, "a and c"));
	assert_non_null(strstr(panic_msg, "system call"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_entry_hooks_and_syscalls),
		cmocka_unit_test(test_preempt_point_hook),
		cmocka_unit_test(test_overlapping_trace_ranges_stop_the_boot),
		cmocka_unit_test(test_trace_range_outside_the_subsystem_events),
		cmocka_unit_test(test_overlapping_syscalls_stop_the_boot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
