/*
 * Partition isolation of application globals (isolation.yaml): the same
 * global seen from two user partitions and a kernel partition. Each user partition has its
 * own copy of .data/.bss; PT_SHARED variables are common to all.
 */
#include <stdint.h>
#include <partita/api.h>

#include "lib/ufmt.h"

static volatile uint64_t iso_counter = 7; /* .data: one copy per user partition */
static volatile uint32_t iso_phase PT_SHARED; /* 0 start, 1 written by A, 2 read by B */

static void report(const char *who, uint64_t v)
{
	char b[64];
	int n = 0;
	pt_ufmt_str(b, &n, "iso: ");
	pt_ufmt_str(b, &n, who);
	pt_ufmt_str(b, &n, " counter=");
	pt_ufmt_u64(b, &n, v);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

/* Partition A: writes its copy, lets B look, then reads its copy back. */
void iso_writer(void *arg)
{
	(void)arg;
	iso_counter = 1000;
	__atomic_store_n(&iso_phase, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&iso_phase, __ATOMIC_ACQUIRE) != 2)
		pt_sleep_ns(20000);
	report("writer", iso_counter);
}

/* Partition B: after A wrote, reads its own copy (still the initial value). */
void iso_reader(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&iso_phase, __ATOMIC_ACQUIRE) != 1)
		pt_sleep_ns(20000);
	report("reader", iso_counter);
	iso_counter = 2000;
	__atomic_store_n(&iso_phase, 2, __ATOMIC_RELEASE);
}

/* Kernel partition: the image's own copy, untouched by both user partitions. */
void iso_kernel(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&iso_phase, __ATOMIC_ACQUIRE) != 2)
		pt_sleep_ns(20000);
	pt_sleep_ns(200000);
	report("kernel", iso_counter);
}
