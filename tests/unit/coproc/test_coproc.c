/*
 * The coprocessor interface (subsys/coproc/coproc.c) on the host, with a fake service (a
 * per-slot accumulator) and the scheduler service (kernel/sched/offload/schedsvc.c):
 * request/reply records and sequence numbers, the execution models (processor only,
 * sequential, parallel blocking, parallel non-blocking, multi-coprocessor), full rings, the
 * "fake hart" back end served synchronously from its nudge, and a two-thread run in which a
 * real second thread is the coprocessor hart.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "fake_hal.h"
#include <partita/coproc.h>
#include <partita/api.h>
#include <partita/config.h>
#include "sched/offload/schedsvc.h"

/* offload.c (linked for the property harness's sake) reports a missing binding with it */
_Noreturn void pt_panic(const char *fmt, ...)
{
	fprintf(stderr, "panic: %s\n", fmt);
	abort();
}
const struct pt_coproc_binding pt_coproc_sched_binding[1];
const struct pt_system_cfg pt_config;

/* ---- the fake service: slot k accumulates ---- */
enum { ACC_ADD = 1, ACC_GET = 2 };
struct acc_state {
	uint64_t sum[PT_COPROC_MAX_CLIENTS], count[PT_COPROC_MAX_CLIENTS];
	uint64_t served;
};
static void acc_init(void *st, uint32_t n, const void *cfg)
{
	(void)n, (void)cfg;
	memset(st, 0, sizeof(struct acc_state));
}
static void acc_serve(void *st, uint32_t k, const struct pt_coproc_req *q, struct pt_coproc_rep *r)
{
	struct acc_state *a = st;
	a->served++;
	r->val[1] = 0;
	if (q->op == ACC_ADD) {
		a->sum[k] += q->args[0];
		a->count[k]++;
		r->status = 0;
	} else if (q->op == ACC_GET) {
		r->status = 0;
	} else {
		r->status = PT_EINVAL;
	}
	r->val[0] = a->sum[k];
	r->seq = 0xdead; /* the runtime sets it back to the request's */
}
static uint64_t acc_publish(const void *st, uint32_t k, uint32_t w)
{
	const struct acc_state *a = st;
	return w == 0 ? a->sum[k] : w == 1 ? a->count[k] : 0;
}
static const struct pt_coproc_service acc_svc = {
	.name = "acc", .state_bytes = sizeof(struct acc_state),
	.init = acc_init, .serve = acc_serve, .publish = acc_publish,
};

/* ---- a fake "hart" back end: the coprocessor runs only when a client nudges it ---- */
static uint64_t nudges_seen;
static void fake_nudge(struct pt_coproc *c, uint32_t client)
{
	(void)client;
	nudges_seen++;
	pt_coproc_serve_pending(c);
}
static const struct pt_coproc_backend fake_hart = {
	.name = "fake-hart", .boot = pt_coproc_ring_boot, .post = pt_coproc_ring_post,
	.take = pt_coproc_ring_take, .done = pt_coproc_slot_done, .read = pt_coproc_slot_read,
	.nudge = fake_nudge,
};

static struct acc_state acc_st[2];
static struct pt_coproc_slot slots[2][2];
static struct pt_coproc cp[2];

struct pt_coproc *const pt_coprocs[] = { &cp[0], &cp[1] };
const uint32_t pt_ncoprocs = 2;

static void setup_acc(unsigned i, const struct pt_coproc_backend *be)
{
	memset(&cp[i], 0, sizeof(cp[i]));
	cp[i].name = i ? "acc1" : "acc0";
	cp[i].id = i;
	cp[i].nclients = 2;
	cp[i].svc = &acc_svc;
	cp[i].be = be;
	cp[i].state = &acc_st[i];
	cp[i].slots = slots[i];
	pt_coproc_boot(&cp[i]);
	nudges_seen = 0;
}

static struct pt_coproc_req add(uint64_t v)
{
	struct pt_coproc_req q = { .op = ACC_ADD, .args = { v } };
	return q;
}

static void test_find(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	setup_acc(1, &fake_hart);
	assert_ptr_equal(pt_coproc_find("acc1"), &cp[1]);
	assert_ptr_equal(pt_coproc_find("acc0"), &cp[0]);
	assert_null(pt_coproc_find("acc"));
	assert_null(pt_coproc_find("acc00"));
}

