/*
 * Device interrupts in the threads' priority space (issue 15, docs/interrupts.md).
 *
 * A configured thread with `irq: <source>` is that source's handler: the source is routed to
 * the handler's cpu only, the trap claims it and wakes the handler, and the handler completes
 * it in its next pt_irq_wait(). A claimed source is not delivered again before it is
 * completed, so a handler that cannot run yet costs at most one trap.
 *
 * Unified priority space (`irq_threshold: follow`): on every dispatch the cpu's PLIC threshold
 * follows the priority of the thread that runs, so a source whose handler would not preempt it
 * is held by the controller and never traps. The mapping onto the controller's levels is exact
 * per cpu: with the distinct handler priorities of a cpu h_1 < h_2 < ... < h_k (0 is the
 * highest priority, k <= HAL_IRQ_LEVELS), the source of a handler at h_i gets level k + 1 - i
 * and a thread at priority q sets the threshold #{i : h_i >= q} (idle: 0). A source then traps
 * iff its level > threshold iff h_i < q: iff its handler strictly beats the running thread.
 *
 * Invariants: a source's fields change only on its handler's cpu with interrupts masked (the
 * trap, or the handler in pt_irq_wait), so they need no lock; the handler's thread state
 * changes under its scheduler instance lock as everywhere else.
 */
#include "kernel.h"
#include <partita/hal_irq.h>
#include <partita/irq.h>

#define IRQ_STACK_BYTES 4096

struct pt_irq_line {
	struct pt_thread *handler;
	uint32_t source;     /* PLIC source number */
	uint16_t cpu, prio;  /* the handler's cpu and configured priority */
	uint32_t tid;        /* the handler's id: a later thread in its slot is not the handler */
	uint8_t level;       /* its PLIC level */
	uint8_t claimed;     /* claimed and not yet completed */
	uint8_t pending;     /* claimed and not yet taken by the handler's pt_irq_wait */
	uint8_t waiting;     /* the handler is blocked in pt_irq_wait */
	uint64_t isr_cycles; /* when the ISR for the last claim began */
	uint64_t claims;
};

struct pt_irq_cpu {
	uint8_t threshold[PT_PRIO_LEVELS]; /* by the running thread's priority */
	uint8_t current;                   /* what the controller holds now */
	uint8_t nlevels;                   /* distinct handler priorities on this cpu */
	uint16_t prio[HAL_IRQ_LEVELS];     /* those priorities, highest first */
	uint64_t traps, spurious;
};

static PT_KDATA struct pt_irq_line lines[HAL_IRQ_MAX_SOURCE + 1];
static PT_KDATA struct pt_irq_line *line_of_slot[PT_MAX_THREADS];
static PT_KDATA struct pt_irq_cpu irq_cpus[PT_MAX_CPUS];
static PT_KDATA uint8_t irq_stacks[PT_MAX_CPUS][IRQ_STACK_BYTES] __attribute__((aligned(16)));

/* Boot, hart 0, before the first pt_irq_bind: no source bound, every threshold open. */
void pt_irq_init(void)
{
	for (uint32_t i = 0; i <= HAL_IRQ_MAX_SOURCE; i++)
		lines[i] = (struct pt_irq_line){ 0 };
	for (uint32_t i = 0; i < PT_MAX_THREADS; i++)
		line_of_slot[i] = 0;
	for (uint32_t c = 0; c < PT_MAX_CPUS; c++) {
		irq_cpus[c].nlevels = irq_cpus[c].current = 0;
		irq_cpus[c].traps = irq_cpus[c].spurious = 0;
	}
}

