/* SPM task image around the automotive kernel app_bitmanip (apps/automotive/bitmanip.c, compiled into
 * this image position-independently): one job = app_bitmanip(arg). */
#include <partita/spm_task.h>
#include "../automotive/apps.h"

PT_SPM_ENTRY void spm_bitmanip(struct pt_spm_ctx *ctx)
{
	app_bitmanip((void *)(uintptr_t)ctx->arg);
}
