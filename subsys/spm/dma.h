/*
 * The application DMA interface (brief 0). On the MPC5777M of the source paper this is a DMA
 * engine programmed by the I/O core; QEMU virt has no such engine, so on qemu-virt it is a
 * SOFTWARE STAND-IN: the I/O core itself copies the memory (dma_sw.c). A real engine would
 * implement the same three calls. Only the I/O core submits transfers, and at most one
 * transfer is in flight at any time (the TDMA protocol guarantees it; pt_dma_submit refuses
 * a second one).
 *
 * A transfer is a short scatter list, so a load moves the task image and its input mirror
 * buffer as one transfer, and an unload moves the persistent data and the output mirror back.
 */
#ifndef PARTITA_SUBSYS_SPM_DMA_H
#define PARTITA_SUBSYS_SPM_DMA_H

#include <stdint.h>
#include <stdbool.h>

#define PT_DMA_MAX_SEGS 3

struct pt_dma_seg {
	uintptr_t dst;
	uintptr_t src;
	uint32_t bytes;
};

struct pt_dma_xfer {
	uint32_t nsegs;
	struct pt_dma_seg seg[PT_DMA_MAX_SEGS];
};

/* Program a transfer. Returns 0, or -1 if one is already in flight. */
int pt_dma_submit(const struct pt_dma_xfer *x);

/* Advance the engine (the software stand-in copies here) and report whether the transfer
 * submitted last has completed. Returns true once per transfer. */
bool pt_dma_poll_done(void);

/* true while a transfer is in flight */
bool pt_dma_busy(void);

#endif