static void test_sequential(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	struct pt_coproc_rep r;
	for (uint64_t i = 1; i <= 5; i++) {
		struct pt_coproc_req q = add(i);
		assert_int_equal(pt_coproc_call(&cp[0], 1, PT_COPROC_SEQUENTIAL, &q, &r), 0);
		assert_int_equal(q.seq, i);     /* per slot: 1, 2, 3, ... */
		assert_int_equal(r.seq, i);     /* the reply names its request */
		assert_int_equal(r.val[0], i * (i + 1) / 2);
	}
	assert_int_equal(pt_coproc_read(&cp[0], 1, 0), 15);
	assert_int_equal(pt_coproc_read(&cp[0], 1, 1), 5);
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), 0); /* slot 0 untouched */
	struct pt_coproc_req bad = { .op = 77 };
	assert_int_equal(pt_coproc_call(&cp[0], 1, PT_COPROC_SEQUENTIAL, &bad, &r), PT_EINVAL);
	assert_int_equal(pt_coproc_call(&cp[0], 1, (enum pt_coproc_model)9, &bad, &r), PT_EINVAL);
	/* processor only needs the inline back end */
	assert_int_equal(pt_coproc_call(&cp[0], 1, PT_COPROC_PROCESSOR_ONLY, &bad, &r), PT_EINVAL);
	assert_int_equal(acc_st[0].served, 6);
}

static void test_processor_only_inline(void **state)
{
	(void)state;
	setup_acc(0, &pt_coproc_backend_inline);
	struct pt_coproc_rep r;
	struct pt_coproc_req q = add(7);
	assert_int_equal(pt_coproc_call(&cp[0], 0, PT_COPROC_PROCESSOR_ONLY, &q, &r), 0);
	assert_int_equal(r.val[0], 7);
	/* the service ran during the post: done already, nothing pending */
	assert_true(pt_coproc_served(&cp[0], 0, q.seq));
	q = add(5);
	assert_int_equal(pt_coproc_call(&cp[0], 0, PT_COPROC_PAR_NONBLOCKING, &q, &r), 0);
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), 12);
	assert_int_equal(pt_coproc_serve_pending(&cp[0]), 0);
}

static void test_nonblocking_reads_published_word(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	struct pt_coproc_rep r;
	for (uint64_t i = 0; i < 10; i++) {
		struct pt_coproc_req q = add(3);
		assert_int_equal(pt_coproc_call(&cp[0], 0, PT_COPROC_PAR_NONBLOCKING, &q, &r), 0);
		assert_int_equal(r.seq, i + 1);
		assert_true(q.flags & PT_COPROC_F_NOREPLY);
	}
	/* the coprocessor has not run: the word is still the old one, read without waiting */
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), 0);
	assert_false(pt_coproc_served(&cp[0], 0, 1));
	assert_int_equal(nudges_seen, 0);
	pt_coproc_sync(&cp[0], 0);
	assert_int_equal(nudges_seen, 1);
	assert_true(pt_coproc_served(&cp[0], 0, 10));
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), 30);
	/* no reply records for F_NOREPLY requests */
	assert_false(pt_coproc_ring_take(&cp[0], 0, &r));
	pt_coproc_sync(&cp[0], 0); /* nothing outstanding: no nudge */
	assert_int_equal(nudges_seen, 1);
}

static struct {
	uint32_t seq;
	bool served_during_work;
	int ran;
} work_obs;
static void own_work(void *arg)
{
	struct pt_coproc *c = arg;
	work_obs.ran++;
	work_obs.served_during_work = pt_coproc_served(c, 0, work_obs.seq);
}

