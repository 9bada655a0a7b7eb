/*
 * HAL for riscv64 on QEMU virt: time, timer, IPIs, interrupt masking, console, power-off,
 * S-mode entry. See docs/kernel.md for why each mechanism was chosen.
 */
#include <partita/hal.h>
#include <partita/hal_cpu.h>
#include <partita/config.h>
#include "csr.h"
#include "virt.h"

extern void arch_trap_vector(void);
extern void arch_thread_trampoline(void);
void plat_uart_putc(char c);
_Noreturn void plat_poweroff(int code);
void arch_s_entry(uint64_t hartid);

/* S-mode entry from m_start(): traps, interrupt enables, SUM, then the portable kmain. */
void arch_s_entry(uint64_t hartid)
{
	csr_write(stvec, (uint64_t)arch_trap_vector);
	csr_write(sscratch, 0);
	/* SEIE: the PLIC enables no source until the kernel routes one (kernel/core/irq.c) */
	csr_write(sie, SIE_SSIE | SIE_SEIE);
	/* SUM: the kernel touches user buffers only after checking they lie in the caller's
	 * partition (kernel/core/syscall.c); SUM keeps that path free of CSR toggles. */
	csr_set(sstatus, SSTATUS_SUM);
	pt_kmain((uint32_t)hartid);
	for (;;)
		__asm__ volatile("wfi");
}

extern char arch_boot_stacks[][16384];

void hal_percpu_set(struct hal_percpu *p)
{
	/* the boot stack is free once the hart runs threads: it reports kernel stack overflows */
	p->emerg_sp = (uint64_t)&arch_boot_stacks[p->cpu + 1][0];
	__asm__ volatile("mv tp, %0" ::"r"(p));
}

#ifndef PT_HAL_INLINE /* else static inline in partita/hal_inline.h */
struct hal_percpu *hal_percpu_get(void)
{
	struct hal_percpu *p;
	__asm__ volatile("mv %0, tp" : "=r"(p));
	return p;
}

uint32_t hal_cpu_id(void)
{
	return hal_percpu_get()->cpu;
}
#endif

/*
 * Under icount QEMU derives the `cycle` CSR from the virtual clock in ns (one shared clock for
 * all harts, advancing 2^shift ns per instruction), while `time` ticks at the 10 MHz CLINT
 * timebase (100 ns steps). Shifting `cycle` right by the icount shift yields instructions,
 * i.e. cycles of the modelled 2^-shift GHz core, at single-instruction resolution and with
 * the same base on every hart.
 */
#ifndef PT_HAL_INLINE /* else static inline in partita/hal_inline.h */
uint64_t hal_cycles(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c >> pt_config.icount_shift;
}
#endif

uint64_t hal_cycles_per_sec(void)
{
	return 1000000000ull >> pt_config.icount_shift;
}

#ifndef PT_HAL_INLINE /* else static inline in partita/hal_inline.h */
unsigned long hal_irq_save(void)
{
	return csr_read_clear(sstatus, SSTATUS_SIE) & SSTATUS_SIE;
}

void hal_irq_restore(unsigned long flags)
{
	if (flags & SSTATUS_SIE)
		csr_set(sstatus, SSTATUS_SIE);
}
#endif

/*
 * One-shot timer: the hart's CLINT mtimecmp (10 MHz ticks), written directly from S-mode
 * (the PMP leaves the CLINT open). Its machine timer interrupt is forwarded by M-mode as SSIP,
 * shared with IPIs; arch_trap tells them apart with timer_deadline[] and ipi_pending[].
 * "Never" is 2^55 ticks (over 100 years), not ~0: QEMU 7.2 converts (cmp - time) to ns
 * with a 64-bit multiply, and ~0 would wrap into a deadline in the past.
 */
#define TIMER_NEVER (1ull << VIRT_CLINT_NEVER_SHIFT)
/*
 * QEMU's icount scheduler runs the harts in turns on one host thread: a hart's turn lasts until
 * the earliest pending virtual-timer deadline of the machine, until it halts, or until it
 * writes a comparator that becomes the earliest deadline (its turn then ends at once). A
 * far-off deadline makes turns long (without a horizon, four busy harts ran one after
 * another). So the timer is never armed more than TIMER_HORIZON_NS ahead, on per-hart
 * staggered points (below); a horizon expiry that is not the real deadline is re-armed in
 * arch_trap without involving the kernel. Cost: one short interrupt per horizon per hart.
 * docs/kernel.md ("QEMU icount runs the harts one at a time") has the measurements.
 */
