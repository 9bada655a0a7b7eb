/*
 * SPM task: loop the packets of its subscribed flows back. Each input-mirror entry is copied to
 * the output mirror with its payload's 4-byte flow id kept and a 4-byte sequence counter
 * (persistent data, survives unload/load) stamped after it, so the host can count delivered
 * packets and see which job sent them. Runs entirely from its scratchpad partition.
 */
#include <partita/spm_task.h>
#include <partita/io_flow.h>

static uint32_t sent; /* persistent: travels back to main memory at unload */

static uint8_t *entry(struct pt_io_mbuf *m, uint32_t i)
{
	return (uint8_t *)(m + 1) + (uint64_t)i * PT_IO_ENTRY_BYTES(m->slot_bytes);
}

PT_SPM_ENTRY void spm_loopback(struct pt_spm_ctx *ctx)
{
	if (ctx->job == 1 && ctx->puts)
		ctx->puts("loopback: first job"); /* through the I/O core's UART */
	if (!ctx->in || !ctx->out)
		return;
	uint32_t n = ctx->in->count;
	if (n > ctx->out->slots) {
		ctx->out->drops += n - ctx->out->slots; /* counted, never silent */
		n = ctx->out->slots;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *src = entry(ctx->in, i), *dst = entry(ctx->out, i);
		uint32_t len = *(uint32_t *)src;
		if (len > ctx->out->slot_bytes)
			len = ctx->out->slot_bytes;
		*(uint32_t *)dst = len;
		for (uint32_t k = 0; k < len; k++)
			dst[4 + k] = src[4 + k];
		if (len >= 8) {
			sent++;
			for (int k = 0; k < 4; k++)
				dst[8 + k] = (uint8_t)(sent >> (8 * k)); /* payload 4..7 */
		}
	}
	ctx->out->count = n;
	ctx->in->count = 0;
}
