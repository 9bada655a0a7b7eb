/*
 * The host harness of the kernel-core tests (tests/unit/core/): what the rest of the kernel
 * would provide (per-cpu data, thread pool, a recorded context switch, panic), and a fixture
 * that boots one cpu on one scheduler instance over the fake HAL. See core_harness.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_harness.h"
#include <partita/hal_irq.h>

/* ---- what the rest of the kernel would provide ---- */

struct pt_cpu pt_cpus[PT_MAX_CPUS];
struct pt_thread pt_threads[PT_MAX_THREADS];
const struct pt_subsys *const pt_subsys_begin = 0, *const pt_subsys_end = 0;

struct pt_sched_cfg sched_cfg[1];
static struct pt_cpu_cfg cpu_cfg[1] = { { .role = PT_ROLE_APP, .sched = 0 } };
const struct pt_system_cfg pt_config = {
	.ncpus = 1,
	.cpus = cpu_cfg,
	.scheds = sched_cfg,
	.nscheds = 1,
	.icount_shift = 0,
	.irq_follow = 1,    /* used only once a test calls pt_irq_boot (test_irq.c) */
	.irq_dedicated = 1,
};

/* ---- the interrupt controller (<partita/hal_irq.h>): routes, levels, one claim queue ---- */
uint32_t fake_irq_level[HAL_IRQ_MAX_SOURCE + 1];
int fake_irq_cpu[HAL_IRQ_MAX_SOURCE + 1];
uint32_t fake_irq_threshold, fake_irq_threshold_writes, fake_irq_next_claim;
uint32_t fake_irq_completed[8];
int fake_irq_ncompleted;
uint32_t hal_irq_resolve(uint32_t cfg_source)
{
	return cfg_source == HAL_IRQ_SRC_UART0 ? 10 : cfg_source <= HAL_IRQ_MAX_SOURCE ? cfg_source : 0;
}
void hal_irq_route(uint32_t source, uint32_t cpu, uint32_t level)
{
	fake_irq_level[source] = level;
	fake_irq_cpu[source] = (int)cpu;
}
void hal_irq_set_threshold(uint32_t level)
{
	fake_irq_threshold = level;
	fake_irq_threshold_writes++;
}
uint32_t hal_irq_claim(void)
{
	uint32_t s = fake_irq_next_claim;
	fake_irq_next_claim = 0;
	return s;
}
void hal_irq_complete(uint32_t source)
{
	if (fake_irq_ncompleted < 8)
		fake_irq_completed[fake_irq_ncompleted++] = source;
}
void hal_uart_irq(uint32_t mask, bool on) { (void)mask, (void)on; }
uint32_t hal_uart_irq_enabled(void) { return 0; }
uint64_t hal_uart_irq_cycles(void) { return 0; }
int hal_uart_getc(void) { return -1; }
void hal_rtc_alarm_in(uint64_t ns) { (void)ns; }
void hal_rtc_ack(void) {}

struct hal_percpu *hal_percpu_get(void)
{
	return &pt_cpus[hal_cpu_id()].hal;
}

/* The switch log: "from>to " by thread name. */
char sw_log[512];
void hal_ctx_switch(struct hal_ctx *from, struct hal_ctx *to)
{
	const struct pt_thread *f = pt_container_of(from, struct pt_thread, ctx);
	const struct pt_thread *t = pt_container_of(to, struct pt_thread, ctx);
	size_t n = strlen(sw_log);
	snprintf(sw_log + n, sizeof(sw_log) - n, "%s>%s ", f->name, t->name);
}
void hal_as_switch(hal_as_t as) { (void)as; }

int pt_printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}
_Noreturn void pt_panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}
_Noreturn void pt_assert_fail(const char *cond, const char *file, int line)
{
	pt_panic("assertion failed: %s (%s:%d)", cond, file, line);
}

