/*
 * The pt_* API entry points. They sit in the user window (.utext) so both kinds of threads can
 * call them: in U-mode the thread pointer is 0 (the kernel keeps its per-cpu block there in
 * S-mode), so a stub either traps with `ecall` or calls the kernel implementation directly.
 * Keep this file free of string literals and switch tables: .rodata is not user-readable.
 */
#include <partita/api.h>
#include <partita/sync.h>
#include <partita/syscall.h>
#include <partita/heap.h>
#include <partita/config.h>
#include <partita/irq.h>
#include "kernel.h"

#define UTEXT __attribute__((section(".utext")))

/* Copy of pt_config.icount_shift readable from U-mode; set at boot. */
uint32_t pt_user_icount_shift __attribute__((section(".udata")));

static inline __attribute__((always_inline)) int in_user(void)
{
	uintptr_t tp;
	__asm__ volatile("mv %0, tp" : "=r"(tp));
	return tp == 0;
}

#define SYS(nr, a0, a1, a2) pt_syscall6((nr), (long)(a0), (long)(a1), (long)(a2), 0, 0, 0)

UTEXT int pt_thread_create(const struct pt_thread_attr *a)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_CREATE, a, 0, 0) : pt_k_thread_create(a);
}
UTEXT int pt_thread_delete(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_DELETE, tid, 0, 0) : pt_k_thread_delete(tid);
}
UTEXT int pt_thread_suspend(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_SUSPEND, tid, 0, 0) : pt_k_thread_suspend(tid);
}
UTEXT int pt_thread_resume(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_RESUME, tid, 0, 0) : pt_k_thread_resume(tid);
}
UTEXT int pt_thread_set_priority(int tid, unsigned prio)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_SET_PRIORITY, tid, prio, 0)
			 : pt_k_thread_set_priority(tid, prio);
}
UTEXT void pt_thread_yield(void)
{
	if (in_user())
		SYS(PT_SYS_THREAD_YIELD, 0, 0, 0);
	else
		pt_k_thread_yield();
}
UTEXT int pt_irq_wait(void)
{
	return in_user() ? (int)SYS(PT_SYS_IRQ_WAIT, 0, 0, 0) : pt_k_irq_wait();
}
UTEXT int pt_thread_self(void)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_SELF, 0, 0, 0) : pt_k_thread_self();
}
UTEXT _Noreturn void pt_thread_exit(void)
{
	if (in_user())
		SYS(PT_SYS_THREAD_EXIT, 0, 0, 0);
	pt_k_thread_exit();
}
UTEXT uint64_t pt_time_cycles(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c >> pt_user_icount_shift;
}
UTEXT unsigned pt_time_shift(void)
{
	return pt_user_icount_shift;
}
UTEXT int pt_thread_state(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_STATE, tid, 0, 0) : pt_k_thread_state(tid);
}
UTEXT int pt_thread_priority(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_PRIORITY, tid, 0, 0) : pt_k_thread_priority(tid);
}
UTEXT int pt_thread_abort_wait(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_THREAD_ABORT_WAIT, tid, 0, 0) : pt_k_thread_abort_wait(tid);
}
UTEXT int64_t pt_sched_rr_slice_ns(void)
{
	return in_user() ? SYS(PT_SYS_SCHED_RR_SLICE, 0, 0, 0) : pt_k_sched_rr_slice_ns();
}
UTEXT int pt_sleep_until(uint64_t abs_cycles)
{
	return in_user() ? (int)SYS(PT_SYS_SLEEP_UNTIL, abs_cycles, 0, 0)
			 : pt_k_sleep_until(abs_cycles);
}
UTEXT int pt_sleep_ns(uint64_t ns)
{
	uint64_t c = ns >> pt_user_icount_shift;
	return pt_sleep_until(pt_time_add_sat(pt_time_cycles(), c)); /* huge: forever, not past */
}
UTEXT int pt_wait_next_period(void)
{
	return in_user() ? (int)SYS(PT_SYS_WAIT_NEXT_PERIOD, 0, 0, 0) : pt_k_wait_next_period();
}
UTEXT int pt_sporadic_release(int tid)
{
	return in_user() ? (int)SYS(PT_SYS_SPORADIC_RELEASE, tid, 0, 0)
			 : pt_k_sporadic_release(tid);
}
UTEXT int pt_console_write(const char *s, size_t n)
{
	return in_user() ? (int)SYS(PT_SYS_CONSOLE_WRITE, s, n, 0) : pt_k_console_write(s, n);
}
UTEXT int pt_trace_mark(uint64_t a0, uint64_t a1)
{
	return in_user() ? (int)SYS(PT_SYS_TRACE_MARK, a0, a1, 0) : pt_k_trace_mark(a0, a1);
}
UTEXT int pt_sem_create(uint32_t initial, uint32_t max)
{
	return in_user() ? (int)SYS(PT_SYS_SEM_CREATE, initial, max, 0)
			 : pt_k_sem_create(initial, max);
}
UTEXT int pt_sem_take(int id, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_SEM_TAKE, id, timeout_ns, 0)
			 : pt_k_sem_take(id, timeout_ns);
}
UTEXT int pt_sem_give(int id)
{
	return in_user() ? (int)SYS(PT_SYS_SEM_GIVE, id, 0, 0) : pt_k_sem_give(id);
}
UTEXT int pt_mutex_create(void)
{
	return in_user() ? (int)SYS(PT_SYS_MUTEX_CREATE, 0, 0, 0) : pt_k_mutex_create();
}
UTEXT int pt_mutex_lock(int id, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_MUTEX_LOCK, id, timeout_ns, 0)
			 : pt_k_mutex_lock(id, timeout_ns);
}
UTEXT int pt_mutex_unlock(int id)
{
	return in_user() ? (int)SYS(PT_SYS_MUTEX_UNLOCK, id, 0, 0) : pt_k_mutex_unlock(id);
}
UTEXT int pt_mq_create(uint32_t msg_bytes, uint32_t capacity)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_CREATE, msg_bytes, capacity, 0)
			 : pt_k_mq_create(msg_bytes, capacity);
}
UTEXT int pt_mq_send(int id, const void *msg, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_SEND, id, msg, timeout_ns)
			 : pt_k_mq_send(id, msg, timeout_ns);
}
UTEXT int pt_mq_recv(int id, void *msg, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_RECV, id, msg, timeout_ns)
			 : pt_k_mq_recv(id, msg, timeout_ns);
}
UTEXT int pt_mq_send_front(int id, const void *msg, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_SEND_FRONT, id, msg, timeout_ns)
			 : pt_k_mq_send_front(id, msg, timeout_ns);
}
UTEXT int pt_mq_peek(int id, void *msg, uint64_t timeout_ns)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_PEEK, id, msg, timeout_ns)
			 : pt_k_mq_peek(id, msg, timeout_ns);
}
UTEXT int pt_mq_overwrite(int id, const void *msg)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_OVERWRITE, id, msg, 0) : pt_k_mq_overwrite(id, msg);
}
UTEXT int pt_sem_count(int id)
{
	return in_user() ? (int)SYS(PT_SYS_SEM_COUNT, id, 0, 0) : pt_k_sem_count(id);
}
UTEXT int pt_mq_count(int id)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_COUNT, id, 0, 0) : pt_k_mq_count(id);
}

