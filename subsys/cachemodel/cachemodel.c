/*
 * cache_model: tells the cache-model QEMU plugin which thread and job run on each hart
 * (cachemodel.h). Two stores per event; the kernel never reads the area.
 */
#include <partita/subsys.h>

#include "cachemodel.h"

/* In .data (initialised), so the magic is in guest RAM as soon as QEMU loads the image. */
struct pt_cachemodel_area pt_cachemodel_area = {
	.magic = PT_CACHEMODEL_MAGIC,
	.ncpus = PT_MAX_CPUS,
	.nthreads = PT_MAX_THREADS,
};

static void on_dispatch(uint32_t cpu, uint32_t prev_tid, uint32_t next_tid)
{
	(void)prev_tid;
	if (cpu < PT_MAX_CPUS)
		pt_cachemodel_area.cur_tid[cpu] = next_tid;
}

static void on_complete(uint32_t tid, uint64_t job, uint64_t response_cycles)
{
	(void)response_cycles;
	/* one writer per thread at a time (its instance is locked) */
	pt_cachemodel_area.done_job[tid % PT_MAX_THREADS] = job;
}

PT_SUBSYS_REGISTER(cachemodel) = {
	.name = "cachemodel",
	.on_dispatch = on_dispatch,
	.on_complete = on_complete,
};
