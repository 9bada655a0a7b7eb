/*
 * Quick kernel cost probe (not the benchmark suite): two threads of equal priority on one
 * cpu hand the cpu back and forth with pt_thread_yield(); the driver prints the average
 * cycles per yield (a switch to the other thread included), for kernel or user threads.
 */
#include <stdint.h>
#include <partita/api.h>

#include "lib/ufmt.h"

void test_yield_partner(void *arg)
{
	(void)arg;
	for (;;)
		pt_thread_yield();
}

void test_yield_driver(void *arg)
{
	(void)arg;
	const uint64_t n = 1000;
	for (int i = 0; i < 10; i++) /* warm the translation cache */
		pt_thread_yield();
	uint64_t t0 = pt_time_cycles();
	for (uint64_t i = 0; i < n; i++)
		pt_thread_yield();
	uint64_t dt = pt_time_cycles() - t0;
	char b[80];
	int k = 0;
	const char *p = "yield: cycles per yield+switch = ";
	while (*p)
		b[k++] = *p++;
	pt_ufmt_u64(b, &k, dt / (2 * n));
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}
