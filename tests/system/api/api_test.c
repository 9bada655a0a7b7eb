/*
 * System test of the native API: dynamic threads (create, suspend, resume, set-priority,
 * delete), semaphores with timeouts, mutex priority inheritance, message queues across
 * cores, and the same calls from a user thread through system calls. Prints one line per
 * check ("api: ok <name>" / "api: FAIL <name>") and "api: done pass=N fail=M".
 * Threads: api_main (kernel, cpu0, prio 10) drives; api_user (user partition, cpu1) joins.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/config.h>
#include <partita/sync.h>

#include "lib/ufmt.h"

static volatile int order[16];
static volatile int norder;
/* shared with api_user, which runs in the user partition `app` */
static volatile int flag PT_SHARED;
static volatile int sem_id PT_SHARED = -1, mq_id PT_SHARED = -1, mutex_id PT_SHARED = -1,
		    done_sem PT_SHARED = -1;
static volatile uint64_t rx_sum;
static int pass, fail;
static volatile int del_sem = -1, del_mq = -1, del_result;

static void check(int ok, const char *name)
{
	char b[96];
	int k = 0;
	const char *p = ok ? "api: ok " : "api: FAIL ";
	while (*p)
		b[k++] = *p++;
	while (*name && k < 90)
		b[k++] = *name++;
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
	if (ok)
		pass++;
	else
		fail++;
}

static void log_order(int v)
{
	order[norder++] = v;
}

static void waiter(void *arg)
{
	int r = pt_sem_take(sem_id, PT_WAIT_FOREVER);
	log_order(r == PT_OK ? (int)(uintptr_t)arg : -1);
}

static void spinner(void *arg)
{
	(void)arg;
	for (;;) {
		flag++;
		pt_thread_yield();
	}
}

/* priority inheritance: low takes the mutex, high blocks on it, medium must not run first */
static volatile int pi_stage, pi_go;
static volatile int pi_boosted;

static void pi_low(void *arg)
{
	(void)arg;
	pt_mutex_lock(mutex_id, PT_WAIT_FOREVER);
	pi_stage = 1;
	while (!pi_go) /* hold the mutex until medium is ready and high is about to block */
		;
	for (volatile int i = 0; i < 20000; i++)
		;
	pi_boosted = pt_thread_priority(0); /* high (5) waits on our mutex */
	log_order(30);
	pt_mutex_unlock(mutex_id);
}
static void pi_high(void *arg)
{
	(void)arg;
	pt_mutex_lock(mutex_id, PT_WAIT_FOREVER);
	log_order(5);
	pt_mutex_unlock(mutex_id);
}
static void pi_medium(void *arg)
{
	(void)arg;
	for (volatile int i = 0; i < 20000; i++)
		;
	log_order(20);
}

static void receiver(void *arg)
{
	(void)arg;
	uint64_t m;
	for (int i = 0; i < 8; i++) {
		if (pt_mq_recv(mq_id, &m, PT_WAIT_FOREVER) == PT_OK)
			rx_sum += m;
	}
	pt_sem_give(done_sem);
}

/* Blocks on the semaphore (arg 0) or the queue (arg 1) until it is deleted. */
static void del_waiter(void *arg)
{
	uint64_t m;
	del_result = arg ? pt_mq_recv(del_mq, &m, PT_WAIT_FOREVER)
			 : pt_sem_take(del_sem, PT_WAIT_FOREVER);
}

static volatile int peek_q;
static volatile uint64_t peek_got, recv_got;

static void mq_peeker(void *arg)
{
	(void)arg;
	uint64_t v = 0;
	if (pt_mq_peek(peek_q, &v, PT_WAIT_FOREVER) == PT_OK)
		peek_got = v;
}

static void mq_receiver(void *arg)
{
	(void)arg;
	uint64_t v = 0;
	if (pt_mq_recv(peek_q, &v, PT_WAIT_FOREVER) == PT_OK)
		recv_got = v;
}

static int spawn(const char *name, void (*fn)(void *), void *arg, unsigned prio, int sched, int cpu)
{
	struct pt_thread_attr a = { .name = name, .entry = fn, .arg = arg, .priority = (uint16_t)prio,
				    .cpu = (int16_t)cpu, .sched = (int16_t)sched,
				    .kind = PT_KIND_APERIODIC, .stack_bytes = 4096 };
	return pt_thread_create(&a);
}