/* Boot, hart 0, after the configured threads exist: bind thread t as handler of its source. */
void pt_irq_bind(const struct pt_thread_cfg *tc, struct pt_thread *t)
{
	uint32_t src = hal_irq_resolve(tc->irq);
	if (src == 0 || src > HAL_IRQ_MAX_SOURCE)
		pt_panic("thread %s: interrupt source 0x%x has no device here", tc->name, tc->irq);
	struct pt_irq_line *l = &lines[src];
	if (l->handler)
		pt_panic("thread %s: interrupt source %u already bound to %s", tc->name, src,
			 l->handler->name);
	if (tc->cpu < 0 || !t->sched->fp)
		pt_panic("thread %s: a handler thread is pinned to a cpu of an FP instance", tc->name);
	l->handler = t;
	l->tid = t->tid;
	l->source = src;
	l->cpu = (uint16_t)tc->cpu;
	l->prio = tc->priority;
	line_of_slot[t->slot] = l;
	if (tc->irq == HAL_IRQ_SRC_UART0)
		hal_uart_irq(HAL_UART_IRQ_RX, true); /* interrupt-driven console receive */
	struct pt_irq_cpu *ic = &irq_cpus[tc->cpu];
	uint16_t p = tc->priority;
	uint32_t i = 0;
	while (i < ic->nlevels && ic->prio[i] < p)
		i++;
	if (i < ic->nlevels && ic->prio[i] == p)
		return;
	if (ic->nlevels == HAL_IRQ_LEVELS)
		pt_panic("cpu %d: handler threads at more than %u priorities", tc->cpu, HAL_IRQ_LEVELS);
	for (uint32_t j = ic->nlevels; j > i; j--)
		ic->prio[j] = ic->prio[j - 1];
	ic->prio[i] = p;
	ic->nlevels++;
}

/* Boot, hart 0, once every handler is bound: levels, routes, thresholds, interrupt stacks. */
void pt_irq_boot(void)
{
	for (uint32_t c = 0; c < pt_config.ncpus; c++) {
		struct pt_irq_cpu *ic = &irq_cpus[c];
		for (uint32_t q = 0; q < PT_PRIO_LEVELS; q++) {
			uint8_t n = 0;
			for (uint32_t i = 0; i < ic->nlevels; i++)
				n += ic->prio[i] >= q;
			ic->threshold[q] = pt_config.irq_follow ? n : 0;
		}
		if (pt_config.irq_dedicated)
			pt_cpus[c].hal.irq_sp = (uint64_t)&irq_stacks[c][IRQ_STACK_BYTES];
		/* follow only where a handler lives; such a cpu leaves the lean dispatch path,
		 * whose frame has no room for the threshold write (sched_core.c) */
		if (pt_config.irq_follow && ic->nlevels) {
			pt_cpus[c].irq_follow = 1;
			if (pt_cpus[c].sched)
				pt_cpus[c].sched->lean = 0;
		}
	}
	for (uint32_t src = 1; src <= HAL_IRQ_MAX_SOURCE; src++) {
		struct pt_irq_line *l = &lines[src];
		if (!l->handler)
			continue;
		struct pt_irq_cpu *ic = &irq_cpus[l->cpu];
		uint32_t i = 0;
		while (ic->prio[i] != l->prio)
			i++;
		l->level = (uint8_t)(ic->nlevels - i);
		hal_irq_route(src, l->cpu, l->level);
		pt_printk("irq: source %u -> thread %s (cpu %u, priority %u, level %u%s)\n", src,
			  l->handler->name, l->cpu, l->prio, l->level,
			  pt_config.irq_follow ? ", threshold follows" : "");
	}
}

/* Dispatch on cpu c (its instance locked, interrupts masked): the threshold follows `next`. */
void pt_irq_follow(struct pt_cpu *c, const struct pt_thread *next)
{
	struct pt_irq_cpu *ic = &irq_cpus[c->id];
	uint8_t th = next == c->idle ? 0 : ic->threshold[next->se.prio];
	if (th != ic->current) {
		ic->current = th;
		hal_irq_set_threshold(th);
	}
}

