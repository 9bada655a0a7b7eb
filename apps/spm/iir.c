/* SPM task image around the automotive kernel app_iir (apps/automotive/iir.c, compiled into
 * this image position-independently): one job = app_iir(arg). */
#include <partita/spm_task.h>
#include "../automotive/apps.h"

PT_SPM_ENTRY void spm_iir(struct pt_spm_ctx *ctx)
{
	app_iir((void *)(uintptr_t)ctx->arg);
}