static void test_parallel_blocking(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	struct pt_coproc_rep r;
	struct pt_coproc_req q = add(9);
	work_obs.seq = 1;
	assert_int_equal(pt_coproc_call_par(&cp[0], 0, &q, &r, own_work, &cp[0]), 0);
	assert_int_equal(work_obs.ran, 1);
	assert_false(work_obs.served_during_work); /* the caller's work overlapped the request */
	assert_int_equal(r.val[0], 9);
	/* post, then wait later: earlier replies nobody waited for are dropped */
	struct pt_coproc_req a = add(1), b = add(2), c = add(4);
	uint32_t sa = (uint32_t)pt_coproc_post(&cp[0], 0, &a);
	(void)pt_coproc_post(&cp[0], 0, &b);
	uint32_t sc = (uint32_t)pt_coproc_post(&cp[0], 0, &c);
	assert_int_equal(pt_coproc_wait(&cp[0], 0, sc, &r), 0);
	assert_int_equal(r.val[0], 16);
	assert_int_equal(pt_coproc_wait(&cp[0], 0, sa, &r), PT_EINVAL); /* dropped: never again */
	assert_int_equal(pt_coproc_wait(&cp[0], 0, sc + 1, &r), PT_EINVAL); /* never posted */
	assert_int_equal(pt_coproc_wait(&cp[0], 0, 0, &r), PT_EINVAL);
}

static void test_multi(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	setup_acc(1, &fake_hart);
	struct pt_coproc *const cs[3] = { &cp[0], &cp[1], &cp[0] };
	struct pt_coproc_req q[3] = { add(1), add(10), add(100) };
	struct pt_coproc_rep r[3];
	uint32_t seqs[3];
	assert_int_equal(pt_coproc_post_all(cs, 3, 1, q, seqs), 0);
	assert_int_equal(seqs[0], 1);
	assert_int_equal(seqs[1], 1);
	assert_int_equal(seqs[2], 2);
	assert_int_equal(acc_st[0].served + acc_st[1].served, 0); /* all posted before any ran */
	assert_int_equal(pt_coproc_wait_all(cs, 3, 1, seqs, r), 0);
	assert_int_equal(r[0].val[0], 1);
	assert_int_equal(r[1].val[0], 10);
	assert_int_equal(r[2].val[0], 101);
}

static void test_full_ring(void **state)
{
	(void)state;
	setup_acc(0, &fake_hart);
	struct pt_coproc_req q;
	for (uint32_t i = 0; i < PT_COPROC_RING_RECORDS; i++) {
		q = add(1);
		q.flags = PT_COPROC_F_NOREPLY;
		assert_int_equal(pt_coproc_post(&cp[0], 0, &q), i + 1);
	}
	q = add(1);
	assert_int_equal(pt_coproc_post(&cp[0], 0, &q), PT_EAGAIN);
	assert_int_equal(cp[0].refused, 1);
	assert_int_equal(cp[0].slots[0].posted, PT_COPROC_RING_RECORDS); /* the refused one: none */
	/* post_wait nudges the coprocessor until there is room */
	q = add(1);
	assert_int_equal(pt_coproc_post_wait(&cp[0], 0, &q), PT_COPROC_RING_RECORDS + 1);
	assert_int_equal(nudges_seen, 1);
	pt_coproc_sync(&cp[0], 0);
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), PT_COPROC_RING_RECORDS + 1);
}

/* A second thread is the coprocessor hart: it serves whatever it finds, concurrently. */
static volatile int svc_stop;
static void *svc_thread(void *arg)
{
	struct pt_coproc *c = arg;
	while (!__atomic_load_n(&svc_stop, __ATOMIC_ACQUIRE))
		if (!pt_coproc_serve_pending(c))
			sched_yield();
	return NULL;
}
static void yield_nudge(struct pt_coproc *c, uint32_t client)
{
	(void)c, (void)client;
	sched_yield();
}
static const struct pt_coproc_backend thread_hart = {
	.name = "thread-hart", .boot = pt_coproc_ring_boot, .post = pt_coproc_ring_post,
	.take = pt_coproc_ring_take, .done = pt_coproc_slot_done, .read = pt_coproc_slot_read,
	.nudge = yield_nudge,
};

