/* SPM task image around the automotive kernel app_fft (apps/automotive/fft.c, compiled into
 * this image position-independently): one job = app_fft(arg). */
#include <partita/spm_task.h>
#include "../automotive/apps.h"

PT_SPM_ENTRY void spm_fft(struct pt_spm_ctx *ctx)
{
	app_fft((void *)(uintptr_t)ctx->arg);
}
