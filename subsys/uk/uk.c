/*
 * The proxy kernel's side of delegation (brief 3, docs/proxy-kernel.md): system calls
 * PT_SYS_UK_FIRST + op that the PK does not serve itself go to the user-level kernel (uk/, a
 * host process) through the shared-memory mailbox `pt_uk_area` (<partita/uk_abi.h>).
 *
 * A caller queues its request on the channel of the hart it runs on and blocks on `uk_wq`
 * (other threads, on every hart, keep running), one poll period at a time. Replies are collected by whoever polls the reply rings first: the waiter
 * itself, every poll_ns while it waits, and every delegated call on its way in; a collected
 * reply wakes its waiter through pt_wake. A call never hangs: no UK
 * (uk_state ABSENT) fails at once with PT_UK_ENOUK, a UK that goes away (state or epoch
 * changes) fails its waiters with PT_UK_EDEAD at their next poll, and every call fails with
 * PT_UK_ETIMEOUT after the configured timeout (the UK is then told to cancel it).
 *
 * Real-time threads that never call these functions never wait on the UK: nothing here runs
 * on a path other than a delegated call's.
 */
#include <partita/subsys.h>
#include <partita/uk.h>
#include <partita/uk_abi.h>
#include <partita/sync.h>

#include "core/kernel.h"
#include "trace/trace.h"
#include "uk_trace_events.h"

/* In .data (initialised), so the UK finds the magic as soon as QEMU has loaded the image. */
struct pt_uk_area pt_uk_area __attribute__((aligned(64))) = {
	.magic = PT_UK_MAGIC,
	.version = PT_UK_ABI_VERSION,
	.nharts = PT_MAX_CPUS < PT_UK_MAX_HARTS ? PT_MAX_CPUS : PT_UK_MAX_HARTS,
};
_Static_assert(PT_MAX_CPUS <= PT_UK_MAX_HARTS, "one mailbox channel per hart");

enum { W_IDLE = 0, W_WAITING, W_DONE };

/* One outstanding request per thread, by thread slot; under pt_sync_lock. */
static struct {
	uint32_t seq, epoch;
	uint8_t state;
	uint16_t op;
	int64_t result;
	uint64_t deadline; /* cycles: PT_UK_ETIMEOUT from then on */
} pend[PT_MAX_THREADS];

static struct pt_waitq uk_wq;
static uint32_t next_seq;

static void boot(void)
{
	pt_waitq_init(&uk_wq);
}

/* Deliver one reply (sync lock held): wake its waiter, or drop it if nobody waits. */
static void deliver(const struct pt_uk_rep *r)
{
	uint32_t slot = (r->tid - 1u) % PT_MAX_THREADS;
	if (r->tid == 0 || pend[slot].state != W_WAITING || pend[slot].seq != r->seq) {
		pt_trace_emit_masked(PT_EV_UK_STALE, r->tid, r->seq, (uint64_t)r->result);
		return;
	}
	pend[slot].state = W_DONE;
	pend[slot].result = r->result;
	/* counted when collected (before the ring's tail moves): the host's watchdog reads it */
	__atomic_fetch_add(&pt_uk_area.pk_replied, 1, __ATOMIC_RELAXED);
	struct pt_thread *t = &pt_threads[slot];
	if (t->state == PT_TS_BLOCKED && t->waitq == &uk_wq)
		pt_wake(t, PT_OK);
}

/* Drain every channel's reply ring that no other hart is draining. Interrupts masked. */
static void poll_replies(void)
{
	for (uint32_t h = 0; h < pt_uk_area.nharts; h++) {
		struct pt_uk_chan *c = &pt_uk_area.chan[h];
		uint32_t head = __atomic_load_n(&c->rep_idx.head, __ATOMIC_ACQUIRE);
		if (head == c->rep_idx.tail)
			continue;
		if (__atomic_exchange_n(&c->rep_lock, 1u, __ATOMIC_ACQUIRE))
			continue; /* another hart drains it now */
		uint32_t tail = c->rep_idx.tail;
		if (head - tail > PT_UK_RING_SLOTS)
			tail = head - PT_UK_RING_SLOTS; /* a UK that broke the ring: resynchronise */
		pt_spin_lock(&pt_sync_lock);
		for (; tail != head; tail++) {
			struct pt_uk_rep r = c->rep[tail % PT_UK_RING_SLOTS];
			deliver(&r);
		}
		pt_spin_unlock(&pt_sync_lock);
		__atomic_store_n(&c->rep_idx.tail, tail, __ATOMIC_RELEASE);
		__atomic_store_n(&c->rep_lock, 0u, __ATOMIC_RELEASE);
	}
}

static bool uk_serving(void)
{
	return __atomic_load_n(&pt_uk_area.uk_state, __ATOMIC_ACQUIRE) == PT_UK_SERVING;
}

/* Queue a request on this hart's channel (interrupts masked: the hart's only producer). */
static bool push(uint16_t op, const struct pt_thread *me, uint32_t seq, uint32_t epoch,
		 const uint64_t arg[5])
{
	struct pt_uk_chan *c = &pt_uk_area.chan[hal_cpu_id()];
	uint32_t head = c->req_idx.head;
	if (head - __atomic_load_n(&c->req_idx.tail, __ATOMIC_ACQUIRE) >= PT_UK_RING_SLOTS)
		return false;
	struct pt_uk_req *q = &c->req[head % PT_UK_RING_SLOTS];
	q->seq = seq;
	q->op = op;
	q->part = me->part->id;
	q->tid = me->tid;
	q->epoch = epoch;
	q->as = me->part->as;
	for (int i = 0; i < 5; i++)
		q->arg[i] = arg[i];
	__atomic_store_n(&c->req_idx.head, head + 1, __ATOMIC_RELEASE);
	return true;
}

