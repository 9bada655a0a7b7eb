/*
 * Message queues: fixed-size messages copied into a ring of `capacity` slots. A blocked
 * sender or receiver is woken when the ring changes and retries in its own address space
 * (the copy always happens in the caller's context, so user buffers need no remapping).
 */
#include "objects.h"

PT_OBJTAB_DEFINE(mqs, PT_MAX_MQS, PT_QUOTA_MQS);
PT_KDATA static struct pt_mq mq_pool[PT_MAX_MQS];
PT_KDATA static uint8_t mq_pool_used[PT_MAX_MQS];

/*
 * Storage behind created queues: extents of mq_bytes kept sorted by offset; a new queue takes
 * the first gap that fits (first fit, at most PT_MAX_MQS + 1 gaps looked at). Deleting a queue
 * removes its extent, so the free space beside it merges with its neighbours at once: the pool
 * never fragments for good (once every queue is deleted, one queue of PT_MQ_POOL_BYTES fits).
 */
PT_KDATA static uint8_t mq_bytes[PT_MQ_POOL_BYTES] __attribute__((aligned(8)));
PT_KDATA static uint32_t ext_off[PT_MAX_MQS], ext_len[PT_MAX_MQS];
PT_KDATA static uint32_t next_ext;

static uint8_t *storage_alloc(uint32_t need)
{
	uint32_t at = 0, i = 0;
	for (; i < next_ext; i++) {
		if (ext_off[i] - at >= need)
			break;
		at = ext_off[i] + ext_len[i];
	}
	if (next_ext == PT_MAX_MQS || PT_MQ_POOL_BYTES - at < need)
		return 0;
	for (uint32_t j = next_ext; j > i; j--) {
		ext_off[j] = ext_off[j - 1];
		ext_len[j] = ext_len[j - 1];
	}
	ext_off[i] = at;
	ext_len[i] = need;
	next_ext++;
	return &mq_bytes[at];
}

static void storage_free(uint8_t *buf)
{
	uint32_t off = (uint32_t)(buf - mq_bytes);
	for (uint32_t i = 0; i < next_ext; i++) {
		if (ext_off[i] != off)
			continue;
		for (next_ext--; i < next_ext; i++) {
			ext_off[i] = ext_off[i + 1];
			ext_len[i] = ext_len[i + 1];
		}
		return;
	}
}

static bool is_pool_mq(const struct pt_mq *q)
{
	return q >= mq_pool && q < mq_pool + PT_MAX_MQS;
}

static int mq_register(struct pt_mq *q, void *buf, uint32_t msg_bytes, uint32_t capacity)
{
	int id = pt_objtab_add(&mqs, q);
	if (id < 0)
		return id;
	pt_waitq_init(&q->senders);
	pt_waitq_init(&q->receivers);
	q->buf = buf;
	q->msg_bytes = msg_bytes;
	q->capacity = capacity;
	q->head = q->count = 0;
	q->id = id;
	q->owner_part = pt_caller_part_tag();
	return id;
}