/* The ISR of one claimed source: mark it pending and wake its handler. */
static __attribute__((noinline)) void source_isr(struct pt_irq_line *l, uint32_t dedicated)
{
	uint64_t now = hal_cycles(); /* the ISR's first instruction: Table II measures to here */
	l->isr_cycles = now;
	l->claims++;
	l->claimed = l->pending = 1;
	struct pt_thread *t = l->handler;
	pt_trace_emit_masked(PT_EV_IRQ_CLAIM, t->tid, l->source, dedicated);
	/* not waiting: it has not reached pt_irq_wait yet (that call returns at once), or it is
	 * gone (deleted, stopped): the source then stays claimed, i.e. silenced */
	if (!l->waiting)
		return;
	l->waiting = 0;
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	if (t->state == PT_TS_BLOCKED && t->tid == l->tid)
		pt_ready_locked(t);
	pt_sched_unlock(s);
	pt_trace_emit_masked(PT_EV_IRQ_HANDLER_WAKE, t->tid, l->source, now);
}

static inline void service(struct pt_cpu *c, uint32_t dedicated)
{
	struct pt_irq_cpu *ic = &irq_cpus[c->id];
	ic->traps++;
	uint32_t src = hal_irq_claim();
	if (src == 0)
		return; /* taken by nothing: the source went quiet before the claim */
	struct pt_irq_line *l = src <= HAL_IRQ_MAX_SOURCE ? &lines[src] : 0;
	if (!l || !l->handler) {
		ic->spurious++;
		pt_trace_emit_masked(PT_EV_IRQ_CLAIM, 0, src, dedicated);
		hal_irq_complete(src);
		return;
	}
	source_isr(l, dedicated);
}

void pt_irq_external(void)
{
	service(pt_this_cpu(), 0);
}

int pt_irq_fast(void)
{
	struct pt_cpu *c = pt_this_cpu();
	service(c, 1);
	struct pt_thread *cur = c->current;
	/* anything pt_trap_exit would do makes the full path necessary */
	return c->need_resched | (c->ipi_mask != 0) | c->timer_dirty |
	       (cur != c->idle && (cur->stop_pending | cur->suspend_pending));
}

int pt_k_irq_wait(void)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	struct pt_thread *me = c->current;
	struct pt_irq_line *l = line_of_slot[me->slot];
	if (!l || l->handler != me || l->tid != me->tid || l->cpu != c->id) {
		hal_irq_restore(f);
		return PT_EINVAL;
	}
	if (l->claimed && !l->pending) {
		/* served: the source may be delivered again (after this thread blocks, since
		 * interrupts stay masked until the switch) */
		l->claimed = 0;
		hal_irq_complete(l->source);
	}
	if (!l->pending) {
		struct pt_sched *s = me->sched;
		pt_trace_emit_masked(PT_EV_IRQ_WAIT, me->tid, l->source, 0);
		pt_sched_lock(s);
		l->waiting = 1;
		pt_leave_cpu_locked(c, s, PT_TS_BLOCKED); /* back here once woken */
	}
	l->pending = 0;
	int src = (int)l->source;
	hal_irq_restore(f);
	return src;
}

uint64_t pt_irq_isr_cycles(void)
{
	struct pt_thread *me = pt_current();
	struct pt_irq_line *l = line_of_slot[me->slot];
	return l && l->handler == me && l->tid == me->tid ? l->isr_cycles : 0;
}

uint64_t pt_irq_traps(uint32_t cpu)
{
	return cpu < PT_MAX_CPUS ? irq_cpus[cpu].traps : 0;
}

int pt_console_getc(void)
{
	return hal_uart_getc();
}

void pt_console_irq(uint32_t mask, bool on)
{
	hal_uart_irq((mask & PT_CONSOLE_IRQ_RX ? HAL_UART_IRQ_RX : 0) |
		     (mask & PT_CONSOLE_IRQ_TX ? HAL_UART_IRQ_TX : 0), on);
}

uint64_t pt_console_irq_cycles(void)
{
	return hal_uart_irq_cycles();
}

void pt_rtc_alarm_in_ns(uint64_t ns)
{
	hal_rtc_alarm_in(ns);
}

void pt_rtc_ack(void)
{
	hal_rtc_ack();
}
