/*
 * System calls from U-mode. Every argument is checked before the kernel uses it: ids by the
 * object tables (and the caller's partition), numbers by range, pointers by walking the
 * caller's page table (hal_as_check: mapped, user-accessible, writable when written).
 * A bad argument returns PT_EINVAL; nothing a user passes can make the kernel fault.
 */
#include "kernel.h"
#include <partita/syscall.h>

extern char __user_start[], __user_data_start[];

bool pt_user_range_ok(const void *p, size_t n, bool write)
{
	struct pt_thread *t = pt_current();
	if (!t->part || !t->part->as)
		return false;
	return hal_as_check(t->part->as, (uintptr_t)p, n ? n : 1, write);
}

static bool user_code_ok(uintptr_t pc)
{
	return pc >= (uintptr_t)__user_start && pc < (uintptr_t)__user_data_start && !(pc & 1);
}

/* Copy a NUL-terminated name of at most PT_THREAD_NAME_MAX characters. The user mapping is
 * checked once per page the name touches, not per byte (each check is a page-table walk). */
static int copy_name(const char *u, char *out)
{
	int i = 0;
	if (u) {
		uintptr_t checked_end = 0; /* [.., checked_end) known readable */
		for (; i < PT_THREAD_NAME_MAX; i++) {
			uintptr_t a = (uintptr_t)(u + i);
			if (a >= checked_end) {
				uintptr_t page_end = (a | (HAL_PAGE_SIZE - 1)) + 1;
				if (!pt_user_range_ok(u + i, page_end - a, false))
					return PT_EINVAL;
				checked_end = page_end;
			}
			if (!(out[i] = u[i]))
				break;
			if (out[i] < 0x20 || out[i] > 0x7e)
				return PT_EINVAL; /* names are printable ASCII: logs and reports show them */
		}
	}
	out[i < PT_THREAD_NAME_MAX ? i : PT_THREAD_NAME_MAX] = 0;
	return PT_OK;
}

static int64_t sys_thread_create(uint64_t uattr)
{
	struct pt_thread_attr a;
	char name[PT_THREAD_NAME_MAX + 1];
	if (!pt_user_range_ok((void *)uattr, sizeof(a), false))
		return PT_EINVAL;
	memcpy(&a, (void *)uattr, sizeof(a));
	if (!user_code_ok((uintptr_t)a.entry) || copy_name(a.name, name))
		return PT_EINVAL;
	a.name = name;
	return pt_k_thread_create(&a);
}

static int64_t sys_console_write(uint64_t s, uint64_t n)
{
	if (n > 4096 || !pt_user_range_ok((void *)s, n, false))
		return PT_EINVAL;
	return pt_k_console_write((const char *)s, n);
}

static int tid_arg(uint64_t v)
{
	return v > 0x7fffffff ? -1 : (int)v;
}

/* The message buffer is checked by mq.c itself, against the size it copies, when it copies
 * (a check here would be stale after a wait: issue 7, item 1). */
static int64_t sys_mq_xfer(uint64_t nr, uint64_t id, uint64_t msg, uint64_t timeout)
{
	return nr == PT_SYS_MQ_SEND ? pt_k_mq_send(tid_arg(id), (void *)msg, timeout)
				    : pt_k_mq_recv(tid_arg(id), (void *)msg, timeout);
}

/*
 * A user partition's trace budget: the records its system calls add (SYSCALL, MARK) come
 * from a token bucket refilled at trace_records_per_ms, holding at most trace_burst. A
 * partition that calls faster gets its records counted (its counters' dropped_records), not
 * written, so it cannot fill a ring that other partitions' records need.
 */
bool pt_trace_budget_take(struct pt_thread *me)
{
	if (!me->user || !me->part || me->part->cfg->trace_burst == UINT32_MAX)
		return true; /* kernel threads, or a partition configured without a limit */
	struct pt_partition *p = me->part;
	const struct pt_partition_cfg *pc = p->cfg;
	uint64_t ms = pt_ns_to_cycles(1000000) ? pt_ns_to_cycles(1000000) : 1;
	pt_spin_lock(&p->trace_lock);
	uint64_t now = hal_cycles();
	if (now - p->trace_refill_at >= ms) {
		uint64_t n = (now - p->trace_refill_at) / ms;
		uint64_t add = n * pc->trace_records_per_ms;
		p->trace_tokens = p->trace_tokens + add > pc->trace_burst ? pc->trace_burst
									 : p->trace_tokens + add;
		p->trace_refill_at += n * ms;
	}
	bool ok = p->trace_tokens > 0;
	if (ok)
		p->trace_tokens--;
	else if (me->ctr)
		me->ctr->dropped_records++;
	pt_spin_unlock(&p->trace_lock);
	return ok;
}

