/* SPM task image around the automotive kernel app_matmul (apps/automotive/matmul.c, compiled into
 * this image position-independently): one job = app_matmul(arg). */
#include <partita/spm_task.h>
#include "../automotive/apps.h"

PT_SPM_ENTRY void spm_matmul(struct pt_spm_ctx *ctx)
{
	app_matmul((void *)(uintptr_t)ctx->arg);
}
