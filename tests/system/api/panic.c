/*
 * A kernel thread that calls pt_panic after a short delay (system test of the report after a
 * panic: the trace area must carry a non-zero exit code, never "exit code: 0").
 * Kernel threads only: pt_panic is a kernel function, unreachable from user mode.
 */
#include <stdint.h>
#include <partita/api.h>

_Noreturn void pt_panic(const char *fmt, ...);

void test_panic(void *arg)
{
	pt_sleep_ns(arg ? (uint64_t)(uintptr_t)arg : 1000000);
	pt_panic("test_panic: deliberate panic from a kernel thread");
}
