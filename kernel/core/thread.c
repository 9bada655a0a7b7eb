/*
 * Threads: a static pool of control blocks, stacks in guarded slots, stopping, and the native
 * thread API (the idle loop is in idle.c, fault entry points in fault.c). A thread's kernel stack lives in the kernel-stack window (slot = pool index, the page
 * below the lowest mapped page of a slot is never mapped: the guard); a user thread also has
 * a user stack in its partition's region, guarded the same way.
 * tid = slot + 1 + PT_MAX_THREADS * generation: O(1) lookup, and a stale tid never matches.
 */
#include "kernel.h"

PT_KDATA struct pt_thread pt_threads[PT_MAX_THREADS];
struct pt_partition pt_partitions[PT_MAX_PARTITIONS];
static struct pt_spinlock pool_lock;
PT_KDATA static uint32_t slot_gen[PT_MAX_THREADS];
PT_KDATA static uint8_t kstack_pages[PT_MAX_THREADS];
PT_KDATA static uint8_t ustack_pages[PT_MAX_PARTITIONS][PT_MAX_THREADS];

extern char __user_start[], __user_data_start[];
static void thread_boot(void *arg);

/*
 * Free slots form a stack (pushed by pt_thread_reap, popped here, both under pool_lock), so
 * creating a thread costs the same however many threads exist. It starts as all slots, lowest
 * index on top: boot creates the idle threads and the configured ones in slots 0, 1, 2, ...
 */
PT_KDATA static uint16_t free_slots[PT_MAX_THREADS];
static uint32_t nfree;
static bool pool_ready;

/* A free slot for a thread of `part` (NULL: idle), charged to its thread quota when
 * `enforce` (run-time creation by a user partition). *err says why there is none. */
struct pt_thread *pt_thread_slot_alloc(struct pt_partition *part, bool enforce, int *err)
{
	struct pt_thread *t = 0;
	*err = PT_ENOSPC;
	pt_spin_lock(&pool_lock);
	if (part && enforce && part->used[PT_QUOTA_THREADS] >= part->cfg->quota[PT_QUOTA_THREADS]) {
		*err = PT_EQUOTA;
		pt_spin_unlock(&pool_lock);
		return 0;
	}
	if (!pool_ready) {
		for (uint32_t i = 0; i < PT_MAX_THREADS; i++)
			free_slots[i] = (uint16_t)(PT_MAX_THREADS - 1 - i);
		nfree = PT_MAX_THREADS;
		pool_ready = true;
	}
	if (nfree) {
		uint16_t i = free_slots[--nfree];
		t = &pt_threads[i];
		t->slot = i;
		t->tid = (uint32_t)i + 1 + PT_MAX_THREADS * slot_gen[i]++;
		t->state = PT_TS_SUSPENDED; /* not FREE: reserved */
		t->part = part;
		if (part)
			part->used[PT_QUOTA_THREADS]++;
	}
	pt_spin_unlock(&pool_lock);
	return t;
}

void pt_thread_reap(struct pt_thread *t)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pool_lock);
	if (t->tid) { /* reaped once only: the slot goes back on the stack once */
		if (t->part) { /* its quota and its share of the run-time budget come back */
			t->part->used[PT_QUOTA_THREADS]--;
			t->part->budget_used_ppm -= t->budget_ppm;
			t->budget_ppm = 0;
		}
		t->state = PT_TS_FREE;
		t->tid = 0;
		free_slots[nfree++] = t->slot;
	}
	pt_spin_unlock(&pool_lock);
	pt_flush_deferred();
	hal_irq_restore(f);
}

struct pt_thread *pt_thread_get(int tid)
{
	if (tid <= 0)
		return 0;
	struct pt_thread *t = &pt_threads[(uint32_t)(tid - 1) % PT_MAX_THREADS];
	if (t->tid != (uint32_t)tid || t->state == PT_TS_FREE || t->state == PT_TS_DEAD)
		return 0;
	return t;
}

/* Map `pages` of stack ending at `top`, top-down, reusing what the slot already has. */
static int map_stack(hal_as_t as, uintptr_t top, uint32_t pages, uint8_t *have,
		     const uint64_t *colors, unsigned flags)
{
	for (uint32_t i = *have; i < pages; i++) {
		uintptr_t pa = pt_page_alloc_in(colors);
		if (!pa)
			return PT_ENOSPC;
		memset((void *)pa, 0, HAL_PAGE_SIZE);
		if (hal_as_map(as, top - (i + 1) * HAL_PAGE_SIZE, pa, HAL_PAGE_SIZE, flags))
			return PT_ENOSPC;
		*have = (uint8_t)(i + 1);
	}
	return PT_OK;
}

