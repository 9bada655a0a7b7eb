/*
 * A core hang found while building subsys/uk (sleephang.yaml, test_sys_uk.py): two harts
 * whose threads sleep (block with a timeout) for a few tens of microseconds, at pseudo-random
 * lengths, hung the machine: both harts ended in timeout_fn (timer interrupt) spinning on
 * pt_sync_lock, the one holding the ticket being served never running again, and hart 0's
 * periodic thread stopped completing jobs. No UK is involved. It no longer reproduces since
 * main's 84fedfc; kept as a regression test.
 */
#include <stdint.h>
#include <partita/api.h>

void sl_loop(void *arg)
{
	uint64_t x = (uint64_t)arg;
	for (;;) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		pt_sleep_ns(30000 + ((x >> 33) % 40000));
		for (volatile int i = (int)((x >> 20) % 300); i > 0; i--)
			;
	}
}
