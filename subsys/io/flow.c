/* Flows, subscriptions and mirror buffers; see flow.h. */
#include <partita/io_flow.h>

static uint8_t *entry_at(struct pt_io_mbuf *m, uint32_t i)
{
	return (uint8_t *)(m + 1) + (uint64_t)i * PT_IO_ENTRY_BYTES(m->slot_bytes);
}

static void copy_bytes(uint8_t *d, const uint8_t *s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		d[i] = s[i];
}

void pt_io_mbuf_init(struct pt_io_mbuf *m, uint32_t slots, uint32_t slot_bytes)
{
	m->count = 0;
	m->drops = 0;
	m->slots = slots;
	m->slot_bytes = slot_bytes;
}

void pt_io_mbuf_clear(struct pt_io_mbuf *m)
{
	m->count = 0;
}

bool pt_io_mbuf_put(struct pt_io_mbuf *m, uint8_t policy, const void *data, uint32_t len)
{
	bool ok = true;
	if (m->slots == 0) {
		m->drops++;
		return false;
	}
	if (len > m->slot_bytes)
		len = m->slot_bytes; /* truncate: the configuration sized the slot */
	if (m->count == m->slots) {
		m->drops++;
		ok = false;
		if (policy == PT_IO_QUEUE)
			return false;
		/* overwrite: shift out the oldest (slots is small: 1..a few) */
		for (uint32_t i = 1; i < m->count; i++) {
			uint32_t *src = (uint32_t *)entry_at(m, i);
			copy_bytes(entry_at(m, i - 1), (const uint8_t *)src, 4 + *src);
		}
		m->count--;
	}
	uint8_t *e = entry_at(m, m->count);
	*(uint32_t *)e = len;
	copy_bytes(e + 4, data, len);
	m->count++;
	return ok;
}

uint8_t *pt_io_mbuf_entry(struct pt_io_mbuf *m, uint32_t i, uint32_t *len)
{
	if (i >= m->count)
		return 0;
	uint8_t *e = entry_at(m, i);
	*len = *(uint32_t *)e;
	if (*len > m->slot_bytes)
		*len = m->slot_bytes; /* written by a task: never trust it beyond the slot */
	return e + 4;
}

uint32_t pt_io_dispatch(const struct pt_io_sub *subs, uint32_t nsubs,
			struct pt_io_mbuf *const *in_mirrors, uint16_t flow,
			const void *data, uint32_t len, uint32_t *dropped)
{
	uint32_t n = 0;
	*dropped = 0;
	for (uint32_t i = 0; i < nsubs; i++) {
		if (subs[i].flow != flow || !in_mirrors[subs[i].task])
			continue;
		if (!pt_io_mbuf_put(in_mirrors[subs[i].task], subs[i].policy, data, len))
			(*dropped)++;
		n++;
	}
	return n;
}

uint32_t pt_io_dispatch_bounded(const struct pt_io_sub *subs, struct pt_io_sub_state *state,
				uint32_t nsubs, struct pt_io_mbuf *const *in_mirrors,
				uint16_t flow, const void *data, uint32_t len,
				uint32_t *dropped, uint32_t *dropped_mask)
{
	uint32_t n = 0;
	*dropped = 0;
	if (dropped_mask)
		*dropped_mask = 0;
	for (uint32_t i = 0; i < nsubs; i++) {
		struct pt_io_mbuf *m = in_mirrors[subs[i].task];
		if (subs[i].flow != flow || !m)
			continue;
		n++;
		bool ok;
		if (subs[i].depth && state[i].queued >= subs[i].depth &&
		    subs[i].policy == PT_IO_QUEUE) {
			m->drops++; /* refused: this flow's queue is full */
			ok = false;
		} else {
			uint32_t before = m->count;
			ok = pt_io_mbuf_put(m, subs[i].policy, data, len);
			if (m->count > before) /* overwrite on a full mirror: count unchanged */
				state[i].queued++;
		}
		if (!ok) {
			state[i].drops++;
			(*dropped)++;
			if (dropped_mask && i < 32)
				*dropped_mask |= 1u << i;
		}
	}
	return n;
}

void pt_io_subs_emptied(const struct pt_io_sub *subs, struct pt_io_sub_state *state,
			uint32_t nsubs, uint16_t task)
{
	for (uint32_t i = 0; i < nsubs; i++)
		if (subs[i].task == task)
			state[i].queued = 0;
}

uint16_t pt_io_flow_of(const uint8_t *payload, uint32_t len)
{
	if (len < 4)
		return 0xffff;
	return (uint16_t)(payload[0] | (uint32_t)payload[1] << 8);
}
