/*
 * Service-hart time: wait-until, kick, yield and the ticked call (<partita/svc.h>).
 *
 * Why these shapes (measured, docs/spm.md "The QEMU icount limitation"): QEMU 7.2 under icount
 * runs the harts one at a time on one host thread. A hart's turn lasts until the earliest
 * pending virtual-timer deadline, until it halts in `wfi`, or until it writes a comparator
 * that becomes the earliest deadline. So a service hart sleeps in `wfi` until its next event
 * (no polling), a lock waiter ends its turn by arming a near deadline (pt_svc_yield), and a
 * hart computing a long job carries a tick grid (pt_svc_call_ticked) so that no turn is
 * longer than one tick period.
 */
#include <partita/hal.h>
#include <partita/hal_svc.h>
#include <partita/config.h>
#include <partita/svc.h>

uint64_t pt_svc_ns_to_cycles(uint64_t ns)
{
	uint64_t cps = hal_cycles_per_sec();
	return ns / 1000000000u * cps + (ns % 1000000000u) * cps / 1000000000u;
}

void pt_svc_wait_until(uint64_t deadline_cycles)
{
	if (deadline_cycles != UINT64_MAX) {
		if (hal_cycles() >= deadline_cycles)
			return;
		hal_svc_timer_arm(deadline_cycles);
	}
	hal_svc_halt();
}

void pt_svc_kick(uint32_t hart)
{
	hal_svc_kick(hart);
}

void pt_svc_yield(void)
{
	/* a comparator write that changes the earliest deadline ends this hart's turn: alternate
	 * by 100 cycles so that two yields in a row never write the same value */
	static uint64_t flip[PT_MAX_CPUS];
	uint32_t h = hal_cpu_id() % PT_MAX_CPUS;
	flip[h] ^= 1;
	hal_svc_timer_arm(hal_cycles() + pt_svc_ns_to_cycles(PT_SVC_YIELD_NS) + flip[h] * 100);
}

/* each hart's tick grid inside pt_svc_call_ticked (written only by that hart) */
static struct {
	uint64_t period, phase;
} grid[PT_MAX_CPUS];

/* Arm the next point of this hart's grid strictly after now. */
static void tick(void)
{
	uint32_t h = hal_cpu_id() % PT_MAX_CPUS;
	uint64_t p = grid[h].period, off = grid[h].phase;
	uint64_t now = hal_cycles();
	hal_svc_timer_arm((now - off) / p * p + p + off);
}

void pt_svc_call_ticked(uintptr_t entry, void *arg, uint64_t period_cycles,
			uint64_t phase_cycles)
{
	uint32_t h = hal_cpu_id() % PT_MAX_CPUS;
	grid[h].period = period_cycles ? period_cycles : 1;
	grid[h].phase = phase_cycles % grid[h].period;
	hal_svc_call_ticked(entry, arg, tick);
}
