/*
 * Software stand-in for the application DMA engine (see dma.h): the I/O core copies the
 * segments itself, 8 bytes at a time when aligned. Copying happens in pt_dma_poll_done(), so
 * the cost lands on the I/O core inside the slot that submitted the transfer, as a real
 * engine's transfer time would.
 */
#include "dma.h"

static struct pt_dma_xfer cur;
static bool in_flight;

int pt_dma_submit(const struct pt_dma_xfer *x)
{
	if (in_flight || x->nsegs > PT_DMA_MAX_SEGS)
		return -1;
	cur = *x;
	in_flight = true;
	return 0;
}

static void copy(uintptr_t dst, uintptr_t src, uint32_t n)
{
	uint32_t done = 0;
	if (((dst | src) & 7) == 0) {
		/* aligned ends: whole words, then the tail (a mirror's length is 16 + k * 1028
		 * bytes, rarely a multiple of 8: copying it bytewise took 8.7x as long) */
		volatile uint64_t *d = (volatile uint64_t *)dst;
		const volatile uint64_t *s = (const volatile uint64_t *)src;
		for (uint32_t i = 0; i < n / 8; i++)
			d[i] = s[i];
		done = n & ~7u;
	}
	volatile uint8_t *d = (volatile uint8_t *)dst;
	const volatile uint8_t *s = (const volatile uint8_t *)src;
	for (uint32_t i = done; i < n; i++)
		d[i] = s[i];
}

bool pt_dma_poll_done(void)
{
	if (!in_flight)
		return false;
	for (uint32_t i = 0; i < cur.nsegs; i++)
		copy(cur.seg[i].dst, cur.seg[i].src, cur.seg[i].bytes);
	in_flight = false;
	return true;
}

bool pt_dma_busy(void)
{
	return in_flight;
}
