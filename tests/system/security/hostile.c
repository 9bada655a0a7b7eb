/*
 * Regression tests of the holes a fuzzing campaign found (issue 7; docs/security.md), run by
 * test_sys_security.py with hostile.yaml. A user partition
 * `attacker` tries each attack; partition `victim` runs periodic tasks beside it on the same
 * harts, with deadlines, and checks its own memory. Each check prints "hostile: ok <name>" or
 * "hostile: FAIL <name>"; the driver ends with "hostile: done pass=N fail=M".
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/config.h>
#include <partita/hal_cpu.h>
#include <partita/sync.h>

#include "lib/ufmt.h"

#define HEAP_END (HAL_USER_VA + 8192) /* attacker heap_bytes in hostile.yaml */
#define MS 1000000ull

static int pass, fail;
static volatile int r_result, s_result, t_result[3];
static volatile int phase_done;
static volatile int quota_phase PT_SHARED; /* 1: the attacker's quotas are used up */
static volatile int q_id = -1, sem_id = -1, mtx_id = -1;
static volatile uint64_t ok_marks;

static void check(int ok, const char *name)
{
	char b[96];
	int n = 0;
	pt_ufmt_str(b, &n, ok ? "hostile: ok " : "hostile: FAIL ");
	pt_ufmt_str(b, &n, name);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
	if (ok)
		pass++;
	else
		fail++;
}

