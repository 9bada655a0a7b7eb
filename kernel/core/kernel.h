/*
 * Internal interfaces of the portable kernel core (threads, scheduler glue, time, partitions).
 * Only kernel/core and kernel/sync include this. Hardware is reached through partita/hal*.h.
 */
#ifndef PARTITA_CORE_KERNEL_H
#define PARTITA_CORE_KERNEL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <partita/hal.h>
#include <partita/hal_cpu.h>
#include <partita/config.h>
#include <partita/list.h>
#include <partita/trace.h>
#include <partita/api.h>
#include <partita/sync.h>
#include "sched/sched.h"
#include "trace/trace.h"

/*
 * PT_ASSERT(cond): an invariant of the core. Compiled in for every tested image (the check is
 * a compare and a not-taken branch; a failure panics naming the condition, file and line);
 * compiled out with PT_ASSERTS=0 (the lean image `partita bench` measures "tracing off" on).
 */
#ifndef PT_ASSERTS
#define PT_ASSERTS 1
#endif
_Noreturn void pt_assert_fail(const char *cond, const char *file, int line);
#if PT_ASSERTS
#define PT_ASSERT(cond)                                                                     \
	do {                                                                                \
		if (__builtin_expect(!(cond), 0))                                           \
			pt_assert_fail(#cond, __FILE__, __LINE__);                          \
	} while (0)
#else
#define PT_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/* PT_MAX_THREADS, PT_MAX_PARTITIONS, PT_MAX_SCHEDS: <partita/limits.h> (via config.h) */
#define PT_KSTACK_SLOT PT_STACK_SLOT_BYTES /* VA per thread slot in the kernel-stack window */
#define PT_USTACK_SLOT PT_STACK_SLOT_BYTES
#define PT_USTACK_VA (HAL_USER_VA + 0x20000000ul)
#define PT_UKSTACK_BYTES (8 * 1024)  /* kernel stack of a user thread (traps, syscalls) */
#define PT_DEFAULT_STACK (8 * 1024)

/* ---- ticket spinlocks (interrupts must be masked by the caller) ----
 * Elided on a one-hart system (pt_config.ncpus == 1): with interrupts masked nothing else can
 * run on the only hart, so the lock would never be contended (and a handler taking a lock its
 * own hart holds would deadlock with or without it). One load and branch instead of an atomic
 * add, a spin test and a release store per lock pair. */
#define PT_SPIN_LOOKS 64u
struct pt_spinlock {
	uint32_t next, owner;
};
static inline void pt_ticket_lock(uint32_t *next, uint32_t *owner)
{
	if (pt_config.ncpus == 1)
		return;
	uint32_t me = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
	/* A waiter looks PT_SPIN_LOOKS times, then pauses (hal_spin_pause ends its turn where
	 * the harts run in turns, so a holder that lost its turn inside the section gets one);
	 * an uncontended lock never pauses. */
	for (uint32_t n = 1; __atomic_load_n(owner, __ATOMIC_ACQUIRE) != me; n++)
		if (n % PT_SPIN_LOOKS == 0)
			hal_spin_pause();
}
static inline void pt_ticket_unlock(uint32_t *owner)
{
	if (pt_config.ncpus == 1)
		return;
	__atomic_store_n(owner, *owner + 1, __ATOMIC_RELEASE);
}
static inline void pt_spin_lock(struct pt_spinlock *l) { pt_ticket_lock(&l->next, &l->owner); }
static inline void pt_spin_unlock(struct pt_spinlock *l) { pt_ticket_unlock(&l->owner); }
static inline void pt_sched_lock(struct pt_sched *s) { pt_ticket_lock(&s->lock_next, &s->lock_owner); }
static inline void pt_sched_unlock(struct pt_sched *s) { pt_ticket_unlock(&s->lock_owner); }

/* ---- alarms: per-cpu queue ordered by time; the one-shot timer is armed for the head ---- */
struct pt_alarm {
	struct pt_list node;
	uint64_t when;
	uint64_t data;
	void (*fn)(struct pt_alarm *a);
	int16_t cpu; /* queue it is on, -1 when not queued */
};

enum pt_thread_state {
	PT_TS_FREE = 0,
	PT_TS_READY,       /* in its scheduler's ready structure */
	PT_TS_RUNNING,
	PT_TS_BLOCKED,     /* on a wait queue or sleeping */
	PT_TS_SUSPENDED,
	PT_TS_WAIT_PERIOD, /* real-time thread between jobs */
	PT_TS_STOPPED,     /* stopped by the kernel (fault, miss policy); never runs again */
	PT_TS_DEAD,        /* deleted; slot freed once it is off its cpu */
};

/* arg0 of PT_EV_THREAD_STOP */
enum pt_stop_reason {
	PT_STOP_FAULT = 1,
	PT_STOP_MISS = 2,      /* miss_policy == stop */
	PT_STOP_BUDGET = 3,    /* job exceeded wcet: the job is aborted, the thread continues */
	PT_STOP_PARTITION = 4, /* another thread of its partition faulted */
	PT_STOP_DELETED = 5,
	PT_STOP_EXIT = 6,
};

struct pt_partition {
	const struct pt_partition_cfg *cfg;
	uint16_t id;
	uint8_t user;
	uint8_t fault_policy;
	hal_as_t as;          /* 0 for kernel partitions */
	const uint64_t *colors;
	uintptr_t heap_lo, heap_hi;
	/* quota use (pt_sync_lock for objects, pool_lock for threads) and run-time budget */
	uint32_t used[PT_QUOTA_COUNT];
	uint64_t budget_used_ppm;     /* density of the real-time threads it created, ppm */
	uint64_t trace_tokens;        /* token bucket of its syscall trace records */
	uint64_t trace_refill_at;     /* cycles of the last refill */
	struct pt_spinlock trace_lock;
};

struct pt_thread {
	struct hal_ctx ctx;            /* callee-saved registers of a switched-out thread */
	struct pt_sched_entity se;
	struct pt_sched *sched;
	struct pt_partition *part;
	uint32_t tid;
	uint16_t slot;
	uint16_t base_prio;            /* priority before inheritance */
	volatile uint8_t state;        /* enum pt_thread_state; changes under sched->lock */
	uint8_t user, kind, miss_policy, enforce_budget;
	volatile uint8_t stop_pending, suspend_pending;
	uint8_t restart_job, skip_next, job_active, stop_reason;
	uint8_t held;                  /* released job held by its policy (on_release) */
	char name[16] __attribute__((aligned(8))); /* two words: the THREAD_INFO record's args */
	void (*entry)(void *);
	void *arg;
	uintptr_t kstack_top, kstack_lo, ustack_top;
	/* real time (cycles) */
	uint64_t period_cycles, rel_deadline_cycles, wcet_cycles, offset_cycles;
	uint64_t job;                  /* number of the last released job (1, 2, ...) */
	uint64_t pending;              /* released jobs queued behind the active one */
	uint64_t dl_checked;           /* last job whose deadline alarm fired */
	uint64_t release_at_cycles, next_release_cycles, last_sporadic;
	uint64_t dispatched_at, exec_job;
	uint64_t n_done, n_miss, n_overrun, n_budget, max_response;
	int16_t home_cpu;              /* cpu whose alarm queue holds its releases */
	uint32_t budget_ppm;           /* density charged to its partition's run-time budget */
	uint64_t inh_deadline;         /* earliest deadline inherited from its mutexes' waiters
					* (UINT64_MAX: none); se.abs_deadline = min(job's, this) */
	struct pt_thread_counters *ctr; /* its kernel counters in the trace area (truth) */
	struct pt_alarm release_alarm, deadline_alarm, timeout_alarm;
	/* blocking (under the sync lock) */
	struct pt_list wait_node;
	struct pt_waitq *waitq;
	int wait_result;
	uint32_t wait_gen;
	struct pt_mutex *blocked_on;
	struct pt_list owned_mutexes;
	/* message-queue transfer */
	struct pt_list part_node;
};

struct pt_cpu {
	struct hal_percpu hal;         /* first: the trap entry finds it through tp */
	uint32_t id;
	uint8_t online;
	volatile uint8_t need_resched;
	uint8_t in_timer_irq;          /* inside pt_irq_timer: a stop of the current thread is
					* deferred to the irq's exit (thread.c) */
	uint8_t timer_dirty;           /* the timer must be re-programmed (pt_flush_deferred) */
	uint8_t sched_event_stale;     /* ask the policy's next_event again (schedule_locked) */
	uint8_t irq_follow;            /* the PLIC threshold follows each dispatch (irq.c) */
	uint32_t ipi_mask;             /* IPIs to send once no lock is held */
	struct pt_sched *sched;        /* NULL for non-application roles */
	struct pt_thread *current, *idle, *reap;
	hal_as_t as;                   /* address space loaded in satp */
	struct pt_spinlock alarm_lock;
	struct pt_list alarms;
	uint64_t sched_event_cycles;   /* the policy's next timed event here (next_event) */
	uint64_t budget_end_cycles;    /* end of the running job's budget; UINT64_MAX = none */
	uint64_t irqs, switches;
};

/*
 * Kernel data placed in the kernel data window (kdata.c): thread control blocks, per-cpu
 * data, scheduler instances and kernel object pools. The window is mapped at boot to pages
 * of pt_config.kdata_colors, so such a variable may be touched only once pt_kdata_init has
 * run (hart 0) or paging is on (other harts). Zero at boot, like .bss.
 */
#define PT_KDATA __attribute__((section(".kdata")))

extern struct pt_cpu pt_cpus[PT_MAX_CPUS];
extern struct pt_thread pt_threads[PT_MAX_THREADS];
extern struct pt_sched pt_scheds[PT_MAX_SCHEDS];
extern struct pt_partition pt_partitions[PT_MAX_PARTITIONS];
extern uint64_t pt_epoch;

static inline struct pt_cpu *pt_this_cpu(void) { return (struct pt_cpu *)hal_percpu_get(); }
static inline struct pt_thread *pt_current(void) { return pt_this_cpu()->current; }
static inline struct pt_thread *pt_thread_of(struct pt_sched_entity *e)
{
	return pt_container_of(e, struct pt_thread, se);
}
static inline uint64_t pt_ns_to_cycles(uint64_t ns)
{
	return ns == UINT64_MAX ? UINT64_MAX : ns >> pt_config.icount_shift;
}
static inline uint64_t pt_cycles_to_ns(uint64_t c) { return c << pt_config.icount_shift; }
/* a + b, saturating at UINT64_MAX ("never"): time arithmetic must not wrap into the past */
static inline uint64_t pt_time_add_sat(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;
	return r < a ? UINT64_MAX : r;
}

/* printk.c */
int pt_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void pt_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* trace: the writer is kernel/trace (pt_trace_emit, pt_trace_init) */
void pt_trace_thread_info(struct pt_thread *t);

/* memory (mem.c over kernel/mm) */
void pt_mem_init(void);
uintptr_t pt_page_alloc_in(const uint64_t *colors); /* one page of those colors; 0 if none */
uintptr_t pt_pages_alloc_color(uint32_t color);                  /* that color only; 0 if none */
void pt_pages_free(uintptr_t pa);
uint32_t pt_mem_colors(void);                                    /* configured (super) colors */

/* kernel data coloring (kdata.c) */
uintptr_t pt_kdata_page(void); /* a zeroed page of the kernel data colors; 0 if none */
void pt_kdata_init(void);      /* hart 0, paging on: map the kernel data window */
void pt_kdata_trace_rings(void); /* hart 0, after pt_kdata_init: rings to the kernel colors */
bool pt_kdata_tables_colored(void); /* page tables from pt_kdata_page, else the image's pool */

/* colored heaps (heaps.c over kernel/mm/heap.c; <partita/heap.h>) */
void pt_heaps_init(void);                       /* boot, after the partitions */
uintptr_t pt_k_heap_alloc(uint64_t n, uint64_t size, uint32_t flags); /* 0 on error */
int pt_k_heap_free(uintptr_t p);
uintptr_t pt_k_heap_realloc(uintptr_t p, uint64_t bytes);
int64_t pt_k_heap_info(uint64_t what, uintptr_t p);
/* The system heap: kernel data in the kernel's colors (kernel_heap_bytes per color). */
void *pt_kheap_alloc(size_t bytes);
int pt_kheap_free(void *p);

/* sched_core.c — all with interrupts masked */
void pt_sched_init(void);
void pt_sched_subsys_hooks(void); /* after the subsystems booted: their dispatch hooks */
void pt_schedule(void);                                /* preemption point, no locks held */
/* The one way a thread leaves its cpu without being preempted: the current thread takes
 * `state` (BLOCKED, SUSPENDED, WAIT_PERIOD, STOPPED, DEAD) and the best ready thread runs.
 * s locked on entry; returns (unlocked) when the thread is dispatched again, never for
 * STOPPED / DEAD. Preemption goes through pt_schedule; both end in one switch routine. */
void pt_leave_cpu_locked(struct pt_cpu *c, struct pt_sched *s, uint8_t state);
void pt_finish_switch(void);
void pt_ready_locked(struct pt_thread *t);            /* t->sched locked */
void pt_kick_cpu(uint32_t cpu);
void pt_set_prio_locked(struct pt_thread *t, uint16_t prio);
/* Effective EDF key change (deadline inheritance); t->sched locked. */
void pt_set_deadline_locked(struct pt_thread *t, uint64_t abs_deadline);
void pt_trap_exit(bool to_user);

/* thread.c */
void pt_threads_init(void);
int pt_thread_create_cfg(const struct pt_thread_cfg *cfg, struct pt_partition *part,
			 struct pt_sched *s, const char *name, bool start);
struct pt_thread *pt_thread_get(int tid);               /* live thread or NULL */
void pt_thread_stop(struct pt_thread *t, uint8_t reason); /* any state, any cpu */
void pt_idle_create(struct pt_cpu *c);
void pt_thread_reap(struct pt_thread *t);
void pt_thread_start_initial(uint32_t cpu);
void pt_thread_restart_ctx(struct pt_thread *t);        /* next switch-in starts a new job */
struct pt_thread *pt_thread_slot_alloc(struct pt_partition *part, bool enforce, int *err);
uintptr_t pt_thread_kstack_map(struct pt_thread *t, uint32_t pages); /* stack top; 0: no memory */

/* arg0 of IRQ_ENTER / IRQ_EXIT records: the interrupt cause (RISC-V scause code) */
#define PT_IRQ_CAUSE_TIMER 5 /* supervisor timer */

/* Exit codes of the machine (hal_poweroff, the trace area's exit code, arg0 of SHUTDOWN). */
enum pt_exit_code {
	PT_EXIT_OK = 0,
	PT_EXIT_PANIC = 1,          /* pt_panic */
	PT_EXIT_TRAP = 2,           /* an unexpected trap in the kernel */
	PT_EXIT_STACK_OVERFLOW = 3, /* a kernel stack overflowed into its guard page */
};

/* irq.c (docs/interrupts.md) */
void pt_irq_init(void);
void pt_irq_bind(const struct pt_thread_cfg *tc, struct pt_thread *t);
void pt_irq_boot(void);
void pt_irq_follow(struct pt_cpu *c, const struct pt_thread *next);
int pt_k_irq_wait(void);

/* time.c */
void pt_alarm_init(struct pt_alarm *a, void (*fn)(struct pt_alarm *));
void pt_alarm_arm(struct pt_alarm *a, uint64_t when);  /* on the calling cpu's queue */
void pt_alarm_arm_on(struct pt_alarm *a, uint64_t when, uint32_t cpu); /* on cpu's queue */
void pt_alarm_cancel(struct pt_alarm *a);
void pt_timer_reprogram(struct pt_cpu *c);  /* marks the timer dirty */
/* Program the timer and send IPIs decided while locks were held. Call with no lock held:
 * under QEMU icount both end the hart's time slice, so they must not happen in a critical
 * section another hart may be spinning on (docs/kernel.md). */
void pt_flush_deferred_slow(struct pt_cpu *c);
static inline void pt_flush_deferred(void)
{
	struct pt_cpu *c = pt_this_cpu();
	if (c->ipi_mask | c->timer_dirty)
		pt_flush_deferred_slow(c); /* the common case (nothing deferred) stays inline */
}
void pt_time_start(uint32_t cpu);
/* Preemption point after waking someone (interrupts masked, no lock held). */
static inline void pt_preempt_point(void)
{
	if (pt_this_cpu()->need_resched)
		pt_schedule();
	pt_flush_deferred();
}

/* job.c */
void pt_job_init_thread(struct pt_thread *t);
void pt_job_start(struct pt_thread *t);                  /* arm the first release */
void pt_job_account_out(struct pt_thread *t, uint64_t now); /* switched out */
void pt_job_budget_arm(struct pt_cpu *c, struct pt_thread *t, uint64_t now);
void pt_job_budget_expired(struct pt_cpu *c);
void pt_job_summary(void);
void pt_job_counters_init(void);
uint64_t pt_job_deadline(const struct pt_thread *t); /* active job's, else UINT64_MAX */                         /* boot, before any thread */

/* sync (kernel/sync) — blocking glue in sync/waitq.c */
extern struct pt_spinlock pt_sync_lock;
void pt_waitq_init(struct pt_waitq *q);
/* Block the current thread on q (sync lock held; released on return). Result: PT_OK,
 * PT_ETIMEDOUT, or what the waker passed. */
int pt_block(struct pt_waitq *q, uint8_t obj_kind, uint32_t obj_id, uint64_t timeout_cycles);
/* Wake t (on q, sync lock held) with result. */
void pt_wake(struct pt_thread *t, int result);
struct pt_thread *pt_waitq_first(struct pt_waitq *q);
void pt_waitq_reposition(struct pt_thread *t);
void pt_waitq_insert(struct pt_waitq *q, struct pt_thread *t); /* by policy key, FIFO */
void pt_sync_thread_gone(struct pt_thread *t);          /* remove from queues, drop mutexes */
void pt_sync_release_owned(struct pt_thread *t, int code); /* hand its mutexes on */
void pt_mutex_pi_update(struct pt_thread *t);

/* kernel implementations behind the pt_* stubs */
int pt_k_thread_create(const struct pt_thread_attr *a);
int pt_k_thread_delete(int tid);
int pt_k_thread_suspend(int tid);
int pt_k_thread_resume(int tid);
int pt_k_thread_set_priority(int tid, unsigned prio);
void pt_k_thread_yield(void);
int pt_k_thread_self(void);
int pt_k_thread_state(int tid);
int pt_k_thread_priority(int tid);
int pt_k_thread_abort_wait(int tid);
int64_t pt_k_sched_rr_slice_ns(void);
_Noreturn void pt_k_thread_exit(void);
int pt_k_sleep_until(uint64_t abs_cycles);
int pt_k_wait_next_period(void);
int pt_k_sporadic_release(int tid);
int pt_k_console_write(const char *s, size_t n);
int pt_k_trace_mark(uint64_t a0, uint64_t a1);
int pt_k_sem_create(uint32_t initial, uint32_t max);
int pt_k_sem_take(int id, uint64_t timeout_ns);
int pt_k_sem_give(int id);
int pt_k_mutex_create(void);
int pt_k_mutex_lock(int id, uint64_t timeout_ns);
int pt_k_mutex_unlock(int id);
int pt_k_mq_create(uint32_t msg_bytes, uint32_t capacity);
int pt_k_mq_send(int id, const void *msg, uint64_t timeout_ns);
int pt_k_mq_recv(int id, void *msg, uint64_t timeout_ns);
int pt_k_mq_send_front(int id, const void *msg, uint64_t timeout_ns);
int pt_k_mq_peek(int id, void *msg, uint64_t timeout_ns);
int pt_k_mq_overwrite(int id, const void *msg);
int pt_k_mq_count(int id);
int pt_k_sem_count(int id);
int pt_k_sem_delete(int id);
int pt_k_mutex_delete(int id);
int pt_k_mq_delete(int id);
void pt_waitq_wake_all(struct pt_waitq *q, int result); /* pt_sync_lock held */

/* subsystem registry (subsys.c, <partita/subsys.h>): the hooks of linked subsystems */
enum { PT_SUBSYS_HOOK_RELEASE = 1, PT_SUBSYS_HOOK_COMPLETE = 2, PT_SUBSYS_HOOK_FAULT = 4,
       PT_SUBSYS_HOOK_DISPATCH = 8, PT_SUBSYS_HOOK_PREEMPT_POINT = 16 };
extern uint32_t pt_subsys_hooks;
void pt_subsys_boot_all(void);
void pt_subsys_cpu_entry_all(uint32_t cpu);
void pt_subsys_release_slow(uint32_t tid, uint64_t job);
void pt_subsys_complete_slow(uint32_t tid, uint64_t job, uint64_t response_cycles);
void pt_subsys_fault_slow(uint32_t tid, uint64_t cause, uint64_t addr);
void pt_subsys_dispatch_slow(uint32_t cpu, uint32_t prev_tid, uint32_t next_tid);
void pt_subsys_preempt_point_slow(uint32_t cpu);
int64_t pt_subsys_syscall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);
static inline void pt_subsys_on_release(uint32_t tid, uint64_t job)
{
	if (pt_subsys_hooks & PT_SUBSYS_HOOK_RELEASE)
		pt_subsys_release_slow(tid, job);
}
static inline void pt_subsys_on_preempt_point(uint32_t cpu)
{
	if (pt_subsys_hooks & PT_SUBSYS_HOOK_PREEMPT_POINT)
		pt_subsys_preempt_point_slow(cpu);
}
static inline void pt_subsys_on_complete(uint32_t tid, uint64_t job, uint64_t resp)
{
	if (pt_subsys_hooks & PT_SUBSYS_HOOK_COMPLETE)
		pt_subsys_complete_slow(tid, job, resp);
}

/* user window helpers (api_stubs.c) */
void pt_thread_body(void (*entry)(void *), void *arg, uint64_t kind);
bool pt_user_range_ok(const void *p, size_t n, bool write);
/* A user thread's syscall trace record may be written (its partition's token bucket);
 * interrupts masked. Kernel threads: always. */
bool pt_trace_budget_take(struct pt_thread *me);

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);

#endif
