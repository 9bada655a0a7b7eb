/*
 * Waiting and the application harts' heartbeat (RISC-V / qemu-virt specific; the one
 * non-portable file of the subsystem).
 *
 * Why (measured, docs/spm.md "The QEMU icount limitation"): QEMU 7.2 under icount runs the
 * harts one at a time on one host thread. A hart's turn lasts until the earliest pending
 * virtual-timer deadline (or until it halts in `wfi`, or writes a comparator that becomes the
 * earliest deadline); the hart that comes next after a turn that ended *at* a deadline gets a
 * zero budget (QEMU runs the expired timers in its place) and the one after it gets the whole
 * interval up to the next deadline. So which hart progresses depends on how the deadlines
 * fall, not on a fair share:
 *   - with no deadline pending, a computing application hart kept the host thread for its whole
 *     job (up to 1.7 ms): the I/O core's slots slipped by that much;
 *   - a hart that always came right after a deadline-terminated turn starved: jobs took up to
 *     27x their instruction time.
 * The previous mitigations (the I/O core polling with a 2 us deadline, and "shadow" deadlines
 * written by the I/O core into the application harts' comparators) did not remove either
 * effect: an application hart's M-mode forwarder writes "never" into its comparator on
 * expiry, racing with the I/O core's writes, and a job was seen starting with all three
 * comparators expired.
 *
 * What this file does:
 *   1. Heartbeat. An application hart runs each job with sstatus.SIE set and stvec pointing at
 *      spm_app_trap, which only re-arms the hart's own comparator to the next point of a
 *      PT_SPM_BEAT_NS grid and returns. Application core k's grid is shifted by
 *      k * PT_SPM_BEAT_NS / M, so while both application harts compute the deadlines alternate
 *      between them and QEMU hands the intervals to them in turn. A computing hart therefore
 *      always has a deadline at most PT_SPM_BEAT_NS away: no turn is longer than that.
 *   2. The I/O core simply sleeps in `wfi` until its next event (slot boundary, release,
 *      device); it no longer polls and writes no other hart's comparator.
 *   3. The configuration puts an idle hart after the I/O core and after each application hart
 *      except the last (e.g. harts 0 = I/O, 1 idle, 2 = app, 3 idle, 4 = app; see
 *      partita.subsys.spm.soundness): the idle hart takes the zero-budget turn, so no busy hart is
 *      systematically skipped. With 3 harts (no spacers) the demo and bandwidth runs, whose
 *      jobs are short, also keep their slots (measured).
 * Measured on the 200-set soundness run: slot boundaries served at most ~23 us late, a job
 * takes at most ~3.2x its instruction time (two application harts and the I/O core).
 *
 * Interrupts stay masked (sstatus.SIE = 0) on the SPM harts outside jobs; `wfi` still wakes
 * when the timer or an IPI is forwarded as SSIP, and no trap is taken.
 */
#include <partita/hal.h>
#include <partita/config.h>
#include "spm_rt.h"
#include "spm_config.h"
#include <partita/spm_task.h>

#define PT_SPM_YIELD_NS 2000u      /* lock waiter: a deadline this far ahead ends its turn */
#define PT_SPM_BEAT_NS 10000u      /* heartbeat grid of an application hart running a job */

/*
 * The SPM harts program their own CLINT comparator and send IPIs by writing the CLINT
 * directly, not through hal_timer_arm / hal_ipi_send: those carry the kernel's policies for
 * the scheduler's harts (a 50 us horizon, a cache of the armed value, ending the sender's turn
 * after an IPI), and every such policy changes the turn structure described above. The SPM
 * harts never return to the kernel, so nothing else programs their comparators (the M-mode
 * forwarder only writes "never" on expiry).
 */
#define CLINT_MSIP 0x02000000ul
#define CLINT_MTIMECMP 0x02004000ul
#define MTIME_NS 100u              /* the CLINT counts at 10 MHz on qemu-virt */

static void arm(uint64_t deadline_cycles)
{
	uint64_t ns = deadline_cycles << pt_config.icount_shift;
	*(volatile uint64_t *)(CLINT_MTIMECMP + 8ul * hal_cpu_id()) =
		(ns + MTIME_NS - 1) / MTIME_NS;
}

void pt_spm_ipi(uint32_t hart)
{
	__asm__ volatile("fence rw, o" ::: "memory");
	*(volatile uint32_t *)(CLINT_MSIP + 4ul * hart) = 1;
}

void pt_spm_wait(uint64_t deadline_cycles)
{
	if (deadline_cycles != UINT64_MAX) {
		if (hal_cycles() >= deadline_cycles)
			return;
		arm(deadline_cycles);
	}
	/* application core (UINT64_MAX): the I/O core's IPI after a load wakes us */
	__asm__ volatile("wfi" ::: "memory");
	__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory"); /* SSIP */
}

void pt_spm_yield(void)
{
	/* a comparator write that changes the earliest deadline ends this hart's turn */
	static uint64_t flip[8];
	uint32_t h = hal_cpu_id() & 7;
	flip[h] ^= 1;
	arm(hal_cycles() + pt_spm_ns_to_cycles(PT_SPM_YIELD_NS) + flip[h] * 100);
}

_Noreturn static void spm_app_fault(uint64_t cause, uint64_t epc, uint64_t tval)
{
	pt_printk("spm: application core hart %u: exception cause %lu at %lx (tval %lx) in an "
		  "SPM job\n", (unsigned)hal_cpu_id(), (unsigned long)cause, (unsigned long)epc,
		  (unsigned long)tval);
	hal_poweroff(3);
}

static uint64_t beat_offset(void)
{
	uint32_t me = hal_cpu_id();
	for (uint32_t k = 0; k < pt_spm_config.napp; k++)
		if (pt_spm_config.app_hart[k] == me)
			return pt_spm_ns_to_cycles((uint64_t)PT_SPM_BEAT_NS * k / pt_spm_config.napp);
	return 0;
}

static void spm_beat(void)
{
	uint64_t h = pt_spm_ns_to_cycles(PT_SPM_BEAT_NS), off = beat_offset();
	uint64_t now = hal_cycles();
	arm((now - off) / h * h + h + off);
}

/* S-mode trap vector of an application hart while it runs a job. */
__attribute__((interrupt("supervisor"), aligned(8))) static void spm_app_trap(void)
{
	uint64_t cause;
	__asm__ volatile("csrr %0, scause" : "=r"(cause));
	if (!(cause >> 63)) {
		uint64_t epc, tval;
		__asm__ volatile("csrr %0, sepc" : "=r"(epc));
		__asm__ volatile("csrr %0, stval" : "=r"(tval));
		spm_app_fault(cause, epc, tval);
	}
	/* SSIP: the forwarded timer (heartbeat) or the I/O core's IPI (the loop looks at the
	 * ready queue after the job anyway) */
	__asm__ volatile("csrc sip, %0" ::"r"(2ul) : "memory");
	spm_beat();
}

void pt_spm_run_job(uintptr_t entry, struct pt_spm_ctx *ctx)
{
	uint64_t old;
	__asm__ volatile("csrr %0, stvec" : "=r"(old));
	__asm__ volatile("csrw stvec, %0" ::"r"((uintptr_t)spm_app_trap) : "memory");
	spm_beat();
	__asm__ volatile("csrs sstatus, %0" ::"r"(2ul) : "memory"); /* SIE */
	((pt_spm_entry_fn)entry)(ctx);
	__asm__ volatile("csrc sstatus, %0" ::"r"(2ul) : "memory");
	__asm__ volatile("csrw stvec, %0" ::"r"(old) : "memory");
}