static void say_num(const char *what, int64_t v)
{
	char b[96];
	int n = 0;
	pt_ufmt_str(b, &n, "hostile: ");
	pt_ufmt_str(b, &n, what);
	pt_ufmt_str(b, &n, "=");
	pt_ufmt_i64(b, &n, v);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

static int spawn(const char *name, void (*fn)(void *), void *arg, unsigned prio)
{
	struct pt_thread_attr a = { .name = name, .entry = fn, .arg = arg, .priority = (uint16_t)prio,
				    .cpu = -1, .sched = -1, .kind = PT_KIND_APERIODIC,
				    .stack_bytes = 4096 };
	return pt_thread_create(&a);
}

static int spawn_rt(const char *name, void (*fn)(void *), unsigned prio, int sched,
		    uint64_t period_ns, uint64_t wcet_ns, uint64_t offset_ns)
{
	struct pt_thread_attr a = { .name = name, .entry = fn, .priority = (uint16_t)prio,
				    .cpu = -1, .sched = (int16_t)sched, .kind = PT_KIND_PERIODIC,
				    .stack_bytes = 4096, .period_ns = period_ns,
				    .wcet_ns = wcet_ns, .offset_ns = offset_ns };
	return pt_thread_create(&a);
}

/* ---- 1. message-queue ids re-used under a blocked caller ---- */

/* Blocks receiving into the last 8 bytes of the heap (valid for an 8-byte message only). */
static void mq_receiver(void *arg)
{
	(void)arg;
	r_result = pt_mq_recv(q_id, (void *)(HEAP_END - 8), PT_WAIT_FOREVER);
	phase_done = 1;
}

/* Blocks sending from the last 8 bytes of the heap into a full queue. */
static void mq_sender(void *arg)
{
	(void)arg;
	s_result = pt_mq_send(q_id, (const void *)(HEAP_END - 8), PT_WAIT_FOREVER);
	phase_done = 1;
}

static void test_mq_reuse(void)
{
	static uint8_t big[4096];
	uint64_t m = 0x1122334455667788ull;
	/* receive direction: the receiver is woken by a send, then (before it runs again) the
	 * queue is deleted and a 4096-byte queue created and filled */
	int old = q_id = pt_mq_create(8, 1);
	phase_done = 0;
	spawn("mq_rx", mq_receiver, 0, 45); /* lower priority: blocks when we sleep */
	pt_sleep_ns(100000);
	pt_mq_send(old, &m, PT_NO_WAIT); /* wakes the receiver; we keep the cpu */
	pt_mq_delete(old);
	int fresh = pt_mq_create(4096, 1);
	check(fresh >= 0 && fresh != old, "mq_new_id_differs");
	check(pt_mq_send(fresh, big, PT_NO_WAIT) == PT_OK, "mq_fresh_send");
	pt_sleep_ns(200000);
	check(phase_done && r_result == PT_EDELETED, "mq_recv_stale_id_edeleted");
	check(pt_mq_send(old, &m, PT_NO_WAIT) == PT_EINVAL, "mq_stale_id_einval");
	pt_mq_delete(fresh);

	/* send direction: the sender waits on a full queue; a receive wakes it, then the queue
	 * is replaced by a 4096-byte one that we read from */
	old = q_id = pt_mq_create(8, 1);
	pt_mq_send(old, &m, PT_NO_WAIT);
	phase_done = 0;
	spawn("mq_tx", mq_sender, 0, 45);
	pt_sleep_ns(100000);
	pt_mq_recv(old, &m, PT_NO_WAIT); /* wakes the sender */
	pt_mq_delete(old);
	fresh = pt_mq_create(4096, 1);
	int r = pt_mq_recv(fresh, big, 300000); /* the old kernel handed us its memory here */
	check(r == PT_ETIMEDOUT, "mq_send_stale_id_no_transfer");
	check(phase_done && s_result == PT_EDELETED, "mq_send_stale_id_edeleted");
	pt_mq_delete(fresh);

	/* the same for semaphores and mutexes: an id never names the next object of its slot */
	int s = pt_sem_create(0, 1);
	pt_sem_delete(s);
	int s2 = pt_sem_create(0, 1);
	check(s2 != s && pt_sem_give(s) == PT_EINVAL, "sem_stale_id_einval");
	pt_sem_delete(s2);
	int mt = pt_mutex_create();
	pt_mutex_delete(mt);
	int mt2 = pt_mutex_create();
	check(mt2 != mt && pt_mutex_lock(mt, PT_NO_WAIT) == PT_EINVAL, "mutex_stale_id_einval");
	pt_mutex_delete(mt2);
	/* a buffer that is too short for the message is refused before anything is copied */
	int q = pt_mq_create(64, 1);
	pt_mq_send(q, big, PT_NO_WAIT);
	check(pt_mq_recv(q, (void *)(HEAP_END - 8), PT_NO_WAIT) == PT_EINVAL, "mq_short_buffer");
	check(pt_mq_recv(q, big, PT_NO_WAIT) == PT_OK, "mq_message_kept");
	pt_mq_delete(q);
}

/* ---- 2. degenerate periods and durations ---- */

static void job_nop(void *arg)
{
	(void)arg;
}

static void test_periods(void)
{
	static const uint64_t bad[] = { 1, 1000, 10000, PT_MIN_PERIOD_NS - 1, UINT64_MAX,
					(1ull << 62) + 1 };
	int all = 1;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		all &= spawn_rt("bad_period", job_nop, 100, -1, bad[i], 0, 0) == PT_EINVAL;
	check(all, "degenerate_periods_einval");
	check(spawn_rt("bad_offset", job_nop, 100, -1, MS, 1000, UINT64_MAX) == PT_EINVAL,
	      "offset_overflow_einval");
	check(spawn_rt("bad_wcet", job_nop, 100, -1, MS, 2 * MS, 0) == PT_EINVAL, "wcet_above_period");
}

/* ---- 3. rights: scheduler instance, priority range, budget ---- */

static void job_spin(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

static void test_rights(void)
{
	/* hostile.yaml: attacker may use fp0 only, priorities 20..255 for real-time threads,
	 * 31..255 for aperiodic ones (below every victim thread on fp0), budget 0.2 */
	struct pt_thread_attr a = { .name = "other_sched", .entry = job_nop, .priority = 100,
				    .cpu = -1, .sched = 1, .kind = PT_KIND_APERIODIC };
	check(pt_thread_create(&a) == PT_EPERM, "create_other_scheduler_eperm");
	check(spawn("prio0", job_spin, 0, 0) == PT_EPERM, "create_priority0_eperm");
	check(spawn("ap_high", job_spin, 0, 25) == PT_EPERM, "aperiodic_above_victims_eperm");
	check(pt_thread_set_priority(0, 0) == PT_EPERM, "set_priority_above_range_eperm");
	check(pt_thread_set_priority(0, 20) == PT_EPERM, "set_priority_aperiodic_above_victims");
	check(pt_thread_set_priority(0, 35) == PT_OK && pt_thread_set_priority(0, 40) == PT_OK,
	      "set_priority_in_range");
	/* over the budget: 0.15 + 0.1 > 0.2 */
	int t1 = spawn_rt("rt_spin", job_spin, 25, -1, MS, 150000, 0);
	check(t1 > 0, "rt_within_budget");
	check(spawn_rt("rt_over", job_spin, 25, -1, MS, 100000, 0) == PT_EQUOTA, "rt_over_budget");
	/* rt_spin spins in every job above the victim's v_low: only its enforced budget keeps
	 * v_low's deadlines (checked by the test from the trace) */
	pt_sleep_ns(8 * MS);
	pt_thread_delete(t1);
	check(spawn_rt("rt_after", job_nop, 25, -1, MS, 100000, 0) > 0, "budget_returned_on_delete");
}

/* ---- 4. quotas ---- */

static void test_quotas(void)
{
	int n = 0, r;
	while ((r = pt_sem_create(0, 1)) >= 0)
		n++;
	say_num("sems_created", n);
	check(r == PT_EQUOTA && n == 8, "sem_quota");
	n = 0;
	while ((r = pt_mutex_create()) >= 0)
		n++;
	check(r == PT_EQUOTA && n == 8, "mutex_quota");
	n = 0;
	while ((r = pt_mq_create(16, 4)) >= 0)
		n++;
	check(r == PT_EQUOTA && n == 4, "mq_quota");
	check(pt_mq_create(4096, 2) == PT_EQUOTA, "mq_bytes_quota");
	n = 0;
	while ((r = spawn("filler", job_spin, 0, 255)) > 0)
		n++;
	say_num("threads_created", n);
	check(r == PT_EQUOTA, "thread_quota");
	__atomic_store_n(&quota_phase, 1, __ATOMIC_RELEASE); /* the victim now creates its own */
}

/* ---- 5. trace flooding ---- */

static void test_flood(void)
{
	uint64_t ok = 0;
	for (int i = 0; i < 40000; i++)
		ok += pt_trace_mark(0xf100d, (uint64_t)i) == PT_OK;
	ok_marks = ok;
	say_num("marks_written", (int64_t)ok);
	check(ok > 0 && ok < 40000, "trace_marks_budgeted");
}

/* ---- 6. timeouts at the edge of time ---- */

static void t_sem(void *arg)
{
	(void)arg;
	t_result[0] = pt_sem_take(sem_id, UINT64_MAX - 1);
}

static void t_mutex(void *arg)
{
	(void)arg;
	t_result[1] = pt_mutex_lock(mtx_id, UINT64_MAX - 2);
	pt_mutex_unlock(mtx_id);
}

static void t_sleep(void *arg)
{
	(void)arg;
	pt_sleep_ns(UINT64_MAX);
	t_result[2] = 1;
}

static void test_timeouts(void)
{
	sem_id = pt_sem_create(0, 1);
	mtx_id = pt_mutex_create();
	t_result[0] = t_result[1] = 99;
	pt_mutex_lock(mtx_id, PT_WAIT_FOREVER);
	spawn("t_sem", t_sem, 0, 41);
	spawn("t_mutex", t_mutex, 0, 41);
	spawn("t_sleep", t_sleep, 0, 41);
	pt_sleep_ns(2 * MS); /* they run and block: none may time out at once */
	say_num("t_sem", t_result[0]);
	say_num("t_mutex", t_result[1]);
	say_num("t_sleep", t_result[2]);
	check(t_result[0] == 99 && t_result[1] == 99 && t_result[2] == 0, "huge_timeouts_wait");
	pt_sem_give(sem_id);
	pt_mutex_unlock(mtx_id);
	pt_sleep_ns(MS);
	check(t_result[0] == PT_OK && t_result[1] == PT_OK && t_result[2] == 0, "huge_timeouts_given");
	pt_sem_delete(sem_id);
	pt_mutex_delete(mtx_id);
}

/* The attacker: one attack after the other. Priority 40 on fp0 (hostile.yaml). */
void hostile_main(void *arg)
{
	(void)arg;
	pt_usay("hostile: start\n");
	test_mq_reuse();
	test_periods();
	test_timeouts();
	test_rights();
	test_flood();
	test_quotas();
	char b[64];
	int n = 0;
	pt_ufmt_str(b, &n, "hostile: done pass=");
	pt_ufmt_u64(b, &n, (uint64_t)pass);
	pt_ufmt_str(b, &n, " fail=");
	pt_ufmt_u64(b, &n, (uint64_t)fail);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

/* ---- the victim partition ---- */

#define PATTERN 0x5a5a0000c0ffee00ull
static volatile uint64_t *const victim_heap = (volatile uint64_t *)HAL_USER_VA;
static volatile uint32_t victim_jobs, victim_bad;

/* A periodic victim job: a little work, and its heap must still hold what it wrote. */
void hostile_victim(void *arg)
{
	uint32_t words = 512;
	if (!victim_jobs++)
		for (uint32_t i = 0; i < words; i++)
			victim_heap[i] = PATTERN ^ i;
	uint32_t bad = 0;
	for (uint32_t i = 0; i < words; i++)
		bad += victim_heap[i] != (PATTERN ^ i);
	if (bad && !victim_bad) /* said at once: a fuzzing campaign's judge looks for it */
		pt_usay("hostile: FAIL victim_memory_changed\n");
	victim_bad += bad;
	for (volatile uint64_t i = 0; i < (uint64_t)(uintptr_t)arg; i++)
		;
}

/* Once the attacker has used up its quotas, the victim still gets its own. */
void hostile_victim_quota(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&quota_phase, __ATOMIC_ACQUIRE) != 1)
		pt_sleep_ns(MS);
	int n = 0;
	while (pt_sem_create(0, 1) >= 0)
		n++;
	char b[64];
	int k = 0;
	pt_ufmt_str(b, &k, n == 8 ? "hostile: ok victim_quota_intact\n"
				  : "hostile: FAIL victim_quota_intact\n");
	pt_console_write(b, (size_t)k);
	k = 0;
	pt_ufmt_str(b, &k, victim_bad == 0 && victim_jobs > 0 ? "hostile: ok victim_memory_intact\n"
							    : "hostile: FAIL victim_memory_intact\n");
	pt_console_write(b, (size_t)k);
}

/* A kernel thread: queue storage does not fragment for good. */
void hostile_kernel_mq(void *arg)
{
	(void)arg;
	int a = pt_mq_create(64, 4), b = pt_mq_create(128, 4), c = pt_mq_create(32, 8);
	pt_mq_delete(b);
	pt_mq_delete(a);
	pt_mq_delete(c);
	int whole = pt_mq_create(4096, PT_MQ_POOL_BYTES / 4096);
	pt_usay(a >= 0 && b >= 0 && c >= 0 && whole >= 0 ? "hostile: ok mq_storage_no_fragmentation\n"
							   : "hostile: FAIL mq_storage_no_fragmentation\n");
	pt_mq_delete(whole);
}