static uint32_t stack_pages(uint32_t bytes, uint32_t slot_bytes)
{
	if (!bytes)
		bytes = PT_DEFAULT_STACK;
	uint32_t p = (bytes + HAL_PAGE_SIZE - 1) / HAL_PAGE_SIZE;
	uint32_t max = slot_bytes / HAL_PAGE_SIZE - 1; /* at least one guard page */
	return p > max ? max : p;
}

void pt_trace_thread_info(struct pt_thread *t)
{
	const uint64_t *w = (const uint64_t *)(const void *)t->name; /* 8-byte aligned */
	pt_trace_emit(PT_EV_THREAD_INFO, t->tid, w[0], w[1]);
}

static int16_t lowest_cpu(uint32_t mask)
{
	for (int16_t c = 0; c < PT_MAX_CPUS; c++)
		if (mask & (1u << c))
			return c;
	return 0;
}

/* Create from a validated attribute set. `start`: make it ready / arm its first release. */
static int thread_new(const struct pt_thread_attr *a, const char *name,
		      struct pt_partition *part, struct pt_sched *s, bool start, bool enforce,
		      uint32_t budget_ppm)
{
	int err;
	struct pt_thread *t = pt_thread_slot_alloc(part, enforce, &err);
	if (!t)
		return err;
	uint32_t tid = t->tid;
	uint16_t slot = t->slot;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->slot = slot;
	t->state = PT_TS_SUSPENDED;
	for (int i = 0; i < PT_THREAD_NAME_MAX && name && name[i]; i++)
		t->name[i] = name[i];
	t->part = part;
	t->user = part->user;
	t->sched = s;
	t->kind = a->kind;
	t->miss_policy = a->miss_policy;
	t->enforce_budget = a->enforce_budget;
	t->entry = a->entry;
	t->arg = a->arg;
	t->base_prio = a->priority;
	t->se.prio = a->priority;
	t->se.cpu = -1;
	t->se.pinned_cpu = a->cpu;
	t->se.tid = tid;
	t->se.abs_deadline = UINT64_MAX;
	t->inh_deadline = UINT64_MAX;
	pt_list_init(&t->se.node);
	pt_list_init(&t->wait_node);
	pt_list_init(&t->owned_mutexes);
	pt_list_init(&t->part_node);
	t->home_cpu = a->cpu >= 0 ? a->cpu : lowest_cpu(s->cpu_mask);
	t->period_cycles = pt_ns_to_cycles(a->period_ns);
	t->rel_deadline_cycles = pt_ns_to_cycles(a->deadline_ns ? a->deadline_ns : a->period_ns);
	t->offset_cycles = pt_ns_to_cycles(a->offset_ns);
	t->wcet_cycles = pt_ns_to_cycles(a->wcet_ns);
	pt_job_init_thread(t);

	/* kernel stack: the thread's own stack for kernel threads, the trap stack for user ones */
	uint32_t kp = t->user ? PT_UKSTACK_BYTES / HAL_PAGE_SIZE
			      : stack_pages(a->stack_bytes, PT_KSTACK_SLOT);
	uintptr_t ktop = HAL_KSTACK_VA + (uintptr_t)(slot + 1) * PT_KSTACK_SLOT;
	const uint64_t *kcolors = t->user ? pt_config.kdata_colors : part->colors;
	err = map_stack(0, ktop, kp, &kstack_pages[slot], kcolors, HAL_MAP_R | HAL_MAP_W);
	if (!err && t->user) {
		uintptr_t utop = PT_USTACK_VA + (uintptr_t)(slot + 1) * PT_USTACK_SLOT;
		err = map_stack(part->as, utop, stack_pages(a->stack_bytes, PT_USTACK_SLOT),
				&ustack_pages[part->id][slot], part->colors,
				HAL_MAP_R | HAL_MAP_W | HAL_MAP_U);
		t->ustack_top = utop;
	}
	if (err) {
		pt_thread_reap(t);
		return err;
	}
	t->kstack_top = ktop;
	t->kstack_lo = ktop - (uintptr_t)kp * HAL_PAGE_SIZE;
	hal_ctx_init(&t->ctx, ktop, thread_boot, t);
	t->budget_ppm = budget_ppm; /* charged by the caller; returned at reap from now on */
	pt_trace_thread_info(t);
	if (start)
		pt_job_start(t);
	return (int)tid;
}