int stops, restarts;
void pt_thread_stop(struct pt_thread *t, uint8_t reason)
{
	(void)t, (void)reason;
	stops++;
}
void pt_thread_restart_ctx(struct pt_thread *t) { (void)t, restarts++; }
void pt_thread_reap(struct pt_thread *t) { (void)t; }
struct pt_thread *pt_thread_get(int tid)
{
	for (int i = 0; i < PT_MAX_THREADS; i++)
		if (pt_threads[i].tid == (uint32_t)tid && tid)
			return &pt_threads[i];
	return 0;
}

/* ---- fixture ---- */

struct pt_cpu *C;
struct pt_sched *S;

struct pt_thread *thread(int slot, const char *name, uint16_t prio, uint8_t kind)
{
	struct pt_thread *t = &pt_threads[slot];
	memset(t, 0, sizeof(*t));
	t->slot = (uint16_t)slot;
	t->tid = (uint32_t)slot + 1;
	strncpy(t->name, name, sizeof(t->name) - 1);
	t->sched = S;
	t->kind = kind;
	t->base_prio = t->se.prio = prio;
	t->se.tid = t->tid;
	t->se.cpu = 0;
	t->se.pinned_cpu = -1;
	t->inh_deadline = UINT64_MAX;
	t->home_cpu = 0;
	t->state = PT_TS_SUSPENDED;
	pt_list_init(&t->se.node);
	pt_list_init(&t->owned_mutexes);
	pt_job_init_thread(t);
	return t;
}

struct pt_thread *periodic(int slot, const char *name, uint16_t prio, uint64_t period,
				  uint64_t deadline, uint64_t wcet)
{
	struct pt_thread *t = thread(slot, name, prio, PT_KIND_PERIODIC);
	t->period_cycles = period;
	t->rel_deadline_cycles = deadline;
	t->wcet_cycles = wcet;
	return t;
}

/* A cpu running its idle thread on instance 0 of `policy`, quantum in cycles (FP only). */
void boot(uint8_t policy, uint64_t quantum)
{
	fake_hal_reset();
	memset(pt_cpus, 0, sizeof(pt_cpus));
	memset(pt_threads, 0, sizeof(pt_threads));
	memset(pt_scheds, 0, sizeof(pt_scheds));
	sw_log[0] = 0;
	stops = restarts = 0;
	sched_cfg[0] = (struct pt_sched_cfg){ .name = "s0", .policy = policy, .cpu_mask = 1,
					      .rr_slice_ns = quantum };
	pt_trace_init(1);
	pt_sched_init();
	C = &pt_cpus[0];
	S = &pt_scheds[0];
	C->id = 0;
	C->sched = S;
	C->online = 1;
	pt_list_init(&C->alarms);
	C->sched_event_cycles = C->budget_end_cycles = UINT64_MAX;
	struct pt_thread *idle = thread(PT_MAX_THREADS - 1, "idle", PT_PRIO_LEVELS, 0);
	idle->state = PT_TS_RUNNING;
	C->idle = C->current = idle;
	pt_epoch = 0;
}

void at(uint64_t cycles) { fake_hal_set_cycles(cycles); }

/* Make t ready (a wake-up on this cpu), then the preemption point that follows. */
void wake(struct pt_thread *t)
{
	unsigned long f = hal_irq_save();
	pt_sched_lock(S);
	pt_ready_locked(t);
	pt_sched_unlock(S);
	pt_preempt_point();
	hal_irq_restore(f);
}

/* The timer interrupt at `cycles` and its exit (the preemption point). */
void tick(uint64_t cycles)
{
	at(cycles);
	unsigned long f = hal_irq_save();
	pt_irq_timer();
	pt_trap_exit(false);
	hal_irq_restore(f);
}

/* The records of one type in the trace, in order: their arg0 (and count). */
int trace_args(uint16_t type, uint64_t *arg0, int max)
{
	const struct pt_trace_ring *r = &pt_trace_area.ring[0];
	int n = 0;
	for (uint64_t i = 0; i < r->head && i < PT_TRACE_RING_RECORDS; i++)
		if (r->rec[i].type == type) {
			if (n < max)
				arg0[n] = r->rec[i].arg0;
			n++;
		}
	return n;
}
