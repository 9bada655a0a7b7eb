/*
 * C-HEAP FIFOs (Nieuwland et al., "C-HEAP: a heterogeneous multi-processor architecture
 * template and scalable and flexible protocol for the design of embedded signal processing
 * systems", 2002; the paper of brief 4, §4): a circular buffer of `size_tokens` tokens with a
 * write counter `wc` (only the producer stores it) and a read counter `rc` (only the consumer
 * stores it). As in C-HEAP, both counters run modulo 2 * size_tokens (not 2^32: a counter
 * wrapping at 2^32 would jump between slots unless the size divides 2^32), so a token's slot
 * is its counter modulo size_tokens, and a full FIFO (wc - rc = size) differs from an empty
 * one (wc = rc):
 *     tokens held   = (wc - rc) mod 2*size_tokens
 *     space left    = size_tokens - tokens held
 * The producer may fire when space left >= space_needed, the consumer when tokens held >=
 * tokens_needed. Tokens are used in place: a claim gives a pointer into the buffer, and a
 * release advances the counter; nothing is copied.
 *
 * Across cores (the buffer and counters in memory both reach) the counters are the only
 * synchronisation, one writer each:
 *   producer: writes the tokens, then stores wc with release order (RISC-V: fence rw,w before
 *             the store), so a consumer that sees the new wc sees the tokens;
 *   consumer: loads wc with acquire order (fence r,rw after the load) before it reads tokens;
 *             after reading, stores rc with release order, so the producer that sees the new
 *             rc never overwrites a token still being read;
 *   producer: loads rc with acquire order before it writes into the freed slots.
 * A stale counter only ever understates (tokens for the consumer, space for the producer),
 * because the other side's counter only grows: every check here is conservative.
 *
 * Header-only (static inline) so applications, the kernel subsystem and host tests share it.
 */
#ifndef PARTITA_DF_FIFO_H
#define PARTITA_DF_FIFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_DF_FIFO_MAX_TOKENS (1u << 30) /* 2 * size fits in 31 bits */

struct pt_df_fifo {
	uint32_t wc;          /* tokens ever committed by the producer, mod 2 * size_tokens */
	uint32_t pad_wc[15];  /* wc and rc on separate 64-byte lines: one writer per line */
	uint32_t rc;          /* tokens ever released by the consumer, mod 2 * size_tokens */
	uint32_t pad_rc[15];
	uint32_t size_tokens; /* capacity, 1..PT_DF_FIFO_MAX_TOKENS; constant after init */
	uint32_t token_bytes; /* bytes of one token; constant after init */
	uint8_t *buf;         /* size_tokens * token_bytes bytes */
};

/* (a - b) mod 2*size for counters a, b in [0, 2*size) */
static inline uint32_t pt_df_fifo_diff(const struct pt_df_fifo *f, uint32_t a, uint32_t b)
{
	return a >= b ? a - b : a + 2 * f->size_tokens - b;
}

/* counter c advanced by n <= size tokens, mod 2*size */
static inline uint32_t pt_df_fifo_add(const struct pt_df_fifo *f, uint32_t c, uint32_t n)
{
	uint32_t x = c + n;
	return x >= 2 * f->size_tokens ? x - 2 * f->size_tokens : x;
}

/* An empty FIFO over `buf`; `initial` tokens (already in buf[0 ..]) count as written. Returns
 * false for a size out of range or more initial tokens than fit. Not concurrent with use. */
static inline bool pt_df_fifo_init(struct pt_df_fifo *f, void *buf, uint32_t size_tokens,
				   uint32_t token_bytes, uint32_t initial)
{
	if (size_tokens == 0 || size_tokens > PT_DF_FIFO_MAX_TOKENS || initial > size_tokens)
		return false;
	f->buf = (uint8_t *)buf;
	f->size_tokens = size_tokens;
	f->token_bytes = token_bytes;
	f->rc = 0;
	__atomic_store_n(&f->wc, initial, __ATOMIC_RELEASE);
	return true;
}

/* Tokens held, as the consumer sees them (acquire: the tokens counted are readable). */
static inline uint32_t pt_df_fifo_tokens(const struct pt_df_fifo *f)
{
	uint32_t wc = __atomic_load_n(&f->wc, __ATOMIC_ACQUIRE);
	uint32_t rc = __atomic_load_n(&f->rc, __ATOMIC_RELAXED); /* the consumer's own */
	return pt_df_fifo_diff(f, wc, rc);
}

/* Space left, as the producer sees it (acquire: the slots counted are no longer read). */
static inline uint32_t pt_df_fifo_space(const struct pt_df_fifo *f)
{
	uint32_t rc = __atomic_load_n(&f->rc, __ATOMIC_ACQUIRE);
	uint32_t wc = __atomic_load_n(&f->wc, __ATOMIC_RELAXED); /* the producer's own */
	return f->size_tokens - pt_df_fifo_diff(f, wc, rc);
}

/* The firing rules of the paper (Fig. 7). */
static inline bool pt_df_fifo_can_read(const struct pt_df_fifo *f, uint32_t tokens_needed)
{
	return pt_df_fifo_tokens(f) >= tokens_needed;
}

static inline bool pt_df_fifo_can_write(const struct pt_df_fifo *f, uint32_t space_needed)
{
	return pt_df_fifo_space(f) >= space_needed;
}

static inline void *pt_df_fifo_slot(const struct pt_df_fifo *f, uint32_t counter)
{
	uint32_t i = counter >= f->size_tokens ? counter - f->size_tokens : counter;
	return f->buf + (size_t)i * f->token_bytes;
}

/* Producer: the i-th free slot (i < space, so i < size); write the token there, then commit. */
static inline void *pt_df_fifo_claim_space(const struct pt_df_fifo *f, uint32_t i)
{
	return pt_df_fifo_slot(f, pt_df_fifo_add(f, __atomic_load_n(&f->wc, __ATOMIC_RELAXED), i));
}

/* Producer: n tokens written into the first n claimed slots become visible (release). */
static inline void pt_df_fifo_commit(struct pt_df_fifo *f, uint32_t n)
{
	uint32_t wc = __atomic_load_n(&f->wc, __ATOMIC_RELAXED);
	__atomic_store_n(&f->wc, pt_df_fifo_add(f, wc, n), __ATOMIC_RELEASE);
}

/* Consumer: the i-th token held (i < tokens), read in place. */
static inline const void *pt_df_fifo_claim_token(const struct pt_df_fifo *f, uint32_t i)
{
	return pt_df_fifo_slot(f, pt_df_fifo_add(f, __atomic_load_n(&f->rc, __ATOMIC_RELAXED), i));
}

/* Consumer: the first n tokens are done with; their slots go back to the producer. */
static inline void pt_df_fifo_release(struct pt_df_fifo *f, uint32_t n)
{
	uint32_t rc = __atomic_load_n(&f->rc, __ATOMIC_RELAXED);
	__atomic_store_n(&f->rc, pt_df_fifo_add(f, rc, n), __ATOMIC_RELEASE);
}

#endif