int pt_thread_create_cfg(const struct pt_thread_cfg *cfg, struct pt_partition *part,
			 struct pt_sched *s, const char *name, bool start)
{
	struct pt_thread_attr a = {
		.name = cfg->name, .entry = cfg->entry, .arg = (void *)cfg->arg,
		.priority = cfg->priority, .cpu = cfg->cpu, .sched = (int16_t)cfg->sched,
		.kind = cfg->kind, .miss_policy = cfg->miss_policy,
		.enforce_budget = cfg->enforce_budget, .stack_bytes = cfg->stack_bytes,
		.period_ns = cfg->period_ns, .deadline_ns = cfg->deadline_ns,
		.offset_ns = cfg->offset_ns, .wcet_ns = cfg->wcet_ns,
	};
	return thread_new(&a, name, part, s, start, false, 0);
}

/* First code of every thread (after its first switch-in, or a job restart). */
static void thread_boot(void *arg)
{
	struct pt_thread *t = arg;
	pt_finish_switch();
	if (t->user)
		hal_user_enter((uintptr_t)pt_thread_body, t->ustack_top, (uint64_t)t->entry,
			       (uint64_t)t->arg, t->kind);
	hal_irq_enable();
	pt_thread_body(t->entry, t->arg, t->kind);
}

void pt_thread_restart_ctx(struct pt_thread *t)
{
	hal_ctx_init(&t->ctx, t->kstack_top, thread_boot, t);
}

/* Map `pages` of kernel stack for t's slot; the top of the stack, 0 if out of memory. */
uintptr_t pt_thread_kstack_map(struct pt_thread *t, uint32_t pages)
{
	uintptr_t ktop = HAL_KSTACK_VA + (uintptr_t)(t->slot + 1) * PT_KSTACK_SLOT;
	if (map_stack(0, ktop, pages, &kstack_pages[t->slot], pt_config.kdata_colors,
		      HAL_MAP_R | HAL_MAP_W))
		return 0;
	return ktop;
}

/* ---- stopping (faults, miss policy, delete, exit) ---- */

void pt_thread_stop(struct pt_thread *t, uint8_t reason)
{
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	pt_spin_lock(&pt_sync_lock);
	pt_sync_thread_gone(t);
	pt_spin_unlock(&pt_sync_lock);
	pt_alarm_cancel(&t->release_alarm);
	pt_alarm_cancel(&t->deadline_alarm);
	struct pt_sched *s = t->sched;
	pt_sched_lock(s);
	uint8_t st = t->state;
	if (st == PT_TS_STOPPED || st == PT_TS_DEAD || st == PT_TS_FREE) {
		pt_sched_unlock(s);
		pt_flush_deferred();
		hal_irq_restore(f);
		return;
	}
	uint8_t final = (reason == PT_STOP_DELETED || reason == PT_STOP_EXIT) ? PT_TS_DEAD
										: PT_TS_STOPPED;
	pt_trace_emit(PT_EV_THREAD_STOP, t->tid, reason, 0);
	if (t->ctr)
		t->ctr->flags |= PT_COUNTERS_STOPPED;
	t->stop_reason = reason;
	if (st == PT_TS_RUNNING) {
		if (t == c->current && c->in_timer_irq) {
			/* Stopped by an alarm of this hart's timer interrupt (miss policy stop): the
			 * interrupt must finish first (its other due alarms, the timer re-armed for
			 * the next one); its exit applies the stop (pt_trap_exit). Switching away
			 * here left the hart with no timer programmed: it never took another timer
			 * interrupt (docs/kernel.md). */
			t->stop_reason = final == PT_TS_DEAD ? PT_STOP_DELETED : reason;
			t->stop_pending = 1;
			pt_sched_unlock(s);
			pt_flush_deferred();
			hal_irq_restore(f);
			return;
		}
		if (t == c->current) {
			pt_leave_cpu_locked(c, s, final); /* never returns */
			pt_panic("stopped thread resumed");
		}
		t->stop_reason = final == PT_TS_DEAD ? PT_STOP_DELETED : reason;
		t->stop_pending = 1;
		pt_kick_cpu((uint32_t)t->se.cpu);
		pt_sched_unlock(s);
		pt_flush_deferred();
		hal_irq_restore(f);
		return;
	}
	if (st == PT_TS_READY)
		s->ops->dequeue(s, &t->se);
	t->state = final;
	pt_sched_unlock(s);
	if (final == PT_TS_DEAD)
		pt_thread_reap(t);
	pt_flush_deferred();
	hal_irq_restore(f);
}

/* ---- the native API (kernel side; arguments already validated for user callers) ---- */

/* The thread a native call names (0: the caller): live, not idle, and for a user caller in
 * its own partition; NULL otherwise. */
