/* The memory-hierarchy timing model (SPDX-License-Identifier: MIT): see cache_model.h. */
#include "cache_model.h"

#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int cm_cache_init(struct cm_cache *c, const struct cm_cache_geom *g, const char **why)
{
	memset(c, 0, sizeof(*c));
	if (!is_pow2(g->line_bytes)) {
		*why = "line_bytes is not a power of two";
		return -1;
	}
	if (g->ways == 0 || g->size_bytes % ((uint64_t)g->ways * g->line_bytes)) {
		*why = "ways x line_bytes does not divide size_bytes";
		return -1;
	}
	uint64_t sets = g->size_bytes / ((uint64_t)g->ways * g->line_bytes);
	if (!is_pow2(sets) || sets > (1u << 30)) {
		*why = "size_bytes / (ways x line_bytes) is not a power-of-two number of sets";
		return -1;
	}
	c->sets = (uint32_t)sets;
	c->ways = g->ways;
	c->line_shift = (uint32_t)__builtin_ctzll(g->line_bytes);
	size_t n = (size_t)sets * g->ways;
	c->tag = calloc(n, sizeof(*c->tag));
	c->stamp = calloc(n, sizeof(*c->stamp));
	c->dirty = calloc(n, 1);
	if (!c->tag || !c->stamp || !c->dirty) {
		cm_cache_free(c);
		*why = "out of host memory";
		return -1;
	}
	return 0;
}

void cm_cache_free(struct cm_cache *c)
{
	free(c->tag);
	free(c->stamp);
	free(c->dirty);
	memset(c, 0, sizeof(*c));
}

uint32_t cm_cache_set_of(const struct cm_cache *c, uint64_t paddr)
{
	/* physically indexed: the set is the line number mod sets, so with 4 KiB pages the
	 * bits above the page offset are the page's color */
	return (uint32_t)((paddr >> c->line_shift) & (c->sets - 1));
}

bool cm_cache_contains(const struct cm_cache *c, uint64_t paddr)
{
	uint64_t key = (paddr >> c->line_shift) + 1;
	size_t base = (size_t)cm_cache_set_of(c, paddr) * c->ways;
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->tag[base + w] == key)
			return true;
	return false;
}

bool cm_cache_access(struct cm_cache *c, uint64_t paddr, bool write, uint64_t *wb_paddr)
{
	uint64_t key = (paddr >> c->line_shift) + 1;
	size_t base = (size_t)cm_cache_set_of(c, paddr) * c->ways;
	size_t victim = base;
	*wb_paddr = UINT64_MAX;
	c->clock++;
	for (uint32_t w = 0; w < c->ways; w++) {
		size_t i = base + w;
		if (c->tag[i] == key) {
			c->stamp[i] = c->clock;
			c->dirty[i] |= write;
			return true;
		}
		/* an invalid slot (stamp 0) is always the oldest; ties keep the lowest way */
		if (c->stamp[i] < c->stamp[victim])
			victim = i;
	}
	if (c->tag[victim] && c->dirty[victim])
		*wb_paddr = (c->tag[victim] - 1) << c->line_shift;
	c->tag[victim] = key;
	c->stamp[victim] = c->clock;
	c->dirty[victim] = write;
	return false;
}

int cm_hier_init(struct cm_hier *h, const struct cm_params *p, const char **why)
{
	memset(h, 0, sizeof(*h));
	if (p->nharts == 0 || p->nharts > CM_MAX_HARTS) {
		*why = "nharts must be 1..8";
		return -1;
	}
	if (p->llc.size_bytes == 0) {
		*why = "no last-level cache geometry (llc size_bytes 0)";
		return -1;
	}
	if ((p->l1i.size_bytes == 0) != (p->l1d.size_bytes == 0)) {
		*why = "give both L1 caches or neither";
		return -1;
	}
	h->p = *p;
	if (h->p.bus_window_cycles == 0)
		h->p.bus_window_cycles = 100000;
	h->has_l1 = p->l1i.size_bytes != 0;
	if (cm_cache_init(&h->llc, &p->llc, why))
		return -1;
	for (uint32_t i = 0; h->has_l1 && i < p->nharts; i++)
		if (cm_cache_init(&h->l1i[i], &p->l1i, why) || cm_cache_init(&h->l1d[i], &p->l1d, why)) {
			cm_hier_free(h);
			return -1;
		}
	return 0;
}