static void test_two_threads(void **state)
{
	(void)state;
	setup_acc(0, &thread_hart);
	pthread_t th;
	svc_stop = 0;
	assert_int_equal(pthread_create(&th, NULL, svc_thread, &cp[0]), 0);
	uint64_t sum = 0;
	struct pt_coproc_rep r;
	for (uint64_t i = 1; i <= 3000; i++) {
		struct pt_coproc_req q = add(i);
		sum += i;
		if (i % 3 == 0) {
			assert_int_equal(pt_coproc_call(&cp[0], 0, PT_COPROC_SEQUENTIAL, &q, &r), 0);
			assert_int_equal(r.seq, i);
			assert_int_equal(r.val[0], sum); /* every earlier request served before it */
		} else {
			assert_int_equal(pt_coproc_call(&cp[0], 0, PT_COPROC_PAR_NONBLOCKING, &q, &r), 0);
			/* a published word is never ahead of what was posted */
			assert_true(pt_coproc_read(&cp[0], 0, 0) <= sum);
		}
	}
	pt_coproc_sync(&cp[0], 0);
	assert_int_equal(pt_coproc_read(&cp[0], 0, 0), sum);
	__atomic_store_n(&svc_stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
}

/* ---- the scheduler service ---- */
static struct pt_schedsvc_state sst;
static struct pt_coproc_slot sslots[2];
static struct pt_coproc scp;
static struct pt_schedsvc_cfg scfg;

static void setup_sched(uint8_t high_first)
{
	memset(&scp, 0, sizeof(scp));
	scfg.high_first = high_first;
	scp.name = "sched";
	scp.nclients = 2;
	scp.svc = &pt_schedsvc;
	scp.svc_cfg = &scfg;
	scp.be = &fake_hart;
	scp.state = &sst;
	scp.slots = sslots;
	pt_coproc_boot(&scp);
}

static int cmd(uint32_t k, uint16_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
	       uint64_t *val)
{
	struct pt_coproc_req q = { .op = op, .args = { a0, a1, a2, a3 } };
	struct pt_coproc_rep r;
	int s = pt_coproc_call(&scp, k, PT_COPROC_SEQUENTIAL, &q, &r);
	if (val)
		*val = r.val[0];
	assert_int_equal(r.val[1], pt_coproc_read(&scp, k, PT_SCHEDSVC_PUB_NEXT));
	return s;
}
static uint64_t next(uint32_t k) { return pt_coproc_read(&scp, k, PT_SCHEDSVC_PUB_NEXT); }

static void test_schedsvc_commands(void **state)
{
	(void)state;
	setup_sched(0);
	uint64_t v;
	assert_int_equal(next(0), PT_SCHEDSVC_NONE);
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, 5, 10, PT_SCHEDSVC_READY, 1005, 0), 0);
	assert_int_equal(next(0), 5);
	assert_int_equal(next(1), PT_SCHEDSVC_NONE); /* slots are separate instances */
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, 6, 3, PT_SCHEDSVC_SUSPENDED, 1006, 0), 0);
	assert_int_equal(next(0), 5); /* created suspended: not ready */
	assert_int_equal(cmd(0, PT_SCHEDSVC_RESUME, 6, 0, 0, 0, 0), 0);
	assert_int_equal(next(0), 6); /* 3 beats 10 (low_first) */
	assert_int_equal(cmd(0, PT_SCHEDSVC_SET_PRIO, 6, 11, 0, 0, 0), 0);
	assert_int_equal(next(0), 5);
	assert_int_equal(cmd(0, PT_SCHEDSVC_GET_ATTR, 6, PT_SCHEDSVC_ATTR_TAG, 0, 0, &v), 0);
	assert_int_equal(v, 1006);
	assert_int_equal(cmd(0, PT_SCHEDSVC_SET_ATTR, 6, PT_SCHEDSVC_ATTR_PRIO, 1, 0, 0), 0);
	assert_int_equal(next(0), 6);
	assert_int_equal(cmd(0, PT_SCHEDSVC_GET_ATTR, 6, PT_SCHEDSVC_ATTR_PRIO, 0, 0, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(cmd(0, PT_SCHEDSVC_SET_ATTR, 6, PT_SCHEDSVC_ATTR_STATE,
			     PT_SCHEDSVC_SUSPENDED, 0, 0), 0);
	assert_int_equal(next(0), 5);
	assert_int_equal(cmd(0, PT_SCHEDSVC_GET_ATTR, 6, PT_SCHEDSVC_ATTR_STATE, 0, 0, &v), 0);
	assert_int_equal(v, PT_SCHEDSVC_SUSPENDED);
	assert_int_equal(pt_coproc_read(&scp, 0, PT_SCHEDSVC_PUB_NREADY), 1);
	assert_int_equal(cmd(0, PT_SCHEDSVC_DELETE, 5, 0, 0, 0, 0), 0);
	assert_int_equal(next(0), PT_SCHEDSVC_NONE);
	/* errors */
	assert_int_equal(cmd(0, PT_SCHEDSVC_DELETE, 5, 0, 0, 0, 0), PT_ESTATE);
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, 6, 1, PT_SCHEDSVC_READY, 0, 0), PT_ESTATE);
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, 7, 256, PT_SCHEDSVC_READY, 0, 0), PT_EINVAL);
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, 7, 1, 9, 0, 0), PT_EINVAL);
	assert_int_equal(cmd(0, PT_SCHEDSVC_CREATE, PT_SCHEDSVC_MAX_THREADS, 1, 2, 0, 0),
			 PT_EINVAL);
	assert_int_equal(cmd(0, PT_SCHEDSVC_RESUME, 9, 0, 0, 0, 0), PT_ESTATE);
	assert_int_equal(cmd(0, PT_SCHEDSVC_SET_ATTR, 6, PT_SCHEDSVC_ATTR_LEVEL, 0, 0, 0), PT_EINVAL);
	assert_int_equal(cmd(0, 99, 6, 0, 0, 0, 0), PT_EINVAL);
	struct pt_coproc_req q = { .op = PT_SCHEDSVC_RESUME, .args = { 6 } };
	struct pt_coproc_rep r;
	assert_int_equal(pt_coproc_call(&scp, 2, PT_COPROC_SEQUENTIAL, &q, &r), PT_EINVAL);
	assert_int_equal(pt_coproc_post(&scp, 2, &q), PT_EINVAL); /* no slot 2 */
	assert_int_equal(pt_coproc_read(&scp, 2, 0), 0);
}