static struct pt_thread *api_target_thread(int tid)
{
	struct pt_thread *me = pt_current();
	struct pt_thread *t = tid == 0 ? me : pt_thread_get(tid);
	if (!t || t == pt_this_cpu()->idle || !t->sched)
		return 0;
	if (me->user && t->part != me->part)
		return 0;
	return t;
}

/*
 * Kernel time a release costs its hart beyond the job's own budget (release alarm, timer
 * interrupt, two switches; measured well below 2 us per release on one hart, doubled for two
 * busy harts under icount, rounded up): charged to the partition's budget with every job,
 * so many short periods cannot take the hart through overheads nobody's budget covers.
 */
#define PT_RELEASE_COST_NS 5000u

/* Density of a real-time thread, (wcet + release cost) / min(deadline, period), in parts
 * per million (rounded up: a budget check never under-counts). */
static uint64_t density_ppm(const struct pt_thread_attr *a)
{
	uint64_t d = a->deadline_ns && a->deadline_ns < a->period_ns ? a->deadline_ns : a->period_ns;
	uint64_t c = a->wcet_ns + PT_RELEASE_COST_NS; /* wcet <= d <= 2^62, checked */
	while (c > UINT64_MAX / 1000000u) { /* hours-long jobs: scale, rounding c up, d down */
		c = (c >> 1) + 1;
		d >>= 1;
	}
	return (c * 1000000u + d - 1) / d;
}

/* A user partition's rights (its configuration, docs/security.md): the scheduler instance,
 * the priority, and for a real-time thread the partition's CPU budget. */
static int user_create_rights(struct pt_partition *p, const struct pt_sched *s,
			      const struct pt_thread_attr *a, uint64_t *ppm)
{
	const struct pt_partition_cfg *pc = p->cfg;
	if (!(pc->sched_mask & (1u << (s - pt_scheds))) || a->priority < pc->prio_highest ||
	    a->priority > pc->prio_lowest)
		return PT_EPERM;
	*ppm = 0;
	if (a->kind == PT_KIND_APERIODIC)
		return a->priority < pc->prio_aperiodic_highest ? PT_EPERM : PT_OK;
	if (!a->wcet_ns)
		return PT_EINVAL; /* its budget is enforced: a job needs one */
	*ppm = density_ppm(a);
	return PT_OK;
}

int pt_k_thread_create(const struct pt_thread_attr *attr)
{
	struct pt_thread *me = pt_current();
	if (!attr)
		return PT_EINVAL;
	struct pt_thread_attr a = *attr;
	if (!a.entry || a.priority >= PT_PRIO_LEVELS || a.kind > PT_KIND_SPORADIC ||
	    a.miss_policy > PT_MISS_STOP)
		return PT_EINVAL;
	struct pt_sched *s = me->sched;
	if (a.sched >= 0) {
		if ((uint32_t)a.sched >= pt_config.nscheds)
			return PT_EINVAL;
		s = &pt_scheds[a.sched];
	}
	if (!s || (a.cpu >= 0 && (a.cpu >= PT_MAX_CPUS || !(s->cpu_mask & (1u << a.cpu)))))
		return PT_EINVAL;
	/* real-time timing: a platform floor on the period (releases must not take the hart)
	 * and a ceiling on every duration (release arithmetic stays far from 2^64) */
	if (a.kind != PT_KIND_APERIODIC &&
	    (a.period_ns < PT_MIN_PERIOD_NS || a.period_ns >= PT_MAX_DURATION_NS ||
	     a.deadline_ns >= PT_MAX_DURATION_NS || a.offset_ns >= PT_MAX_DURATION_NS ||
	     a.wcet_ns > a.period_ns || (a.deadline_ns && a.wcet_ns > a.deadline_ns)))
		return PT_EINVAL;
	if (!me->part)
		return PT_EPERM;
	uint64_t ppm = 0;
	if (me->user) {
		int r = user_create_rights(me->part, s, &a, &ppm);
		if (r)
			return r;
		if (a.kind != PT_KIND_APERIODIC)
			a.enforce_budget = 1; /* the budget the partition was granted holds */
	}
	/* charge the budget before the thread exists; thread_new's reap gives it back */
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pool_lock);
	struct pt_partition *p = me->part;
	bool over = me->user && p->budget_used_ppm + ppm > p->cfg->budget_ppm;
	if (!over)
		p->budget_used_ppm += ppm;
	pt_spin_unlock(&pool_lock);
	hal_irq_restore(f);
	if (over)
		return PT_EQUOTA;
	int r = thread_new(&a, a.name, p, s, true, me->user, (uint32_t)ppm);
	if (r < 0 && ppm) {
		f = hal_irq_save();
		pt_spin_lock(&pool_lock);
		p->budget_used_ppm -= ppm;
		pt_spin_unlock(&pool_lock);
		hal_irq_restore(f);
	}
	return r;
}

