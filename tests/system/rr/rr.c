/*
 * Round-robin among equal FP priorities (test_sys_rr.py, rr.yaml): two
 * threads of one priority spin forever and share their hart in quanta; a periodic thread of
 * a higher priority preempts whichever runs, which then finishes its quantum.
 */
#include <stdint.h>
#include <partita/api.h>

void rr_spin(void *arg)
{
	(void)arg;
	for (;;)
		for (volatile uint32_t i = 0; i < 1000; i++)
			;
}

/* A short job of about `arg` loop iterations each period. */
void rr_tick(void *arg)
{
	for (;;) {
		for (volatile uintptr_t i = 0; i < (uintptr_t)arg; i++)
			;
		pt_wait_next_period();
	}
}
