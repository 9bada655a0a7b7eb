/* SPM task image around the automotive kernel app_fir (apps/automotive/fir.c, compiled into
 * this image position-independently): one job = app_fir(arg). */
#include <partita/spm_task.h>
#include "../automotive/apps.h"

PT_SPM_ENTRY void spm_fir(struct pt_spm_ctx *ctx)
{
	app_fir((void *)(uintptr_t)ctx->arg);
}
