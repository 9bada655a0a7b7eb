/*
 * A core bug found while building subsys/uk (sleephang.yaml, test_sys_uk.py): two harts
 * whose threads sleep (block with a timeout) for a few tens of microseconds, at pseudo-random
 * lengths, hang the machine: both harts end up in timeout_fn (timer interrupt) spinning on
 * pt_sync_lock, one of them holding the ticket now being served but never running again, and
 * hart 0's periodic thread stops completing jobs. With one such hart, or `idle: wfi`, it
 * does not happen. No UK is involved.
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