static int64_t fail(struct pt_thread *me, uint16_t ev, int64_t code, uint64_t a0, uint64_t a1)
{
	pt_trace_emit_masked(ev, me->tid, a0, a1);
	__atomic_fetch_add(&pt_uk_area.pk_failed, 1, __ATOMIC_RELAXED);
	return code;
}

/*
 * Wait for the caller's pending request: block poll_ns at a time, looking at the reply rings
 * between (a reply collected by another thread wakes it at once). Returns its result, or the
 * error that ends the wait (UK gone, timeout).
 */
static int64_t wait_reply(struct pt_thread *me)
{
	uint32_t slot = me->slot;
	uint64_t poll = pt_ns_to_cycles(pt_uk_cfg.poll_ns) ? pt_ns_to_cycles(pt_uk_cfg.poll_ns) : 1;
	uint64_t ms = pt_ns_to_cycles(1000000);
	/* the poll period doubles up to 64 x poll_ns, or 1 ms if that is less (but >= poll_ns) */
	uint64_t max_poll = poll * 64 < ms ? poll * 64 : (poll > ms ? poll : ms);
	for (;;) {
		poll_replies();
		pt_spin_lock(&pt_sync_lock);
		uint32_t seq = pend[slot].seq;
		uint16_t op = pend[slot].op;
		if (pend[slot].state == W_DONE) {
			int64_t r = pend[slot].result;
			pend[slot].state = W_IDLE;
			pt_spin_unlock(&pt_sync_lock);
			pt_trace_emit_masked(PT_EV_UK_REPLY, me->tid, seq, (uint64_t)r);
			return r;
		}
		uint64_t now = hal_cycles(), deadline = pend[slot].deadline;
		uint32_t epoch = pend[slot].epoch;
		bool gone = !uk_serving() ||
			    __atomic_load_n(&pt_uk_area.uk_epoch, __ATOMIC_ACQUIRE) != epoch;
		if (gone || now >= deadline) {
			pend[slot].state = W_IDLE; /* a late reply is now stale */
			pt_spin_unlock(&pt_sync_lock);
			if (gone)
				return fail(me, PT_EV_UK_DEAD, PT_UK_EDEAD, op, seq);
			uint64_t cancel[5] = {seq, 0, 0, 0, 0};
			(void)push(PT_UK_OP_CANCEL, me, seq, epoch, cancel); /* best effort */
			return fail(me, PT_EV_UK_TIMEOUT, PT_UK_ETIMEOUT, op, seq);
		}
		uint64_t until = now + poll < deadline ? now + poll : deadline;
		/* back off: a long wait (a pipe or socket with nothing to read) must not keep its
		 * thread ready every poll_ns, starving the threads below it on its hart */
		poll = 2 * poll < max_poll ? 2 * poll : max_poll;
		(void)pt_block(&uk_wq, PT_OBJ_SLEEP, seq, until); /* releases pt_sync_lock */
	}
}

/* Send one request and wait for its result. Interrupts masked (system call). */
static int64_t delegate(uint16_t op, const uint64_t arg[5])
{
	struct pt_thread *me = pt_current();
	poll_replies(); /* every call is a preemption point for the mailbox */
	if (!uk_serving())
		return fail(me, PT_EV_UK_NOUK, PT_UK_ENOUK, op, 0);
	uint32_t epoch = __atomic_load_n(&pt_uk_area.uk_epoch, __ATOMIC_ACQUIRE);
	uint32_t seq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED);
	if (!seq)
		seq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED); /* 0 is never a seq */
	uint32_t slot = me->slot;
	pt_spin_lock(&pt_sync_lock);
	pend[slot].seq = seq;
	pend[slot].epoch = epoch;
	pend[slot].op = op;
	pend[slot].deadline = pt_time_add_sat(hal_cycles(), pt_ns_to_cycles(pt_uk_cfg.timeout_ns));
	pend[slot].state = W_WAITING;
	pt_spin_unlock(&pt_sync_lock);
	if (!push(op, me, seq, epoch, arg)) {
		pend[slot].state = W_IDLE;
		return fail(me, PT_EV_UK_FULL, PT_UK_EFULL, op, hal_cpu_id());
	}
	__atomic_fetch_add(&pt_uk_area.pk_sent, 1, __ATOMIC_RELAXED);
	pt_trace_emit_masked(PT_EV_UK_SEND, me->tid, (uint64_t)op << 32 | hal_cpu_id(), seq);
	return wait_reply(me);
}

/* PT_SYS_UK_FIRST + op: a0..a2 user values, forwarded unchecked (the UK checks them against
 * the caller's address space); PT_SYS_UK_GETPID_LOCAL: the PK's own getpid. */
static int64_t sys(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct pt_thread *me = pt_current();
	if (!me->user || !me->part || !me->part->as)
		return PT_EPERM; /* the UK reaches user memory only, through its page tables */
	if (nr == PT_SYS_UK_GETPID_LOCAL)
		return me->part->id;
	uint32_t op = nr - PT_SYS_UK_FIRST;
	if (op == 0 || op >= PT_UK_OP_COUNT || op == PT_UK_OP_CANCEL)
		return PT_EINVAL;
	uint64_t arg[5] = {a0, a1, a2, a3, 0};
	return delegate((uint16_t)op, arg);
}

PT_SUBSYS_REGISTER(uk) = {
	.name = "uk",
	.boot = boot,
	.trace_first = PT_EV_UK_FIRST,
	.trace_count = PT_EV_UK_COUNT,
	.syscall_first = PT_SYS_UK_FIRST,
	.nsyscalls = PT_SYS_UK_COUNT,
	.syscall = sys,
};
