/*
 * What the cache-model QEMU plugin (tools/cachesim/plugin.c) reads from guest RAM to know
 * which thread, and which of its jobs, runs on each hart. The host finds the area by the ELF
 * symbol `pt_cachemodel_area` and passes its physical address to the plugin (area=); the
 * plugin checks `magic` and the two slot counts before trusting the rest. The layout is a
 * contract with plugin.c (AREA_MAGIC, AREA_CUR_TID_OFF): change both together.
 */
#ifndef PT_SUBSYS_CACHEMODEL_H
#define PT_SUBSYS_CACHEMODEL_H

#include <stdint.h>
#include <partita/limits.h>

#define PT_CACHEMODEL_MAGIC 0x4c444d43u /* "CMDL" */

struct pt_cachemodel_area {
	uint32_t magic;
	uint16_t ncpus;    /* slots of cur_tid: PT_MAX_CPUS */
	uint16_t nthreads; /* slots of done_job: PT_MAX_THREADS */
	/* the thread each hart runs (0: none yet); written just before every switch */
	volatile uint32_t cur_tid[PT_MAX_CPUS];
	/* by tid mod nthreads: the last job the thread completed (0: none), so the work the
	 * plugin sees from it belongs to job done_job + 1 */
	volatile uint64_t done_job[PT_MAX_THREADS];
	/* Stall feedback (cache_model: {feedback: true}): the modeled stall cycles of each
	 * hart so far, written only by the plugin (0 when feedback is off), and how many of them
	 * the kernel has paid back by executing exactly that many instructions at a preemption
	 * point (written only by the hart itself). owed - paid is the hart's debt. */
	volatile uint64_t stall_owed[PT_MAX_CPUS];
	uint64_t stall_paid[PT_MAX_CPUS];
};

_Static_assert(__builtin_offsetof(struct pt_cachemodel_area, cur_tid) == 8,
	       "plugin.c reads cur_tid at offset 8");
_Static_assert(__builtin_offsetof(struct pt_cachemodel_area, done_job) == 8 + 4 * PT_MAX_CPUS,
	       "plugin.c reads done_job right after cur_tid");

_Static_assert(__builtin_offsetof(struct pt_cachemodel_area, stall_owed) ==
		       8 + 4 * PT_MAX_CPUS + 8 * PT_MAX_THREADS,
	       "plugin.c writes stall_owed right after done_job");

extern struct pt_cachemodel_area pt_cachemodel_area;

#endif
