/* Calibration: each instance runs a fixed instruction count and prints the virtual time. */
#include <stdint.h>
#include <partita/api.h>

#include "lib/ufmt.h"

/* arg = loop iterations (2 instructions each). */
void test_speed(void *arg)
{
	uint64_t n = (uint64_t)(uintptr_t)arg;
	uint64_t t0 = pt_time_cycles();
	__asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
	uint64_t dt = pt_time_cycles() - t0;
	char b[64];
	int k = 0;
	const char *p = "speed: tid ";
	while (*p)
		b[k++] = *p++;
	pt_ufmt_u64(b, &k, (uint64_t)pt_thread_self());
	b[k++] = ' ';
	pt_ufmt_u64(b, &k, dt);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}
