/*
 * Attribution for the cache-model plugin by code that does not go through the kernel's
 * dispatcher: the service harts (the SPM application cores run task images, the I/O core
 * copies for the software DMA). Declared weak: when subsys/cachemodel is not linked the
 * functions are NULL and callers skip them (pt_cachemodel_acct_linked()).
 *
 * The plugin attributes every instruction and access of a hart to cur_tid[hart] and numbers
 * the work of a tid by the last job it completed (subsys/cachemodel/cachemodel.h), so
 *   pt_cachemodel_run(hart, tid); ...work of job k...; pt_cachemodel_job_done(tid, k);
 *   pt_cachemodel_run(hart, 0);
 * gives one record per job k of tid in OUT/cache_model.json.
 */
#ifndef PARTITA_CACHEMODEL_ACCT_H
#define PARTITA_CACHEMODEL_ACCT_H

#include <stdint.h>
#include <stdbool.h>

void pt_cachemodel_run(uint32_t hart, uint32_t tid) __attribute__((weak));
void pt_cachemodel_job_done(uint32_t tid, uint64_t job) __attribute__((weak));

static inline bool pt_cachemodel_acct_linked(void)
{
	return pt_cachemodel_run != 0 && pt_cachemodel_job_done != 0;
}

#endif