#define TIMER_HORIZON_NS 50000ull /* 0 = off */
uint64_t arch_timer_deadline[PT_MAX_CPUS];
volatile uint32_t arch_ipi_pending[PT_MAX_CPUS];
uint64_t arch_armed_cmp[PT_MAX_CPUS]; /* what mtimecmp holds; m_trap_vector updates it */

void hal_timer_arm(uint64_t deadline_cycles)
{
	uint32_t cpu = hal_cpu_id();
	arch_timer_deadline[cpu] = deadline_cycles;
	/* Horizon (see TIMER_HORIZON_NS): never arm much further ahead than that. */
	uint64_t now_ns;
	__asm__ volatile("rdcycle %0" : "=r"(now_ns));
	/* Horizon points are staggered per hart (hart h at h/ncpus of the period), and a hart
	 * re-arms to its first point more than period/ncpus ahead (also when it handles an expiry
	 * late): another hart's point then always comes first, so re-arming is never the earliest
	 * deadline of the machine and does not end this hart's icount turn. With "now + horizon"
	 * or one grid for all harts, the hart that re-armed first lost its turn every period:
	 * measured up to 44x slowdowns of one hart while others ran at 1/2 (docs/kernel.md).
	 * The horizon is thus between period/ncpus and period + period/ncpus ahead. */
	uint64_t cmp = TIMER_NEVER;
	if (TIMER_HORIZON_NS) {
		uint64_t n = pt_config.ncpus ? pt_config.ncpus : 1;
		uint64_t off = TIMER_HORIZON_NS * cpu / n;
		uint64_t t = now_ns + TIMER_HORIZON_NS / n + TIMER_HORIZON_NS - off;
		cmp = (t - t % TIMER_HORIZON_NS + off) / 100;
	}
	if (deadline_cycles != UINT64_MAX) {
		uint64_t ns = deadline_cycles << pt_config.icount_shift;
		uint64_t per = 1000000000ull / VIRT_TIMEBASE_HZ;
		uint64_t want = (ns + per - 1) / per;
		if (want < cmp)
			cmp = want;
	}
	/* Every mtimecmp write is an I/O access that may end this hart's icount turn (see
	 * docs/kernel.md): skip it when the compare register already fires no later than
	 * needed and still in the future (an early horizon expiry is simply re-armed). */
	uint64_t armed = arch_armed_cmp[cpu];
	if (armed == cmp || (TIMER_HORIZON_NS && armed <= cmp && armed > now_ns / 100))
		return;
	arch_armed_cmp[cpu] = cmp;
	*VIRT_CLINT_MTIMECMP_REG(cpu) = cmp;
}

/* End this hart's icount turn: arm its own comparator for the next tick of the timer. */
static void end_turn(void)
{
	uint32_t me = hal_cpu_id();
	uint64_t now_ns;
	__asm__ volatile("rdcycle %0" : "=r"(now_ns));
	arch_armed_cmp[me] = now_ns / 100 + 1;
	*VIRT_CLINT_MTIMECMP_REG(me) = now_ns / 100 + 1;
}

void hal_ipi_send(uint32_t cpu)
{
	volatile uint32_t *msip = VIRT_CLINT_MSIP_REG(cpu);
	__atomic_store_n(&arch_ipi_pending[cpu], 1, __ATOMIC_RELEASE);
	__asm__ volatile("fence rw, o" ::: "memory");
	*msip = 1;
	/*
	 * Under icount QEMU runs the harts from one thread, so the msip write above does not end
	 * this hart's turn, and the woken hart waits (measured: tens of microseconds, and a hart
	 * woken while another stays busy could starve for milliseconds). Arming this hart's timer
	 * for the next tick makes it the earliest virtual-timer deadline, which ends the turn at
	 * once; the target runs next. The expiry is a horizon expiry, re-armed in arch_trap.
	 */
	end_turn();
}