void cm_hier_free(struct cm_hier *h)
{
	cm_cache_free(&h->llc);
	for (uint32_t i = 0; i < CM_MAX_HARTS; i++) {
		cm_cache_free(&h->l1i[i]);
		cm_cache_free(&h->l1d[i]);
	}
}

/* Advance hart's modeled time; close its utilisation window when full. */
static void advance(struct cm_hier *h, uint32_t hart, uint64_t cycles)
{
	h->cycles[hart] += cycles;
	h->win_cycles[hart] += cycles;
	if (h->win_cycles[hart] >= h->p.bus_window_cycles) {
		uint64_t u = (h->win_busy[hart] << 16) / h->win_cycles[hart];
		h->util_q16[hart] = (uint32_t)(u > 65536 ? 65536 : u);
		h->win_cycles[hart] = h->win_busy[hart] = 0;
	}
}

static uint64_t bus_wait(const struct cm_hier *h, uint32_t hart)
{
	uint64_t others = 0;
	for (uint32_t i = 0; i < h->p.nharts; i++)
		if (i != hart)
			others += h->util_q16[i];
	return ((uint64_t)h->p.bus_cycles * others + 32768) >> 16; /* rounded to nearest */
}

/* An LLC writeback to memory: occupies the bus, stalls nobody. */
static void mem_writeback(struct cm_hier *h, uint32_t hart, struct cm_counts *n)
{
	n->mem_writebacks++;
	h->win_busy[hart] += h->p.bus_cycles;
}

/* A line written back from an L1 into the LLC (no stall; not a demand access). */
static void l1_writeback(struct cm_hier *h, uint32_t hart, uint64_t paddr, struct cm_counts *n)
{
	uint64_t wb;
	n->l1_writebacks++;
	if (!cm_cache_access(&h->llc, paddr, true, &wb))
		h->win_busy[hart] += h->p.bus_cycles; /* the rest of the line is fetched */
	if (wb != UINT64_MAX)
		mem_writeback(h, hart, n);
}

uint64_t cm_access(struct cm_hier *h, uint32_t hart, uint64_t paddr, enum cm_kind kind,
		   struct cm_counts *n)
{
	bool write = kind == CM_STORE;
	uint64_t wb, stall;
	if (kind == CM_IFETCH)
		n->ifetches++;
	else if (write)
		n->stores++;
	else
		n->loads++;
	if (h->has_l1) {
		struct cm_cache *l1 = kind == CM_IFETCH ? &h->l1i[hart] : &h->l1d[hart];
		bool hit = cm_cache_access(l1, paddr, write, &wb);
		if (kind == CM_IFETCH)
			*(hit ? &n->l1i_hits : &n->l1i_misses) += 1;
		else
			*(hit ? &n->l1d_hits : &n->l1d_misses) += 1;
		if (wb != UINT64_MAX)
			l1_writeback(h, hart, wb, n);
		if (hit) {
			stall = h->p.l1_hit_cycles;
			goto done;
		}
		write = false; /* the L1 holds the dirty copy; the LLC sees a line fill */
	}
	if (cm_cache_access(&h->llc, paddr, write, &wb)) {
		n->llc_hits++;
		stall = h->p.llc_hit_cycles;
	} else {
		uint64_t wait = bus_wait(h, hart);
		n->llc_misses++;
		n->bus_wait_cycles += wait;
		h->win_busy[hart] += h->p.bus_cycles;
		stall = (uint64_t)h->p.mem_cycles + wait;
	}
	if (wb != UINT64_MAX)
		mem_writeback(h, hart, n);
done:
	n->stall_cycles += stall;
	advance(h, hart, stall);
	return stall;
}

void cm_insns(struct cm_hier *h, uint32_t hart, uint64_t count, struct cm_counts *n)
{
	n->insns += count;
	advance(h, hart, count);
}