int64_t pt_syscall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		   uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct pt_thread *me = pt_current();
	int64_t r;
	switch (nr) {
	case PT_SYS_THREAD_CREATE: r = sys_thread_create(a0); break;
	case PT_SYS_THREAD_DELETE: r = pt_k_thread_delete(tid_arg(a0)); break;
	case PT_SYS_THREAD_SUSPEND: r = pt_k_thread_suspend(tid_arg(a0)); break;
	case PT_SYS_THREAD_RESUME: r = pt_k_thread_resume(tid_arg(a0)); break;
	case PT_SYS_THREAD_SET_PRIORITY:
		r = a1 >= PT_PRIO_LEVELS ? PT_EINVAL : pt_k_thread_set_priority(tid_arg(a0), (unsigned)a1);
		break;
	case PT_SYS_THREAD_YIELD: pt_k_thread_yield(); r = PT_OK; break;
	case PT_SYS_THREAD_SELF: r = pt_k_thread_self(); break;
	case PT_SYS_THREAD_STATE: r = pt_k_thread_state(tid_arg(a0)); break;
	case PT_SYS_THREAD_PRIORITY: r = pt_k_thread_priority(tid_arg(a0)); break;
	case PT_SYS_THREAD_EXIT: pt_k_thread_exit();
	case PT_SYS_SLEEP_NS: r = pt_k_sleep_until(pt_time_add_sat(hal_cycles(), pt_ns_to_cycles(a0))); break;
	case PT_SYS_SLEEP_UNTIL: r = pt_k_sleep_until(a0); break;
	case PT_SYS_WAIT_NEXT_PERIOD: r = pt_k_wait_next_period(); break;
	case PT_SYS_SPORADIC_RELEASE: r = pt_k_sporadic_release(tid_arg(a0)); break;
	case PT_SYS_CONSOLE_WRITE: r = sys_console_write(a0, a1); break;
	case PT_SYS_TRACE_MARK: r = pt_k_trace_mark(a0, a1); break;
	case PT_SYS_SEM_CREATE: r = a0 > UINT32_MAX || a1 > UINT32_MAX ? PT_EINVAL : pt_k_sem_create((uint32_t)a0, (uint32_t)a1); break;
	case PT_SYS_SEM_TAKE: r = pt_k_sem_take(tid_arg(a0), a1); break;
	case PT_SYS_SEM_GIVE: r = pt_k_sem_give(tid_arg(a0)); break;
	case PT_SYS_MUTEX_CREATE: r = pt_k_mutex_create(); break;
	case PT_SYS_MUTEX_LOCK: r = pt_k_mutex_lock(tid_arg(a0), a1); break;
	case PT_SYS_MUTEX_UNLOCK: r = pt_k_mutex_unlock(tid_arg(a0)); break;
	case PT_SYS_MQ_CREATE:
		r = a0 > PT_MQ_MSG_MAX_BYTES || a1 > PT_MQ_MSG_MAX_BYTES ? PT_EINVAL
			: pt_k_mq_create((uint32_t)a0, (uint32_t)a1);
		break;
	case PT_SYS_MQ_SEND:
	case PT_SYS_MQ_RECV: r = sys_mq_xfer(nr, a0, a1, a2); break;
	case PT_SYS_MQ_SEND_FRONT: r = pt_k_mq_send_front(tid_arg(a0), (void *)a1, a2); break;
	case PT_SYS_MQ_PEEK: r = pt_k_mq_peek(tid_arg(a0), (void *)a1, a2); break;
	case PT_SYS_MQ_OVERWRITE: r = pt_k_mq_overwrite(tid_arg(a0), (void *)a1); break;
	case PT_SYS_MQ_COUNT: r = pt_k_mq_count(tid_arg(a0)); break;
	case PT_SYS_SCHED_RR_SLICE: r = pt_k_sched_rr_slice_ns(); break;
	case PT_SYS_IRQ_WAIT: r = pt_k_irq_wait(); break;
	case PT_SYS_THREAD_ABORT_WAIT: r = pt_k_thread_abort_wait(tid_arg(a0)); break;
	case PT_SYS_SEM_COUNT: r = pt_k_sem_count(tid_arg(a0)); break;
	case PT_SYS_SEM_DELETE: r = pt_k_sem_delete(tid_arg(a0)); break;
	case PT_SYS_MUTEX_DELETE: r = pt_k_mutex_delete(tid_arg(a0)); break;
	case PT_SYS_MQ_DELETE: r = pt_k_mq_delete(tid_arg(a0)); break;
	/* heap pointers are looked up in the caller's own partition's heaps only (heaps.c) */
	case PT_SYS_HEAP_ALLOC: r = (int64_t)pt_k_heap_alloc(a0, a1, a2 > UINT32_MAX ? UINT32_MAX : (uint32_t)a2); break;
	case PT_SYS_HEAP_FREE: r = pt_k_heap_free(a0); break;
	case PT_SYS_HEAP_REALLOC: r = (int64_t)pt_k_heap_realloc(a0, a1); break;
	case PT_SYS_HEAP_INFO: r = pt_k_heap_info(a0, a1); break;
	default: r = nr >= PT_SYS_SUBSYS_FIRST ? pt_subsys_syscall(nr, a0, a1, a2, a3) : PT_EINVAL;
	}
	/* system calls run with interrupts masked (arch trap entry) */
	if (pt_trace_budget_take(me))
		pt_trace_emit(PT_EV_SYSCALL, me->tid, nr, (uint64_t)r);
	return r;
}

int pt_k_console_write(const char *s, size_t n)
{
	hal_console_write(s, n);
	return (int)n;
}

int pt_k_trace_mark(uint64_t a0, uint64_t a1)
{
	struct pt_thread *me = pt_current();
	unsigned long f = hal_irq_save();
	bool ok = pt_trace_budget_take(me);
	if (ok)
		pt_trace_emit(PT_EV_MARK, me->tid, a0, a1);
	hal_irq_restore(f);
	return ok ? PT_OK : PT_EAGAIN;
}