int pt_k_thread_delete(int tid)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t)
		return PT_EINVAL;
	pt_thread_stop(t, PT_STOP_DELETED);
	return PT_OK;
}

int pt_k_thread_suspend(int tid)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t)
		return PT_EINVAL;
	unsigned long f = hal_irq_save();
	struct pt_cpu *c = pt_this_cpu();
	struct pt_sched *s = t->sched;
	int r = PT_OK;
	pt_sched_lock(s);
	switch (t->state) {
	case PT_TS_READY:
		s->ops->dequeue(s, &t->se);
		t->state = PT_TS_SUSPENDED;
		break;
	case PT_TS_RUNNING:
		if (t == c->current) {
			pt_leave_cpu_locked(c, s, PT_TS_SUSPENDED);
			pt_flush_deferred();
			hal_irq_restore(f);
			return PT_OK;
		}
		t->suspend_pending = 1;
		pt_kick_cpu((uint32_t)t->se.cpu);
		break;
	case PT_TS_BLOCKED:
	case PT_TS_WAIT_PERIOD:
		t->suspend_pending = 1;
		break;
	case PT_TS_SUSPENDED:
		break;
	default:
		r = PT_ESTATE;
	}
	pt_sched_unlock(s);
	pt_flush_deferred();
	hal_irq_restore(f);
	return r;
}

int pt_k_thread_resume(int tid)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t)
		return PT_EINVAL;
	unsigned long f = hal_irq_save();
	struct pt_sched *s = t->sched;
	int r = PT_OK;
	pt_sched_lock(s);
	t->suspend_pending = 0;
	if (t->state == PT_TS_SUSPENDED)
		pt_ready_locked(t);
	else if (t->state == PT_TS_STOPPED)
		r = PT_ESTATE;
	pt_sched_unlock(s);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}

int pt_k_thread_set_priority(int tid, unsigned prio)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t || prio >= PT_PRIO_LEVELS)
		return PT_EINVAL;
	const struct pt_partition_cfg *pc = t->part ? t->part->cfg : 0;
	uint16_t top = !pc ? 0 : t->kind == PT_KIND_APERIODIC ? pc->prio_aperiodic_highest
							   : pc->prio_highest;
	if (pt_current()->user && pc && (prio < top || prio > pc->prio_lowest))
		return PT_EPERM; /* outside the partition's priority range */
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	t->base_prio = (uint16_t)prio;
	pt_mutex_pi_update(t);
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return PT_OK;
}

int pt_k_thread_self(void)
{
	return (int)pt_current()->tid;
}

/* The public states are the kernel's own (PT_TS_*) for every state a live thread can be in. */
_Static_assert((int)PT_THREAD_READY == (int)PT_TS_READY && (int)PT_THREAD_RUNNING == (int)PT_TS_RUNNING &&
		       (int)PT_THREAD_BLOCKED == (int)PT_TS_BLOCKED && (int)PT_THREAD_SUSPENDED == (int)PT_TS_SUSPENDED &&
		       (int)PT_THREAD_WAIT_PERIOD == (int)PT_TS_WAIT_PERIOD && (int)PT_THREAD_STOPPED == (int)PT_TS_STOPPED,
	       "the PT_THREAD_* states mirror enum pt_thread_state");

int pt_k_thread_state(int tid)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t)
		return PT_EINVAL;
	/* one read: the state may change the next instant, the answer is a snapshot */
	int st = t->state;
	if (st == PT_TS_FREE || st == PT_TS_DEAD)
		return PT_EINVAL;
	if (t->suspend_pending && st != PT_TS_STOPPED)
		return PT_THREAD_SUSPENDED; /* takes effect when it next leaves its wait or cpu */
	return st;
}

int64_t pt_k_sched_rr_slice_ns(void)
{
	const struct pt_sched *s = pt_current()->sched;
	return s && s->fp ? (int64_t)pt_cycles_to_ns(s->quantum_cycles) : 0;
}

int pt_k_thread_priority(int tid)
{
	struct pt_thread *t = api_target_thread(tid);
	if (!t || t->state == PT_TS_FREE || t->state == PT_TS_DEAD)
		return PT_EINVAL;
	return t->se.prio; /* base, or inherited (pt_mutex_pi_update) */
}

_Noreturn void pt_k_thread_exit(void)
{
	pt_thread_stop(pt_current(), PT_STOP_EXIT);
	pt_panic("exit returned");
}
