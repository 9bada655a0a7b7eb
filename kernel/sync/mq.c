/*
 * Message queues: fixed-size messages copied into a ring of `capacity` slots. A blocked
 * sender or receiver is woken when the ring changes and retries in its own address space
 * (the copy always happens in the caller's context, so user buffers need no remapping).
 */
#include "objects.h"

static struct pt_mq *mq_table[PT_MAX_MQS];
static struct pt_mq mq_pool[PT_MAX_MQS];
static uint8_t mq_pool_used[PT_MAX_MQS];
static uint8_t mq_bytes[PT_MQ_POOL_BYTES] __attribute__((aligned(8)));
static uint32_t mq_bytes_used;
/* Storage carved for pool slot i (kept when its queue is deleted, for the next queue that
 * fits): no allocation is ever returned to the bump pointer, so none can fragment it. */
static uint8_t *mq_slot_buf[PT_MAX_MQS];
static uint32_t mq_slot_bytes[PT_MAX_MQS];

static int mq_register(struct pt_mq *q, void *buf, uint32_t msg_bytes, uint32_t capacity)
{
	for (int i = 0; i < PT_MAX_MQS; i++) {
		if (!mq_table[i]) {
			pt_waitq_init(&q->senders);
			pt_waitq_init(&q->receivers);
			q->buf = buf;
			q->msg_bytes = msg_bytes;
			q->capacity = capacity;
			q->head = q->count = 0;
			q->id = (int16_t)i;
			q->owner_part = pt_caller_part_tag();
			mq_table[i] = q;
			return i;
		}
	}
	return PT_ENOSPC;
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
	if (!msg_bytes || !capacity || msg_bytes > 4096 || capacity > 4096)
		return PT_EINVAL;
	uint64_t need = ((uint64_t)msg_bytes * capacity + 7) & ~7ull;
	unsigned long f = hal_irq_save();
	pt_spin_lock(&pt_sync_lock);
	int slot = -1;
	/* a free slot whose storage fits, else a fresh slot with new storage */
	for (int i = 0; i < PT_MAX_MQS && slot < 0; i++)
		if (!mq_pool_used[i] && mq_slot_bytes[i] >= need)
			slot = i;
	for (int i = 0; i < PT_MAX_MQS && slot < 0; i++) {
		if (!mq_pool_used[i] && !mq_slot_bytes[i]) {
			if (mq_bytes_used + need <= PT_MQ_POOL_BYTES) {
				mq_slot_buf[i] = &mq_bytes[mq_bytes_used];
				mq_slot_bytes[i] = (uint32_t)need;
				mq_bytes_used += (uint32_t)need;
				slot = i;
			}
			break;
		}
	}
	int r = PT_ENOSPC;
	if (slot >= 0) {
		r = mq_register(&mq_pool[slot], mq_slot_buf[slot], msg_bytes, capacity);
		if (r >= 0)
			mq_pool_used[slot] = 1;
	}
	pt_spin_unlock(&pt_sync_lock);
	hal_irq_restore(f);
	return r;
}

struct pt_mq *pt_mq_lookup(int id);
struct pt_mq *pt_mq_lookup(int id)
{
	if (id < 0 || id >= PT_MAX_MQS || !mq_table[id])
		return 0;
	struct pt_mq *q = mq_table[id];
	return pt_sync_obj_allowed(q->owner_part) ? q : 0;
}

/* Send (copy msg in at the tail) or receive (copy the head out to msg), waiting while the
 * queue is full or empty; a completed transfer wakes one waiter of the other side, which
 * retries (in its own address space: the copy always runs in the caller's). */
static int mq_xfer(int id, void *msg, uint64_t timeout_ns, bool send)
{
	uint64_t until = pt_timeout_until(timeout_ns);
	unsigned long f = hal_irq_save();
	for (;;) {
		pt_spin_lock(&pt_sync_lock);
		struct pt_mq *q = pt_mq_lookup(id);
		if (!q || !msg) {
			pt_spin_unlock(&pt_sync_lock);
			hal_irq_restore(f);
			return PT_EINVAL;
		}
		if (send ? q->count < q->capacity : q->count > 0) {
			if (send) {
				uint32_t slot = (q->head + q->count) % q->capacity;
				memcpy(q->buf + (size_t)slot * q->msg_bytes, msg, q->msg_bytes);
				q->count++;
			} else {
				memcpy(msg, q->buf + (size_t)q->head * q->msg_bytes, q->msg_bytes);
				q->head = (q->head + 1) % q->capacity;
				q->count--;
			}
			struct pt_thread *w = pt_waitq_first(send ? &q->receivers : &q->senders);
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
	return mq_xfer(id, (void *)(uintptr_t)msg, timeout_ns, true);
}

int pt_k_mq_recv(int id, void *msg, uint64_t timeout_ns)
{
	return mq_xfer(id, msg, timeout_ns, false);
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
		mq_table[id] = 0;
		if (q >= mq_pool && q < mq_pool + PT_MAX_MQS)
			mq_pool_used[q - mq_pool] = 0;
		r = PT_OK;
	}
	pt_spin_unlock(&pt_sync_lock);
	pt_preempt_point();
	hal_irq_restore(f);
	return r;
}
