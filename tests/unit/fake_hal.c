#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "fake_hal.h"
#include <partita/hal_svc.h>

static _Thread_local uint32_t cpu_id;
static uint64_t cycles, cycle_step;
static int irq_depth;
static uint64_t irq_saves, fences, timer_deadline = UINT64_MAX, ipis[64];
static void (*fence_fn)(void *);
static void *fence_ctx;
static uint64_t svc_arms, svc_deadline, svc_halts, svc_kicks[64];
static void (*svc_tick)(void);
static void (*halt_fn)(void *);
static void *halt_ctx;

void fake_hal_reset(void)
{
	cpu_id = 0;
	cycles = 0;
	cycle_step = 0;
	irq_depth = 0;
	irq_saves = fences = 0;
	timer_deadline = UINT64_MAX;
	for (int i = 0; i < 64; i++)
		ipis[i] = 0;
	fence_fn = NULL;
	fence_ctx = NULL;
	svc_arms = svc_deadline = svc_halts = 0;
	for (int i = 0; i < 64; i++)
		svc_kicks[i] = 0;
	svc_tick = NULL;
	halt_fn = NULL;
	halt_ctx = NULL;
}

void fake_hal_set_cpu(uint32_t cpu) { cpu_id = cpu; }
void fake_hal_set_cycles(uint64_t c) { cycles = c; }
void fake_hal_set_cycle_step(uint64_t step) { cycle_step = step; }
int fake_hal_irq_depth(void) { return irq_depth; }
uint64_t fake_hal_irq_saves(void) { return irq_saves; }
uint64_t fake_hal_fences(void) { return fences; }
uint64_t fake_hal_timer_deadline(void) { return timer_deadline; }
uint64_t fake_hal_ipis(uint32_t cpu) { return cpu < 64 ? ipis[cpu] : 0; }
void fake_hal_on_fence(void (*fn)(void *), void *ctx)
{
	fence_fn = fn;
	fence_ctx = ctx;
}

uint32_t hal_cpu_id(void) { return cpu_id; }

uint64_t hal_cycles(void)
{
	uint64_t c = cycles;

	if (cycle_step) /* a frozen clock is never written: threads may read it */
		cycles += cycle_step;
	return c;
}

uint64_t hal_cycles_per_sec(void) { return 1000000000ull; }

unsigned long hal_irq_save(void)
{
	irq_saves++;
	return (unsigned long)irq_depth++;
}

void hal_irq_restore(unsigned long flags)
{
	irq_depth--;
	if ((unsigned long)irq_depth != flags) {
		fprintf(stderr, "fake_hal: unbalanced irq restore\n");
		abort();
	}
}

void hal_timer_arm(uint64_t deadline_cycles) { timer_deadline = deadline_cycles; }
void hal_ipi_send(uint32_t cpu)
{
	if (cpu < 64)
		ipis[cpu]++;
}
void hal_wait_for_interrupt(void) {}
void hal_spin_pause(void) { sched_yield(); }
void hal_spin_until(uint64_t deadline_cycles) { (void)deadline_cycles; }
void hal_console_write(const char *s, size_t n) { fwrite(s, 1, n, stdout); }
_Noreturn void hal_poweroff(int code) { exit(code); }

void hal_fence(void)
{
	fences++;
	if (fence_fn)
		fence_fn(fence_ctx);
}

/* ---- <partita/hal_svc.h> ---- */
uint64_t fake_hal_svc_arms(void) { return __atomic_load_n(&svc_arms, __ATOMIC_SEQ_CST); }
uint64_t fake_hal_svc_deadline(void) { return __atomic_load_n(&svc_deadline, __ATOMIC_SEQ_CST); }
uint64_t fake_hal_svc_halts(void) { return __atomic_load_n(&svc_halts, __ATOMIC_SEQ_CST); }
uint64_t fake_hal_svc_kicks(uint32_t hart)
{
	return hart < 64 ? __atomic_load_n(&svc_kicks[hart], __ATOMIC_SEQ_CST) : 0;
}
void fake_hal_on_halt(void (*fn)(void *), void *ctx)
{
	halt_fn = fn;
	halt_ctx = ctx;
}

void hal_svc_timer_arm(uint64_t deadline_cycles)
{
	__atomic_store_n(&svc_deadline, deadline_cycles, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&svc_arms, 1, __ATOMIC_SEQ_CST);
}

void hal_svc_kick(uint32_t hart)
{
	if (hart < 64)
		__atomic_fetch_add(&svc_kicks[hart], 1, __ATOMIC_SEQ_CST);
}

void hal_svc_halt(void)
{
	__atomic_fetch_add(&svc_halts, 1, __ATOMIC_SEQ_CST);
	if (halt_fn)
		halt_fn(halt_ctx);
}

void hal_svc_sync_icache(void) {}

void fake_hal_svc_tick(void)
{
	if (!svc_tick) {
		fprintf(stderr, "fake_hal: tick outside hal_svc_call_ticked\n");
		abort();
	}
	svc_tick();
}

void hal_svc_call_ticked(uintptr_t entry, void *arg, void (*tick)(void))
{
	svc_tick = tick;
	tick(); /* the first point of the grid is armed before the job starts */
	((void (*)(void *))entry)(arg);
	svc_tick = NULL;
}
