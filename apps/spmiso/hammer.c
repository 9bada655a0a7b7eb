/*
 * Memory-hammering neighbour of the SPM isolation experiment (`partita experiment
 * spm-isolation`, tests/system/spm/test_spm_isolation.py, docs/spm.md "Isolation"): a job
 * sweeps a private 512 KiB buffer (twice the modeled 256 KiB LLC), reading and writing one
 * word per 64-byte line, so under the cache model every access misses the LLC and occupies
 * the bus. arg = (sweeps << 8) | buffer slot (0..3, one per contending hart).
 */
#include <stdint.h>

#define HAMMER_BYTES (512u * 1024u)
#define HAMMER_SLOTS 4u

static volatile uint64_t bufs[HAMMER_SLOTS][HAMMER_BYTES / 8] __attribute__((aligned(64)));

void spmiso_hammer(void *arg)
{
	uint64_t a = (uint64_t)(uintptr_t)arg;
	volatile uint64_t *b = bufs[(a & 0xff) % HAMMER_SLOTS];
	uint64_t sweeps = a >> 8 ? a >> 8 : 1;
	for (uint64_t s = 0; s < sweeps; s++)
		for (uint32_t i = 0; i < HAMMER_BYTES / 8; i += 8)
			b[i] += s;
}
