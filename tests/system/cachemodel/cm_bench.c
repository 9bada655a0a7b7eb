/*
 * Microbenchmark of the cache model (tests/system/cachemodel/test_sys_cachemodel.py): a periodic
 * job sweeps a buffer of one color, reading one word per 64-byte line. The argument packs
 * (slot << 40) | (color << 32) | (KiB << 16) | sweeps per job; the buffer, taken from the
 * partition's heap of that color on the first job, is kept in slot `slot` for later jobs.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/heap.h>
#include <partita/printf.h>

#define SLOTS 8

static volatile uint8_t *bufs[SLOTS];
volatile uint64_t cm_bench_sink;

void cm_sweep(void *arg)
{
	uint64_t a = (uint64_t)(uintptr_t)arg;
	unsigned slot = (unsigned)(a >> 40) % SLOTS, color = (unsigned)(a >> 32) & 0xff;
	uint32_t bytes = (uint32_t)((a >> 16) & 0xffff) * 1024u, sweeps = (uint32_t)(a & 0xffff);
	if (!bufs[slot]) {
		bufs[slot] = pt_malloc_color(bytes, color);
		if (!bufs[slot]) {
			pt_printf("cm_bench: FAIL malloc color %u bytes %u error %d\n", color, bytes,
				  pt_heap_last_error());
			return;
		}
	}
	uint64_t sum = 0;
	for (uint32_t s = 0; s < sweeps; s++)
		for (uint32_t i = 0; i < bytes; i += 64)
			sum += bufs[slot][i];
	cm_bench_sink += sum;
}
