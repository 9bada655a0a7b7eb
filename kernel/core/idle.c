/*
 * The idle thread of each application cpu: runs when its scheduler has nothing ready. Under
 * icount an idle hart spins by default (`idle: spin`), so QEMU never warps the clock and runs
 * stay bit-identical (docs/kernel.md, "Determinism"); `idle: wfi` sleeps instead.
 */
#include "kernel.h"

static void idle_main(void *arg)
{
	(void)arg;
	pt_finish_switch();
	/* A wake-up may have been posted before this cpu went idle (boot, or a release handled
	 * with interrupts masked): look before sleeping. An interrupt arriving after the look
	 * stays pending, so wfi returns at once. */
	for (;;) {
		hal_irq_save();
		if (pt_this_cpu()->need_resched)
			pt_schedule();
		if (pt_config.idle_spin) {
			/* interrupts on for a short while; the loop body is a few instructions, so a
			 * wake-up is seen within ~100 of this hart's instructions */
			hal_irq_enable();
			for (volatile int i = 0; i < 32; i++)
				;
		} else {
			hal_wait_for_interrupt();
		}
	}
}

void pt_idle_create(struct pt_cpu *c)
{
	int err;
	struct pt_thread *t = pt_thread_slot_alloc(0, false, &err);
	if (!t)
		pt_panic("no slot for idle thread");
	t->name[0] = 'i', t->name[1] = 'd', t->name[2] = 'l', t->name[3] = 'e';
	t->name[4] = (char)('0' + c->id);
	t->part = 0;
	t->state = PT_TS_RUNNING;
	t->se.cpu = (int16_t)c->id;
	t->se.prio = PT_PRIO_LEVELS;
	uintptr_t ktop = pt_thread_kstack_map(t, 1);
	if (!ktop)
		pt_panic("no memory for idle stack");
	t->kstack_top = ktop;
	t->kstack_lo = ktop - HAL_PAGE_SIZE;
	hal_ctx_init(&t->ctx, ktop, idle_main, t);
	c->idle = t;
	c->current = t;
}
