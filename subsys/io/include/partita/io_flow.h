/*
 * I/O flows, subscriptions and mirror buffers (brief 0; Tabish et al. §IV-C).
 *
 * Device data never reaches a task directly. The I/O core dispatches every received packet to
 * the input mirror buffer of each task subscribed to its flow; the input mirror travels into
 * the scratchpad with the task's load, the output mirror comes back with its unload and its
 * entries are then sent to the device. So a task sees I/O only at load/unload boundaries.
 *
 * A mirror buffer is one contiguous region (so it is a single DMA segment) with this layout,
 * shared by the I/O core and the task image (apps/spm/ use the same struct):
 *   struct pt_io_mbuf header; then `slots` entries of { uint32_t len; uint8_t data[slot_bytes] }
 * Portable: compiled for the host unit tests as well.
 */
#ifndef PARTITA_SUBSYS_IO_FLOW_H
#define PARTITA_SUBSYS_IO_FLOW_H

#include <stdint.h>
#include <stdbool.h>

enum pt_io_policy {
	PT_IO_OVERWRITE = 0, /* keep only the newest entries: a full buffer drops its oldest */
	PT_IO_QUEUE = 1,     /* bounded FIFO: a full buffer drops the arrival, counted */
};

struct pt_io_mbuf {
	uint32_t count;      /* valid entries, oldest first */
	uint32_t drops;      /* entries lost (queue full / overwritten), monotonic */
	uint32_t slots;      /* capacity in entries */
	uint32_t slot_bytes; /* payload capacity of one entry */
};

#define PT_IO_ENTRY_BYTES(slot_bytes) (4u + (((slot_bytes) + 7u) & ~7u))
#define PT_IO_MBUF_BYTES(slots, slot_bytes) \
	((uint32_t)sizeof(struct pt_io_mbuf) + (slots) * PT_IO_ENTRY_BYTES(slot_bytes))

/* A task's subscription to a flow (configuration). */
struct pt_io_sub {
	uint16_t task;       /* SPM task id */
	uint16_t flow;       /* flow id carried in the packet payload */
	uint8_t policy;      /* enum pt_io_policy */
	uint16_t depth;      /* mirror_depth: entries of this flow a mirror holds; 0 = the
			      * mirror's capacity is the only bound */
};

/* Run-time state of one subscription (the I/O core's, indexed like the subscriptions):
 * entries of its flow now in the task's input mirror, and the arrivals it lost. */
struct pt_io_sub_state {
	uint32_t queued;
	uint32_t drops;      /* monotonic: per (task, flow), never reset */
};

void pt_io_mbuf_init(struct pt_io_mbuf *m, uint32_t slots, uint32_t slot_bytes);
/* Append an entry. Returns false if something was dropped (the arrival or the oldest). */
bool pt_io_mbuf_put(struct pt_io_mbuf *m, uint8_t policy, const void *data, uint32_t len);
/* Entry i (0 = oldest): its payload and length; NULL if i >= count. */
uint8_t *pt_io_mbuf_entry(struct pt_io_mbuf *m, uint32_t i, uint32_t *len);
void pt_io_mbuf_clear(struct pt_io_mbuf *m);

/* Copy a received packet of `flow` into the input mirror of every subscribed task.
 * in_mirrors[task] is the task's input mirror (NULL = none). Returns how many tasks got it;
 * *dropped counts mirrors that dropped an entry. */
uint32_t pt_io_dispatch(const struct pt_io_sub *subs, uint32_t nsubs,
			struct pt_io_mbuf *const *in_mirrors, uint16_t flow,
			const void *data, uint32_t len, uint32_t *dropped);

/* As pt_io_dispatch, with each subscription's bounded queue: a subscription whose depth
 * entries are all still in the mirror refuses the arrival (queue policy; overwrite drops the
 * mirror's oldest, as pt_io_mbuf_put does); every loss is counted in state[i].drops of the
 * subscription that lost it and in the mirror's header. dropped_mask (may be NULL) gets bit i
 * set for each subscription i (< 32) that dropped. Returns how many tasks got the packet. */
uint32_t pt_io_dispatch_bounded(const struct pt_io_sub *subs, struct pt_io_sub_state *state,
				uint32_t nsubs, struct pt_io_mbuf *const *in_mirrors,
				uint16_t flow, const void *data, uint32_t len,
				uint32_t *dropped, uint32_t *dropped_mask);
/* The task's input mirror was handed over (loaded): its subscriptions hold nothing. */
void pt_io_subs_emptied(const struct pt_io_sub *subs, struct pt_io_sub_state *state,
			uint32_t nsubs, uint16_t task);

/* Flow id of a packet payload: the first 4 bytes, little endian (traffic tool format). */
uint16_t pt_io_flow_of(const uint8_t *payload, uint32_t len);

#endif
