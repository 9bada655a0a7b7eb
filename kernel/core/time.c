/*
 * Time and alarms. Each cpu keeps its alarms in a list ordered by expiry (FIFO among equal
 * times); its one-shot timer is armed for the earliest of: the head alarm, the round-robin
 * slice end and the running job's budget end. There is no periodic tick.
 * Alarms are armed only on the calling cpu; any cpu may cancel one (the queue lock).
 */
#include "kernel.h"

uint64_t pt_epoch;
static void timer_program(struct pt_cpu *c);

void pt_alarm_init(struct pt_alarm *a, void (*fn)(struct pt_alarm *))
{
	pt_list_init(&a->node);
	a->fn = fn;
	a->cpu = -1;
	a->when = UINT64_MAX;
}

void pt_timer_reprogram(struct pt_cpu *c)
{
	c->timer_dirty = 1;
}

void pt_flush_deferred_slow(struct pt_cpu *c)
{
	unsigned long f = hal_irq_save();
	uint32_t m = c->ipi_mask;
	c->ipi_mask = 0;
	for (uint32_t cpu = 0; m; cpu++, m >>= 1)
		if (m & 1)
			hal_ipi_send(cpu);
	if (c->timer_dirty) {
		c->timer_dirty = 0;
		timer_program(c);
	}
	hal_irq_restore(f);
}

static void timer_program(struct pt_cpu *c)
{
	uint64_t next = c->slice_end < c->budget_end ? c->slice_end : c->budget_end;
	if (!pt_list_empty(&c->alarms)) {
		struct pt_alarm *a = pt_list_first(&c->alarms, struct pt_alarm, node);
		if (a->when < next)
			next = a->when;
	}
	hal_timer_arm(next);
}

void pt_alarm_arm(struct pt_alarm *a, uint64_t when)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	pt_alarm_cancel(a);
	pt_spin_lock(&c->alarm_lock);
	a->when = when;
	a->cpu = (int16_t)c->id;
	struct pt_list *pos = c->alarms.prev; /* scan from the tail: releases mostly append */
	while (pos != &c->alarms && pt_container_of(pos, struct pt_alarm, node)->when > when)
		pos = pos->prev;
	pt_list_insert_between(&a->node, pos, pos->next);
	bool head = c->alarms.next == &a->node;
	pt_spin_unlock(&c->alarm_lock);
	if (head)
		pt_timer_reprogram(c);
	hal_irq_restore(f);
}

void pt_alarm_cancel(struct pt_alarm *a)
{
	int16_t cpu = __atomic_load_n(&a->cpu, __ATOMIC_ACQUIRE);
	if (cpu < 0)
		return;
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = &pt_cpus[cpu];
	pt_spin_lock(&c->alarm_lock);
	if (a->cpu == cpu && pt_list_linked(&a->node)) {
		pt_list_del(&a->node);
		a->cpu = -1;
	}
	pt_spin_unlock(&c->alarm_lock);
	hal_irq_restore(f);
}

static void shutdown_alarm(struct pt_alarm *a)
{
	(void)a;
	pt_trace_emit(PT_EV_SHUTDOWN, 0, 0, 0);
	pt_rt_summary();
	hal_poweroff(0);
}
static struct pt_alarm shutdown;

void pt_time_start(uint32_t cpu)
{
	if (cpu == 0 && pt_config.run_for_ns) {
		pt_alarm_init(&shutdown, shutdown_alarm);
		pt_alarm_arm(&shutdown, pt_epoch + pt_ns_to_cycles(pt_config.run_for_ns));
	}
}

/* Timer interrupt: run expired alarms (without the queue lock), then re-arm. */
void pt_irq_timer(void)
{
	struct pt_cpu *c = pt_this_cpu();
	uint64_t now = hal_cycles();
	c->irqs++;
	pt_trace_emit(PT_EV_IRQ_ENTER, 0, 5, 0);
	c->in_timer_irq = 1; /* one timer write at the end, not one per re-armed alarm */
	for (;;) {
		pt_spin_lock(&c->alarm_lock);
		struct pt_alarm *a = pt_list_first(&c->alarms, struct pt_alarm, node);
		if (!a || a->when > now) {
			pt_spin_unlock(&c->alarm_lock);
			break;
		}
		pt_list_del(&a->node);
		__atomic_store_n(&a->cpu, -1, __ATOMIC_RELEASE);
		pt_spin_unlock(&c->alarm_lock);
		a->fn(a);
	}
	if (c->slice_end <= now)
		c->need_resched = 1;
	c->in_timer_irq = 0;
	pt_timer_reprogram(c);
	pt_flush_deferred();
	pt_trace_emit(PT_EV_IRQ_EXIT, 0, 5, 0);
	/* Last: an exhausted budget aborts the running job and switches away for good, so
	 * everything above (the timer for the remaining alarms above all) must be done first. */
	if (c->budget_end <= now)
		pt_rt_budget_expired(c);
}

/* Sleeping is blocking on nothing with a timeout (kernel/sync/waitq.c). */
int pt_k_sleep_until(uint64_t abs_cycles)
{
	unsigned long f = hal_irq_save();
	if (abs_cycles <= hal_cycles()) {
		hal_irq_restore(f);
		return PT_OK;
	}
	pt_spin_lock(&pt_sync_lock);
	int r = pt_block(0, PT_OBJ_SLEEP, 0, abs_cycles);
	hal_irq_restore(f);
	return r == PT_ETIMEDOUT ? PT_OK : r;
}
