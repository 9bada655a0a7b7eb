#include <stdio.h>
#include <stdlib.h>
#include "fake_hal.h"

static uint32_t cpu_id;
static uint64_t cycles, cycle_step;
static int irq_depth;
static uint64_t irq_saves, fences, timer_deadline = UINT64_MAX, ipis[64];
static void (*fence_fn)(void *);
static void *fence_ctx;

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
void hal_console_write(const char *s, size_t n) { fwrite(s, 1, n, stdout); }
_Noreturn void hal_poweroff(int code) { exit(code); }

void hal_fence(void)
{
	fences++;
	if (fence_fn)
		fence_fn(fence_ctx);
}
