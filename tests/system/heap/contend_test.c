/*
 * Four harts grow the same colored heap at the same instant (contend.yaml,
 * test_sys_heap_contend.py). Each thread allocates ROUNDS blocks of BLOCK_BYTES of color 1,
 * writes a pattern into each and checks all of them afterwards; it prints
 * "contend: ok T" or "contend: FAIL T ...". Under QEMU's icount the harts run in turns:
 * before the kernel's spin locks yielded the turn, the waiters spinning with interrupts
 * masked kept the holder from ever running again and no hart finished (docs/kernel.md).
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/heap.h>

#include "lib/ufmt.h"

#define ROUNDS 8u
#define BLOCK_BYTES (64u * 1024u)

static void say(const char *what, uint64_t t, int64_t v)
{
	char buf[96];
	int n = 0;
	pt_ufmt_str(buf, &n, "contend: ");
	pt_ufmt_str(buf, &n, what);
	pt_ufmt_str(buf, &n, " ");
	pt_ufmt_i64(buf, &n, (int64_t)t);
	pt_ufmt_str(buf, &n, " ");
	pt_ufmt_i64(buf, &n, v);
	buf[n++] = '\n';
	pt_console_write(buf, (size_t)n);
}

void heap_contend(void *arg)
{
	uint64_t t = (uint64_t)(uintptr_t)arg;
	uint64_t *blk[ROUNDS];
	for (uint32_t r = 0; r < ROUNDS; r++) {
		blk[r] = pt_malloc_color(BLOCK_BYTES, 1);
		if (!blk[r]) {
			say("FAIL malloc", t, pt_heap_last_error());
			return;
		}
		for (uint32_t i = 0; i < BLOCK_BYTES / 8u; i++)
			blk[r][i] = (t << 56) | ((uint64_t)r << 32) | i;
	}
	for (uint32_t r = 0; r < ROUNDS; r++)
		for (uint32_t i = 0; i < BLOCK_BYTES / 8u; i++)
			if (blk[r][i] != ((t << 56) | ((uint64_t)r << 32) | i)) {
				say("FAIL pattern", t, (int64_t)r);
				return;
			}
	say("ok", t, (int64_t)pt_time_cycles());
}
