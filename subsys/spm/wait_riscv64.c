/*
 * Sleeping on the SPM harts (RISC-V / qemu-virt specific; the one non-portable file of the
 * subsystem).
 *
 * Why: under QEMU's icount the harts share one virtual clock and run in turns. A hart that
 * waits with `wfi` hands its turn over; a hart that computes keeps it for a whole slice, and
 * QEMU sizes every slice from the earliest virtual-timer deadline at the moment the slices
 * are handed out (docs/kernel.md, "QEMU icount artifact"). When the I/O core's slot timer
 * fires and no other deadline is armed, a computing application hart is handed a slice of
 * many milliseconds and the I/O core misses its slots.
 *
 * How: interrupts stay globally masked (sstatus.SIE = 0) on the SPM harts; `wfi` still wakes
 * when the timer or an IPI is forwarded as SSIP, and no trap is taken. While an application
 * core is busy the I/O core does not halt: it polls, re-arming its timer a short time ahead
 * (each comparator write ends its QEMU turn). It also keeps "shadow" deadlines on the
 * application harts' CLINT comparators (those harts never arm their own timer: they sleep until
 * an IPI); a shadow expiry only wakes an idle application hart spuriously.
 */
#include <partita/hal.h>
#include <partita/config.h>
#include "spm_rt.h"
#include "spm_config.h"

#define CLINT_MTIMECMP 0x02004000ul
#define MTIME_NS 100u              /* the CLINT counts at 10 MHz on qemu-virt */
#define PT_SPM_SHADOW_TICKS 100u   /* 10 us between the deadline and each shadow */
#define PT_SPM_POLL_NS 2000u       /* I/O core's look-again period while an app hart computes */

static bool shadows;   /* set on the I/O core: arm the application harts' comparators too */

void pt_spm_set_shadow_hart(int32_t hart)
{
	shadows = hart >= 0;
}

/*
 * Arm our deadline, and (I/O core) shadow deadlines 10 us, 20 us, ... later on the application
 * harts' comparators, so a deadline is still pending when QEMU hands out turns right after
 * ours expired. Measured: slot slips went from up to 6 ms to up to ~0.7 ms (docs/spm.md).
 */
static void arm(uint64_t deadline_cycles)
{
	hal_timer_arm(deadline_cycles);
	if (!shadows)
		return;
	uint64_t ns = deadline_cycles << pt_config.icount_shift;
	uint64_t ticks = (ns + MTIME_NS - 1) / MTIME_NS;
	for (uint32_t k = 0; k < pt_spm_config.napp; k++)
		*(volatile uint64_t *)(CLINT_MTIMECMP + 8ul * pt_spm_config.app_hart[k]) =
			ticks + (k + 1) * PT_SPM_SHADOW_TICKS;
}

void pt_spm_wait(uint64_t deadline_cycles)
{
	if (deadline_cycles == UINT64_MAX) {
		/* application core: an IPI (or a shadow expiry) wakes us */
		__asm__ volatile("wfi" ::: "memory");
		__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory"); /* SSIP */
		return;
	}
	uint64_t now = hal_cycles();
	if (now >= deadline_cycles)
		return;
	if (pt_spm_app_busy()) {
		/* An application hart computes: do not halt, poll. Each re-arm ends this hart's
		 * turn at once, and the pending deadlines keep every turn short, so the I/O core
		 * looks at the clock again within about PT_SPM_POLL_NS of virtual time while the
		 * computing harts lose only a few instructions per turn. */
		uint64_t next = now + pt_spm_ns_to_cycles(PT_SPM_POLL_NS);
		arm(next < deadline_cycles ? next : deadline_cycles);
		__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory"); /* drop stale SSIP */
		return;
	}
	arm(deadline_cycles);
	__asm__ volatile("wfi" ::: "memory");
	__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory"); /* SSIP */
}

void pt_spm_yield(void)
{
	/* a comparator write that changes the earliest deadline ends this hart's turn */
	static uint64_t flip[8];
	uint32_t h = hal_cpu_id() & 7;
	flip[h] ^= 1;
	uint64_t t = hal_cycles() + pt_spm_ns_to_cycles(PT_SPM_POLL_NS) + flip[h] * 100;
	if (shadows && h == pt_spm_config.io_hart)
		arm(t);
	else
		hal_timer_arm(t);
}