void api_main(void *arg)
{
	(void)arg;
	pt_usay("api: start\n");
	/* 1. semaphore give wakes a higher-priority waiter at once (preemption on give) */
	sem_id = pt_sem_create(0, 10);
	norder = 0;
	int w1 = spawn("w_hi", waiter, (void *)1, 5, -1, 0);
	int w2 = spawn("w_lo", waiter, (void *)2, 15, -1, 0);
	check(w1 > 0 && w2 > 0, "create");
	pt_sleep_ns(100000); /* both block on the semaphore */
	pt_sem_give(sem_id);
	log_order(100);       /* w_hi (prio 5) ran before we got here */
	pt_sem_give(sem_id);  /* w_lo (prio 15) waits until we block */
	log_order(101);
	pt_sleep_ns(100000);
	check(norder == 4 && order[0] == 1 && order[1] == 100 && order[2] == 101 && order[3] == 2,
	      "sem_give_preempts_by_priority");
	/* 2. timeouts */
	uint64_t t0 = pt_time_cycles();
	int r = pt_sem_take(sem_id, 200000);
	uint64_t dt = pt_time_cycles() - t0;
	check(r == PT_ETIMEDOUT && dt >= 200000 && dt < 400000, "sem_timeout");
	check(pt_sem_take(sem_id, PT_NO_WAIT) == PT_EAGAIN, "sem_trytake");
	pt_sem_give(sem_id);
	pt_sem_give(sem_id);
	check(pt_sem_count(sem_id) == 2 && pt_sem_take(sem_id, PT_NO_WAIT) == PT_OK &&
	      pt_sem_take(sem_id, PT_NO_WAIT) == PT_OK && pt_sem_count(sem_id) == 0 &&
	      pt_sem_count(999) == PT_EINVAL, "sem_count");
	check(pt_sem_take(999, 0) == PT_EINVAL, "sem_bad_id");
	/* 3. suspend / resume / set-priority / delete on a running spinner */
	flag = 0;
	int sp = spawn("spin", spinner, 0, 10, -1, 0); /* same priority: yields to us */
	pt_thread_yield();
	int f1 = flag;
	check(f1 > 0, "yield_round_robin");
	check(pt_thread_suspend(sp) == PT_OK, "suspend");
	int f2 = flag;
	pt_thread_yield();
	pt_thread_yield();
	check(flag == f2, "suspended_does_not_run");
	check(pt_thread_resume(sp) == PT_OK, "resume");
	pt_thread_yield();
	check(flag > f2, "resumed_runs");
	check(pt_thread_set_priority(sp, 50) == PT_OK, "set_priority");
	int f3 = flag;
	pt_thread_yield(); /* lower priority: does not run while we are ready */
	check(flag == f3, "lower_priority_waits");
	check(pt_sched_rr_slice_ns() == 0, "sched_rr_slice_none"); /* api.yaml: no rr_slice */
	check(pt_thread_state(0) == PT_THREAD_RUNNING && pt_thread_state(sp) == PT_THREAD_READY,
	      "thread_state_running_ready");
	pt_thread_suspend(sp);
	check(pt_thread_state(sp) == PT_THREAD_SUSPENDED, "thread_state_suspended");
	pt_thread_resume(sp);
	check(pt_thread_delete(sp) == PT_OK, "delete");
	check(pt_thread_resume(sp) == PT_EINVAL, "deleted_tid_invalid");
	check(pt_thread_state(sp) == PT_EINVAL, "thread_state_deleted_invalid");
	/* 4. priority inheritance (low 30, medium 20, high 5; we sleep so they run) */
	mutex_id = pt_mutex_create();
	norder = 0;
	pi_stage = 0;
	pi_go = 0;
	spawn("pi_low", pi_low, 0, 30, -1, 0);
	while (pi_stage != 1) /* low takes the mutex */
		pt_sleep_ns(20000);
	spawn("pi_med", pi_medium, 0, 20, -1, 0);
	pi_go = 1; /* low cannot run before we sleep: it is the lowest */
	spawn("pi_high", pi_high, 0, 5, -1, 0); /* runs at once and blocks on the mutex */
	pt_sleep_ns(2000000);
	check(pi_boosted == 5, "thread_priority_inherited");
	check(pi_stage == 1 && norder == 3 && order[0] == 30 && order[1] == 5 && order[2] == 20,
	      "mutex_priority_inheritance");
	check(pt_mutex_unlock(mutex_id) == PT_EPERM, "mutex_unlock_not_owner");
	/* 5. message queue to a receiver on another core (cross-core wake-up by IPI) */
	mq_id = pt_mq_create(sizeof(uint64_t), 4);
	done_sem = pt_sem_create(0, 1);
	rx_sum = 0;
	int rx = spawn("rx_cpu1", receiver, 0, 5, 1, 1);
	check(rx > 0, "create_on_other_core");
	uint64_t sent = 0;
	for (uint64_t i = 1; i <= 8; i++) {
		pt_mq_send(mq_id, &i, PT_WAIT_FOREVER);
		sent += i;
	}
	r = pt_sem_take(done_sem, 5000000);
	check(r == PT_OK && rx_sum == sent, "mq_cross_core");
	uint64_t m = 0;
	check(pt_mq_recv(mq_id, &m, 100000) == PT_ETIMEDOUT, "mq_recv_timeout");
	/* 7. delete: waiters are woken with PT_EDELETED, ids become invalid, storage is reused */
	del_sem = pt_sem_create(0, 1);
	del_result = 1;
	spawn("del_w_sem", del_waiter, 0, 5, -1, 0); /* higher: runs now and blocks */
	check(pt_sem_delete(del_sem) == PT_OK && del_result == PT_EDELETED, "sem_delete_wakes");
	check(pt_sem_give(del_sem) == PT_EINVAL && pt_sem_delete(del_sem) == PT_EINVAL,
	      "sem_deleted_id_invalid");
	del_mq = pt_mq_create(sizeof(uint64_t), 8);
	del_result = 1;
	spawn("del_w_mq", del_waiter, (void *)1, 5, -1, 0);
	check(pt_mq_delete(del_mq) == PT_OK && del_result == PT_EDELETED, "mq_delete_wakes");
	int q2 = pt_mq_create(sizeof(uint64_t), 8);
	uint64_t v77 = 77, got77 = 0;
	check(q2 >= 0 && pt_mq_send(q2, &v77, PT_NO_WAIT) == PT_OK &&
	      pt_mq_recv(q2, &got77, PT_NO_WAIT) == PT_OK && got77 == 77 && pt_mq_delete(q2) == PT_OK,
	      "mq_recreated_after_delete");
	/* 8. the queue's other ends: send to the front, peek, overwrite, count */
	int q3 = pt_mq_create(sizeof(uint64_t), 3);
	uint64_t a = 1, b2 = 2, c = 3, d = 4, o = 0;
	int ok = q3 >= 0 && pt_mq_send(q3, &a, PT_NO_WAIT) == PT_OK &&
		 pt_mq_send(q3, &b2, PT_NO_WAIT) == PT_OK && pt_mq_send_front(q3, &c, PT_NO_WAIT) == PT_OK;
	ok &= pt_mq_count(q3) == 3 && pt_mq_send_front(q3, &d, PT_NO_WAIT) == PT_EAGAIN;
	ok &= pt_mq_peek(q3, &o, PT_NO_WAIT) == PT_OK && o == 3 && pt_mq_count(q3) == 3;
	uint64_t seq[3];
	for (int i = 0; i < 3; i++)
		ok &= pt_mq_recv(q3, &seq[i], PT_NO_WAIT) == PT_OK;
	ok &= seq[0] == 3 && seq[1] == 1 && seq[2] == 2 && pt_mq_count(q3) == 0;
	ok &= pt_mq_peek(q3, &o, PT_NO_WAIT) == PT_EAGAIN;
	check(ok, "mq_send_front_peek_count");
	check(pt_mq_overwrite(q3, &a) == PT_EINVAL && pt_mq_count(q3) == 0, "mq_overwrite_needs_capacity_1");
	int q4 = pt_mq_create(sizeof(uint64_t), 1);
	ok = pt_mq_overwrite(q4, &a) == PT_OK && pt_mq_overwrite(q4, &b2) == PT_OK &&
	     pt_mq_count(q4) == 1 && pt_mq_recv(q4, &o, PT_NO_WAIT) == PT_OK && o == 2;
	check(ok, "mq_overwrite");
	/* a blocked peeker and a blocked receiver on one queue: one send serves both */
	peek_q = q4;
	peek_got = recv_got = 0;
	spawn("peeker", mq_peeker, 0, 4, -1, 0);   /* first waiter (higher priority) */
	spawn("receiver", mq_receiver, 0, 5, -1, 0);
	check(pt_mq_send(q4, &d, PT_NO_WAIT) == PT_OK && peek_got == 4 && recv_got == 4 &&
	      pt_mq_count(q4) == 0, "mq_peek_wakes_next_receiver");
	check(pt_mq_delete(q3) == PT_OK && pt_mq_delete(q4) == PT_OK && pt_mq_count(q3) == PT_EINVAL,
	      "mq_count_deleted_invalid");
	int dm = pt_mutex_create();
	pt_mutex_lock(dm, PT_NO_WAIT);
	check(pt_mutex_delete(dm) == PT_ESTATE, "mutex_delete_locked_refused");
	pt_mutex_unlock(dm);
	check(pt_mutex_delete(dm) == PT_OK && pt_mutex_lock(dm, PT_NO_WAIT) == PT_EINVAL,
	      "mutex_delete");
	/* 6. the user thread (api_user) runs the same calls through ecall */
	flag = 0;
	pt_sem_give(sem_id);
	r = pt_sem_take(done_sem, 5000000);
	check(r == PT_OK && flag == 1234, "user_syscalls");
	char b[64];
	int k = 0;
	const char *p = "api: done pass=";
	while (*p)
		b[k++] = *p++;
	pt_ufmt_i64(b, &k, pass);
	p = " fail=";
	while (*p)
		b[k++] = *p++;
	pt_ufmt_i64(b, &k, fail);
	b[k++] = '\n';
	pt_console_write(b, (size_t)k);
}

