/*
 * Single-producer / single-consumer rings of fixed-size records (<partita/svc.h>).
 * Invariant: 0 <= head - tail <= capacity (mod 2^32, capacity <= 2^31). Only the producer
 * writes head and refused, only the consumer writes tail. Record i sits in slot
 * i & (capacity - 1), which the consumer owns from the release store head = i + 1 until its
 * release store tail = i + 1, and the producer owns otherwise; a push waits for no one and
 * is refused while head - tail == capacity, so no unread record is ever overwritten.
 */
#include <partita/svc.h>

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }

int pt_svc_ring_init(struct pt_svc_ring *r, void *slots, uint32_t capacity,
		     uint32_t record_bytes)
{
	if (!pow2(capacity) || capacity > (1u << 31) || !record_bytes || !slots ||
	    (uint64_t)capacity * record_bytes > UINT32_MAX)
		return -1;
	r->head = r->tail = r->refused = 0;
	r->capacity = capacity;
	r->record_bytes = record_bytes;
	r->pad = 0;
	r->slots = slots;
	return 0;
}

/* Copy through volatile pointers: the compiler may not turn it into a memcpy call
 * (freestanding: no libc), and the other side reads the bytes after the fence. Whole 64-bit
 * words when both ends and the size allow it (a 48-byte coprocessor request: 6 word copies
 * instead of 48 byte copies), else bytes. */
static void copy(volatile uint8_t *dst, const volatile uint8_t *src, uint32_t n)
{
	if ((((uintptr_t)dst | (uintptr_t)src | n) & 7u) == 0) {
		volatile uint64_t *d = (volatile uint64_t *)dst;
		const volatile uint64_t *s = (const volatile uint64_t *)src;
		for (uint32_t i = 0; i < n / 8u; i++)
			d[i] = s[i];
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		dst[i] = src[i];
}

bool pt_svc_ring_push(struct pt_svc_ring *r, const void *record)
{
	uint32_t h = r->head;
	uint32_t t = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE); /* slot reads finished */
	if (h - t >= r->capacity) {
		r->refused++;
		return false;
	}
	copy(r->slots + (uint64_t)(h & (r->capacity - 1)) * r->record_bytes, record,
	     r->record_bytes);
	__atomic_store_n(&r->head, h + 1, __ATOMIC_RELEASE); /* record visible before head */
	return true;
}

bool pt_svc_ring_pop(struct pt_svc_ring *r, void *record)
{
	uint32_t t = r->tail;
	uint32_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE); /* record written */
	if (h == t)
		return false;
	copy(record, r->slots + (uint64_t)(t & (r->capacity - 1)) * r->record_bytes,
	     r->record_bytes);
	__atomic_store_n(&r->tail, t + 1, __ATOMIC_RELEASE); /* slot read before it is freed */
	return true;
}

uint32_t pt_svc_ring_count(const struct pt_svc_ring *r)
{
	uint32_t t = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	uint32_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	return h - t;
}

bool pt_svc_ring_full(const struct pt_svc_ring *r)
{
	return pt_svc_ring_count(r) >= r->capacity;
}

bool pt_svc_ring_empty(const struct pt_svc_ring *r)
{
	return pt_svc_ring_count(r) == 0;
}