static void test_schedsvc_order_and_round_robin(void **state)
{
	(void)state;
	for (uint8_t hf = 0; hf < 2; hf++) {
		setup_sched(hf);
		/* 128 threads, priorities spread; the best is 0 (low_first) or 255 (high_first) */
		for (uint32_t h = 0; h < PT_SCHEDSVC_MAX_THREADS; h++)
			assert_int_equal(cmd(1, PT_SCHEDSVC_CREATE, h, (h * 37) % 256,
					     PT_SCHEDSVC_READY, h, 0), 0);
		uint64_t best = next(1), p;
		assert_int_equal(cmd(1, PT_SCHEDSVC_GET_ATTR, best, PT_SCHEDSVC_ATTR_PRIO, 0, 0,
				     &p), 0);
		uint64_t want = 0;
		for (uint32_t h = 0; h < PT_SCHEDSVC_MAX_THREADS; h++) {
			uint64_t q = (h * 37) % 256;
			if (h == 0 || (hf ? q > want : q < want))
				want = q;
		}
		assert_int_equal(p, want);
		/* round robin among equals: rotate (suspend + resume) the head */
		setup_sched(hf);
		for (uint32_t h = 10; h < 13; h++)
			cmd(0, PT_SCHEDSVC_CREATE, h, 50, PT_SCHEDSVC_READY, h, 0);
		cmd(0, PT_SCHEDSVC_CREATE, 20, hf ? 40 : 60, PT_SCHEDSVC_READY, 20, 0);
		for (uint32_t i = 0; i < 7; i++) {
			uint64_t n = next(0);
			assert_int_equal(n, 10 + i % 3);
			cmd(0, PT_SCHEDSVC_SUSPEND, n, 0, 0, 0, 0);
			cmd(0, PT_SCHEDSVC_RESUME, n, 0, 0, 0, 0);
		}
		/* preempted: back at the head */
		uint64_t n = next(0);
		cmd(0, PT_SCHEDSVC_SUSPEND, n, 0, 0, 0, 0);
		cmd(0, PT_SCHEDSVC_RESUME_HEAD, n, 0, 0, 0, 0);
		assert_int_equal(next(0), n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_processor_only_inline),
		cmocka_unit_test(test_nonblocking_reads_published_word),
		cmocka_unit_test(test_parallel_blocking),
		cmocka_unit_test(test_multi),
		cmocka_unit_test(test_full_ring),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_schedsvc_commands),
		cmocka_unit_test(test_schedsvc_order_and_round_robin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
