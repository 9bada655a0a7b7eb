/*
 * The memory-hierarchy timing model (SPDX-License-Identifier: MIT, see LICENSE here): per-hart
 * private L1 instruction and data caches (optional), one shared physically indexed
 * set-associative last-level cache, main memory behind a shared bus. Plain C, no QEMU: the
 * plugin (plugin.c) feeds it physical addresses; tests/unit/cachesim/test_cachesim.c checks it against
 * a reference model.
 *
 * Every cache is write-back, write-allocate, true LRU. Stall cycles per access:
 *   L1 hit                 l1_hit_cycles (0: hidden by the pipeline)
 *   L1 miss, LLC hit       llc_hit_cycles
 *   LLC miss               mem_cycles + bus wait (below)
 * without L1 (size 0), an access goes straight to the LLC with the same two costs.
 * Dirty victims are written back without stalling the hart (a write buffer), but an LLC
 * writeback occupies the bus like a fill.
 *
 * Bus contention: each hart h has a utilisation u_h, the fraction of its own modeled cycles
 * during which its memory transfers occupied the bus (bus_cycles each), measured over windows
 * of bus_window_cycles of that hart's modeled time. A demand miss of hart h waits
 *   bus_cycles x sum over the other harts h' of u_h'
 * (the expected occupancy found in progress). Utilisations are per hart's own time, so the
 * figure does not depend on how QEMU interleaves the harts; integer arithmetic throughout, so
 * the model is deterministic for a given access order.
 */
#ifndef CACHESIM_CACHE_MODEL_H
#define CACHESIM_CACHE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define CM_MAX_HARTS 8

struct cm_cache_geom {
	uint64_t size_bytes; /* 0 = no such cache */
	uint32_t ways;
	uint32_t line_bytes;
};

/* One set-associative cache. Line l of set s is slot s * ways + l. */
struct cm_cache {
	uint32_t sets, ways, line_shift;
	uint64_t *tag;   /* line address + 1; 0 = invalid */
	uint64_t *stamp; /* last use (LRU: the smallest stamp of a full set is the victim) */
	uint8_t *dirty;
	uint64_t clock;  /* strictly increasing use counter */
};

/* 0, or -1 when the geometry is not a power-of-two number of sets of power-of-two lines
 * (`why` then says which number is wrong). */
int cm_cache_init(struct cm_cache *c, const struct cm_cache_geom *g, const char **why);
void cm_cache_free(struct cm_cache *c);
uint32_t cm_cache_set_of(const struct cm_cache *c, uint64_t paddr);
/* Look up paddr's line; on a miss, allocate it (evicting the LRU line). Returns true on a hit.
 * *wb_paddr receives the address of a dirty victim (a writeback), else UINT64_MAX. */
bool cm_cache_access(struct cm_cache *c, uint64_t paddr, bool write, uint64_t *wb_paddr);
/* Whether paddr's line is present (no state change). */
bool cm_cache_contains(const struct cm_cache *c, uint64_t paddr);

struct cm_params {
	struct cm_cache_geom l1i, l1d, llc;
	uint32_t l1_hit_cycles;
	uint32_t llc_hit_cycles;
	uint32_t mem_cycles;
	uint32_t bus_cycles;        /* bus occupancy of one line transfer; 0 = no contention */
	uint32_t bus_window_cycles; /* a hart's utilisation window (its modeled cycles) */
	uint32_t nharts;            /* 1 .. CM_MAX_HARTS */
};

enum cm_kind { CM_IFETCH, CM_LOAD, CM_STORE };

/* What an access did, added up by the caller per thread / job. */
struct cm_counts {
	uint64_t insns, ifetches, loads, stores;
	uint64_t l1i_hits, l1i_misses, l1d_hits, l1d_misses;
	uint64_t llc_hits, llc_misses; /* demand accesses only (not L1 writebacks) */
	uint64_t l1_writebacks, mem_writebacks;
	uint64_t stall_cycles, bus_wait_cycles; /* bus wait is part of the stalls */
};

struct cm_hier {
	struct cm_params p;
	bool has_l1;
	struct cm_cache l1i[CM_MAX_HARTS], l1d[CM_MAX_HARTS], llc;
	uint64_t cycles[CM_MAX_HARTS];     /* modeled cycles: instructions + stalls */
	uint64_t win_cycles[CM_MAX_HARTS]; /* the current window: modeled cycles, bus cycles */
	uint64_t win_busy[CM_MAX_HARTS];
	uint32_t util_q16[CM_MAX_HARTS];   /* last complete window's utilisation, 1.0 = 65536 */
};

int cm_hier_init(struct cm_hier *h, const struct cm_params *p, const char **why);
void cm_hier_free(struct cm_hier *h);
/* One access of `hart`; returns its stall cycles and adds to *n. */
uint64_t cm_access(struct cm_hier *h, uint32_t hart, uint64_t paddr, enum cm_kind kind,
		   struct cm_counts *n);
/* `count` instructions executed by `hart` (one cycle each). */
void cm_insns(struct cm_hier *h, uint32_t hart, uint64_t count, struct cm_counts *n);

#endif