/* User thread: waits for the go, then exercises the API from U-mode. */
void api_user(void *arg)
{
	(void)arg;
	while (sem_id < 0 || done_sem < 0)
		pt_sleep_ns(100000);
	if (pt_sem_take(sem_id, PT_WAIT_FOREVER) != PT_OK)
		return;
	int ok = 1;
	int tid = pt_thread_self();
	ok &= tid > 0;
	uint64_t v = 42, w = 0;
	ok &= pt_mq_send(mq_id, &v, PT_NO_WAIT) == PT_OK;
	ok &= pt_mq_recv(mq_id, &w, PT_NO_WAIT) == PT_OK && w == 42;
	ok &= pt_mq_recv(mq_id, (void *)0x80000000ul, PT_NO_WAIT) == PT_EINVAL;
	ok &= pt_mq_send_front(mq_id, &v, PT_NO_WAIT) == PT_OK && pt_mq_count(mq_id) == 1;
	ok &= pt_mq_peek(mq_id, &w, PT_NO_WAIT) == PT_OK && pt_mq_recv(mq_id, &w, PT_NO_WAIT) == PT_OK;
	ok &= pt_mq_peek(mq_id, (void *)0x80000000ul, PT_NO_WAIT) == PT_EINVAL;
	ok &= pt_mq_overwrite(mq_id, &v) == PT_EINVAL; /* capacity 4 */
	ok &= pt_thread_state(0) == PT_THREAD_RUNNING && pt_time_shift() == 0;
	ok &= pt_sem_count(done_sem) == 0 && pt_sched_rr_slice_ns() == 0;
	int mid = pt_mutex_create();
	ok &= mid >= 0 && pt_mutex_lock(mid, PT_WAIT_FOREVER) == PT_OK && pt_mutex_unlock(mid) == PT_OK;
	ok &= pt_mutex_delete(mid) == PT_OK && pt_mutex_lock(mid, PT_NO_WAIT) == PT_EINVAL;
	ok &= pt_sem_delete(sem_id) == PT_EPERM; /* a kernel object: usable, not deletable */
	ok &= pt_sleep_ns(50000) == PT_OK;
	ok &= pt_thread_set_priority(0, 300) == PT_EINVAL;
	if (ok)
		flag = 1234;
	pt_sem_give(done_sem);
}