void hal_spin_pause(void)
{
	/* Same device as hal_ipi_send's: the comparator write becomes the machine's earliest
	 * deadline and ends this hart's turn; the expiry (taken by M-mode even with S-mode
	 * interrupts masked) is a horizon expiry that arch_trap re-arms once they are enabled. */
	end_turn();
}

/*
 * Exact alignment (hal.h). A coarse loop reads the counter until at most SPIN_SLED cycles
 * are left; where it stops depends on the phase of its iterations, so the rest is spent in a
 * straight line whose length is computed from the last reading: a jump into a sled of
 * SPIN_SLED nops (4 bytes each, no compressed forms) that runs exactly `left - SPIN_FIXED`
 * of them. Under icount one instruction is one cycle, so the return comes a constant number
 * of cycles after the deadline. M-mode timer housekeeping (the horizon) is not masked: it
 * comes at fixed times, the same in every run.
 */
#define SPIN_SLED 64
#define SPIN_FIXED 8 /* instructions from the last reading to the sled, an upper bound */
void hal_spin_until(uint64_t deadline_cycles)
{
	unsigned long f = hal_irq_save();
	while (hal_cycles() + SPIN_SLED - SPIN_FIXED < deadline_cycles)
		;
	uint64_t now = hal_cycles();
	if (now < deadline_cycles) {
		uint64_t left = deadline_cycles - now; /* <= SPIN_SLED - SPIN_FIXED */
		uint64_t skip = SPIN_SLED - (left < SPIN_FIXED ? 0 : left - SPIN_FIXED);
		__asm__ volatile(".option push\n\t.option norvc\n\t"
				 "la t0, 1f\n\t"
				 "slli t1, %0, 2\n\t"
				 "add t0, t0, t1\n\t"
				 "jr t0\n\t"
				 "1:\n\t"
				 ".rept 64\n\tnop\n\t.endr\n\t"
				 ".option pop"
				 : : "r"(skip) : "t0", "t1", "memory");
	}
	hal_irq_restore(f);
}

void hal_wait_for_interrupt(void)
{
	csr_set(sstatus, SSTATUS_SIE);
	__asm__ volatile("wfi" ::: "memory");
}

/* Ticket lock for the console: a line is written in one piece. */
#define PT_SPIN_LOOKS_CONSOLE 64u
static volatile uint32_t con_next, con_owner;

void hal_console_write(const char *s, size_t n)
{
	unsigned long f = hal_irq_save();
	uint32_t me = __atomic_fetch_add(&con_next, 1, __ATOMIC_RELAXED);
	for (uint32_t n = 1; __atomic_load_n(&con_owner, __ATOMIC_ACQUIRE) != me; n++)
		if (n % PT_SPIN_LOOKS_CONSOLE == 0)
			end_turn(); /* as hal_spin_pause: the writer holding it may have lost its turn */
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			plat_uart_putc('\r');
		plat_uart_putc(s[i]);
	}
	__atomic_store_n(&con_owner, me + 1, __ATOMIC_RELEASE);
	hal_irq_restore(f);
}

_Noreturn void hal_poweroff(int code)
{
	hal_irq_save();
	plat_poweroff(code);
}

#ifndef PT_HAL_INLINE /* else static inline in partita/hal_inline.h */
void hal_fence(void)
{
	__asm__ volatile("fence rw, rw" ::: "memory");
}
#endif

void hal_ctx_init(struct hal_ctx *c, uintptr_t stack_top, void (*fn)(void *), void *arg)
{
	for (int i = 0; i < 12; i++)
		c->s[i] = 0;
	c->ra = (uint64_t)arch_thread_trampoline;
	c->sp = stack_top & ~15ul;
	c->s[0] = (uint64_t)fn;
	c->s[1] = (uint64_t)arg;
}

void hal_irq_enable(void)
{
	csr_set(sstatus, SSTATUS_SIE);
}

void hal_wait_for_interrupt_masked(void)
{
	__asm__ volatile("wfi" ::: "memory");
	if (csr_read(sip) & SIE_SSIE) {
		csr_clear(sip, SIE_SSIE);
		arch_ipi_pending[hal_cpu_id()] = 0;
	}
}
