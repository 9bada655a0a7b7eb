/*
 * Deadline inheritance under EDF (test_sys_pi_edf.py, pi_edf.yaml), one
 * EDF hart, released together at offsets:
 *   pi_low   (D 20 ms)  locks the mutex and holds it for 2 ms of execution
 *   pi_high  (D 3 ms, offset 0.5 ms) locks the same mutex: blocks on pi_low
 *   pi_mid   (D 10 ms, offset 0.7 ms) needs 3 ms and no mutex
 * Without inheritance pi_mid (deadline 10.7 ms) preempts pi_low (20 ms) while pi_high waits,
 * and pi_high misses its 3.5 ms deadline; with it pi_low runs at pi_high's deadline and
 * pi_mid waits until pi_high is done.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/sync.h>

static volatile int pi_mutex = -1;

/* Execute about `iters` loop iterations (instructions, so execution time under icount). */
static void run_ns(uint64_t iters)
{
	for (volatile uint64_t i = 0; i < iters; i++)
		;
}

void pi_edf_low(void *arg)
{
	if (pi_mutex < 0)
		pi_mutex = pt_mutex_create();
	pt_mutex_lock(pi_mutex, PT_WAIT_FOREVER);
	run_ns((uint64_t)(uintptr_t)arg);
	pt_mutex_unlock(pi_mutex);
}

void pi_edf_high(void *arg)
{
	pt_mutex_lock(pi_mutex, PT_WAIT_FOREVER);
	run_ns((uint64_t)(uintptr_t)arg);
	pt_mutex_unlock(pi_mutex);
}

void pi_edf_mid(void *arg)
{
	run_ns((uint64_t)(uintptr_t)arg);
}
