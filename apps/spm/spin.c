/* SPM task image for tests: a job executes `arg` iterations of a fixed loop, so its execution
 * time is set exactly by the configuration (soundness tests). The count of finished jobs is
 * persistent data, carried across unload/load. */
#include <partita/spm_task.h>

static uint64_t jobs_done;

PT_SPM_ENTRY void spm_spin(struct pt_spm_ctx *ctx)
{
	for (uint64_t i = 0; i < ctx->arg; i++)
		__asm__ volatile("" ::: "memory");
	jobs_done++;
}
