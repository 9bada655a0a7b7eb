/* The G-EDF policy's context type (its folder's own; host tests look into it). */
#ifndef PARTITA_SCHED_GEDF_H
#define PARTITA_SCHED_GEDF_H
#include "../edf/edf_rq.h"

/* One global tree for the cluster, plus one per cpu for entities pinned to it, so peek(cpu)
 * is the earlier of two cached minima (O(1)) however many pinned entities wait. */
struct pt_gedf_ctx {
	struct pt_edf_rq global;
	struct pt_edf_rq pinned[PT_MAX_CPUS];
};
PT_SCHED_CTX_FITS(struct pt_gedf_ctx);

#endif