/*
 * Every thread starts here (kernel threads by a call, user threads by sret). A periodic or
 * sporadic thread runs one job per call of its entry; anything else runs its entry once.
 */
UTEXT void pt_thread_body(void (*entry)(void *), void *arg, uint64_t kind)
{
	if (kind == PT_KIND_PERIODIC || kind == PT_KIND_SPORADIC) {
		for (;;) {
			entry(arg);
			pt_wait_next_period();
		}
	}
	entry(arg);
	pt_thread_exit();
}

UTEXT int pt_sem_delete(int id)
{
	return in_user() ? (int)SYS(PT_SYS_SEM_DELETE, id, 0, 0) : pt_k_sem_delete(id);
}

UTEXT int pt_mutex_delete(int id)
{
	return in_user() ? (int)SYS(PT_SYS_MUTEX_DELETE, id, 0, 0) : pt_k_mutex_delete(id);
}

UTEXT int pt_mq_delete(int id)
{
	return in_user() ? (int)SYS(PT_SYS_MQ_DELETE, id, 0, 0) : pt_k_mq_delete(id);
}

/* ---- colored heaps (<partita/heap.h>; kernel side in heaps.c) ---- */
UTEXT void *pt_malloc(size_t bytes)
{
	return in_user() ? (void *)SYS(PT_SYS_HEAP_ALLOC, 1, bytes, PT_HEAP_SYS_OS)
			 : (void *)pt_k_heap_alloc(1, bytes, PT_HEAP_SYS_OS);
}
UTEXT void *pt_malloc_color(size_t bytes, unsigned color)
{
	uint32_t c = color > 0xffffu ? 0xffffu : color; /* out of range either way: PT_ECOLOR */
	return in_user() ? (void *)SYS(PT_SYS_HEAP_ALLOC, 1, bytes, c)
			 : (void *)pt_k_heap_alloc(1, bytes, c);
}
UTEXT void *pt_calloc(size_t n, size_t size)
{
	uint32_t fl = PT_HEAP_SYS_OS | PT_HEAP_SYS_ZERO; /* n * size is checked by the kernel */
	return in_user() ? (void *)SYS(PT_SYS_HEAP_ALLOC, n, size, fl)
			 : (void *)pt_k_heap_alloc(n, size, fl);
}
UTEXT void *pt_realloc(void *p, size_t bytes)
{
	return in_user() ? (void *)SYS(PT_SYS_HEAP_REALLOC, p, bytes, 0)
			 : (void *)pt_k_heap_realloc((uintptr_t)p, bytes);
}
UTEXT int pt_free(void *p)
{
	return in_user() ? (int)SYS(PT_SYS_HEAP_FREE, p, 0, 0) : pt_k_heap_free((uintptr_t)p);
}
UTEXT int pt_heap_last_error(void)
{
	return in_user() ? (int)SYS(PT_SYS_HEAP_INFO, PT_HEAP_INFO_LAST_ERROR, 0, 0)
			 : (int)pt_k_heap_info(PT_HEAP_INFO_LAST_ERROR, 0);
}
UTEXT int pt_heap_color_of(const void *p)
{
	return in_user() ? (int)SYS(PT_SYS_HEAP_INFO, PT_HEAP_INFO_COLOR_OF, p, 0)
			 : (int)pt_k_heap_info(PT_HEAP_INFO_COLOR_OF, (uintptr_t)p);
}