int pt_mq_init(struct pt_mq *q, void *buf, uint32_t msg_bytes, uint32_t capacity)
{
	if (!q || !buf || !msg_bytes || !capacity)
		return PT_EINVAL;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int r = mq_register(q, buf, msg_bytes, capacity);
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_mq_create(uint32_t msg_bytes, uint32_t capacity)
{
	if (!msg_bytes || !capacity || msg_bytes > PT_MQ_MSG_MAX_BYTES || capacity > PT_MQ_MSG_MAX_BYTES)
		return PT_EINVAL;
	uint64_t need = ((uint64_t)msg_bytes * capacity + 7) & ~7ull;
	if (need > PT_MQ_POOL_BYTES)
		return PT_ENOSPC;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	uint16_t tag = pt_caller_part_tag();
	int r = pt_quota_charge(tag, PT_QUOTA_MQ_BYTES, (uint32_t)need);
	bool charged = !r;
	int slot = -1;
	for (int i = 0; i < PT_MAX_MQS && slot < 0; i++)
		if (!mq_pool_used[i])
			slot = i;
	uint8_t *buf = 0;
	if (!r && (slot < 0 || !(buf = storage_alloc((uint32_t)need))))
		r = PT_ENOSPC;
	if (!r) {
		r = mq_register(&mq_pool[slot], buf, msg_bytes, capacity);
		if (r >= 0)
			mq_pool_used[slot] = 1;
		else
			storage_free(buf);
	}
	if (r < 0 && charged)
		pt_quota_release(tag, PT_QUOTA_MQ_BYTES, (uint32_t)need);
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

struct pt_mq *pt_mq_lookup(int id);
struct pt_mq *pt_mq_lookup(int id)
{
	return pt_objtab_get(&mqs, id);
}

enum mq_op { MQ_SEND_BACK, MQ_SEND_FRONT, MQ_RECV, MQ_PEEK };

/* Copy one message in or out; the caller holds pt_sync_lock and has checked that the queue
 * has room (sends) or a message (receive, peek). */
static void mq_copy(struct pt_mq *q, void *msg, enum mq_op op)
{
	uint32_t slot;
	switch (op) {
	case MQ_SEND_BACK:
		slot = (q->head + q->count) % q->capacity;
		memcpy(q->buf + (size_t)slot * q->msg_bytes, msg, q->msg_bytes);
		q->count++;
		break;
	case MQ_SEND_FRONT: /* the new head: received before every message already queued */
		q->head = (q->head + q->capacity - 1) % q->capacity;
		memcpy(q->buf + (size_t)q->head * q->msg_bytes, msg, q->msg_bytes);
		q->count++;
		break;
	case MQ_RECV:
		memcpy(msg, q->buf + (size_t)q->head * q->msg_bytes, q->msg_bytes);
		q->head = (q->head + 1) % q->capacity;
		q->count--;
		break;
	case MQ_PEEK:
		memcpy(msg, q->buf + (size_t)q->head * q->msg_bytes, q->msg_bytes);
		break;
	}
}

/* Send (copy msg in at the tail or the head), receive (copy the head out to msg) or peek (copy
 * the head, leave it), waiting while the queue is full or empty; a completed transfer wakes
 * one waiter of the other side, which retries (in its own address space: the copy always runs
 * in the caller's). Peekers wait with the receivers; a peek leaves the message, so it wakes
 * the next waiting receiver or peeker instead. */
static int mq_xfer(int id, void *msg, uint64_t timeout_ns, enum mq_op op)
{
	bool send = op == MQ_SEND_BACK || op == MQ_SEND_FRONT;
	uint64_t until = pt_timeout_until(timeout_ns);
	unsigned long f = hal_irq_save();
	bool user = pt_current()->user;
	for (int waited = 0;; waited = 1) {
		pt_spin_lock(&pt_sync_lock);
		struct pt_mq *q = pt_mq_lookup(id);
		/* A user buffer is checked here, against the size about to be copied, at the time
		 * of copying: never against an earlier look at the queue (the id may have gone
		 * stale while this thread waited; the generation in the id makes the lookup fail). */
		int bad = !q ? (waited ? PT_EDELETED : PT_EINVAL)
			     : !msg || (user && !pt_user_range_ok(msg, q->msg_bytes, !send)) ? PT_EINVAL
											 : PT_OK;
		if (bad) {
			pt_spin_unlock(&pt_sync_lock);
			hal_irq_restore(f);
			return bad;
		}
		if (send ? q->count < q->capacity : q->count > 0) {
			mq_copy(q, msg, op);
			struct pt_thread *w = pt_waitq_first(send || op == MQ_PEEK ? &q->receivers
									   : &q->senders);
			if (w)
				pt_wake(w, PT_OK);
			pt_spin_unlock(&pt_sync_lock);
			pt_preempt_point();
			hal_irq_restore(f);
			return PT_OK;
		}
		if (timeout_ns == PT_NO_WAIT) {
			pt_spin_unlock(&pt_sync_lock);
			hal_irq_restore(f);
			return PT_EAGAIN;
		}
		int r = pt_block(send ? &q->senders : &q->receivers, PT_OBJ_MQ, (uint32_t)id, until);
		if (r != PT_OK) {
			hal_irq_restore(f);
			return r;
		}
	}
}

int pt_k_mq_send(int id, const void *msg, uint64_t timeout_ns)
{
	return mq_xfer(id, (void *)(uintptr_t)msg, timeout_ns, MQ_SEND_BACK);
}

int pt_k_mq_send_front(int id, const void *msg, uint64_t timeout_ns)
{
	return mq_xfer(id, (void *)(uintptr_t)msg, timeout_ns, MQ_SEND_FRONT);
}

int pt_k_mq_recv(int id, void *msg, uint64_t timeout_ns)
{
	return mq_xfer(id, msg, timeout_ns, MQ_RECV);
}

int pt_k_mq_peek(int id, void *msg, uint64_t timeout_ns)
{
	return mq_xfer(id, msg, timeout_ns, MQ_PEEK);
}

/* A mailbox write: the single slot of a capacity-1 queue takes msg whether or not it was full,
 * so the call never waits. */
int pt_k_mq_overwrite(int id, const void *msg)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mq *q = pt_mq_lookup(id);
	int r = !q || !msg || q->capacity != 1 ? PT_EINVAL
	      : pt_current()->user && !pt_user_range_ok(msg, q->msg_bytes, false) ? PT_EINVAL
										  : PT_OK;
	if (!r) {
		q->head = 0;
		q->count = 0;
		mq_copy(q, (void *)(uintptr_t)msg, MQ_SEND_BACK);
		struct pt_thread *w = pt_waitq_first(&q->receivers);
		if (w)
			pt_wake(w, PT_OK);
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}

int pt_k_mq_count(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mq *q = pt_mq_lookup(id);
	int r = q ? (int)q->count : PT_EINVAL;
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

int pt_k_mq_delete(int id)
{
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	struct pt_mq *q = pt_mq_lookup(id);
	int r = PT_EINVAL;
	if (q && !pt_sync_obj_deletable(q->owner_part)) {
		r = PT_EPERM;
	} else if (q) {
		pt_waitq_wake_all(&q->senders, PT_EDELETED);
		pt_waitq_wake_all(&q->receivers, PT_EDELETED);
		if (is_pool_mq(q)) {
			pt_quota_release(pt_objtab_owner(&mqs, id), PT_QUOTA_MQ_BYTES,
					 (uint32_t)(((uint64_t)q->msg_bytes * q->capacity + 7) & ~7ull));
			storage_free(q->buf);
			mq_pool_used[q - mq_pool] = 0;
		}
		pt_objtab_remove(&mqs, id);
		r = PT_OK;
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}
