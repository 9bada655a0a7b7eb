/*
 * Time and alarms. Each cpu keeps its alarms in a list ordered by expiry (FIFO among equal
 * times); its one-shot timer is armed for the earliest of: the head alarm, its scheduling
 * policy's next timed event (next_event: a round-robin quantum's end) and the running job's
 * budget end. There is no periodic tick.
 * Any cpu may arm an alarm on any cpu's queue or cancel one (the queue lock); a remote arm
 * kicks that cpu, which re-programs its timer at its next preemption point.
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
	uint64_t next = c->sched_event_cycles < c->budget_end_cycles ? c->sched_event_cycles : c->budget_end_cycles;
	if (!pt_list_empty(&c->alarms)) {
		struct pt_alarm *a = pt_list_first(&c->alarms, struct pt_alarm, node);
		if (a->when < next)
			next = a->when;
	}
	hal_timer_arm(next);
}

/* Insert `a` into cpu c's queue, ordered by time, FIFO among equal times (c->alarm_lock held).
 * Scans from the tail: releases mostly append. Returns whether it is now the head. */
static bool queue_insert(struct pt_cpu *c, struct pt_alarm *a, uint64_t when)
{
	a->when = when;
	a->cpu = (int16_t)c->id;
	struct pt_list *pos = c->alarms.prev;
	while (pos != &c->alarms && pt_container_of(pos, struct pt_alarm, node)->when > when)
		pos = pos->prev;
	pt_list_insert_between(&a->node, pos, pos->next);
	return c->alarms.next == &a->node;
}

void pt_alarm_arm(struct pt_alarm *a, uint64_t when)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	pt_alarm_cancel(a);
	pt_spin_lock(&c->alarm_lock);
	bool head = queue_insert(c, a, when);
	pt_spin_unlock(&c->alarm_lock);
	if (head)
		pt_timer_reprogram(c);
	hal_irq_restore(f);
}

void pt_alarm_arm_on(struct pt_alarm *a, uint64_t when, uint32_t cpu)
{
	if (cpu == pt_this_cpu()->id) {
		pt_alarm_arm(a, when);
		return;
	}
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = &pt_cpus[cpu];
	pt_alarm_cancel(a);
	pt_spin_lock(&c->alarm_lock);
	queue_insert(c, a, when);
	pt_spin_unlock(&c->alarm_lock);
	pt_flush_deferred();
	hal_irq_restore(f);
	/* before a cpu is online its queue is only touched by the boot cpu; an online remote
	 * cpu re-programs its timer when kicked (the IPI goes at the caller's next flush) */
	if (c->online)
		pt_kick_cpu(cpu);
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
	pt_trace_emit(PT_EV_SHUTDOWN, 0, PT_EXIT_OK, 0);
	pt_job_summary();
	hal_poweroff(PT_EXIT_OK);
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
void pt_irq_entry(void)
{
	pt_subsys_on_preempt_point(hal_cpu_id());
}

void pt_irq_timer(void)
{
	struct pt_cpu *c = pt_this_cpu();
	uint64_t now = hal_cycles();
	c->irqs++;
	pt_trace_emit(PT_EV_IRQ_ENTER, 0, PT_IRQ_CAUSE_TIMER, 0);
	c->in_timer_irq = 1; /* a stop of the current thread waits for the exit (thread.c) */
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
	if (c->sched_event_cycles <= now)
		c->need_resched = 1;
	c->in_timer_irq = 0;
	pt_timer_reprogram(c);
	pt_flush_deferred();
	pt_trace_emit(PT_EV_IRQ_EXIT, 0, PT_IRQ_CAUSE_TIMER, 0);
	/* Last: an exhausted budget aborts the running job and switches away for good, so
	 * everything above (the timer for the remaining alarms above all) must be done first. */
	if (c->budget_end_cycles <= now)
		pt_job_budget_expired(c);
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
