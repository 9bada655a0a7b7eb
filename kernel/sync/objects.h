/* Id tables shared by the sync objects (kernel/sync only). */
#ifndef PARTITA_SYNC_OBJECTS_H
#define PARTITA_SYNC_OBJECTS_H
#include "core/kernel.h"

static inline uint64_t pt_timeout_until(uint64_t timeout_ns)
{
	if (timeout_ns == PT_WAIT_FOREVER)
		return UINT64_MAX;
	return hal_cycles() + pt_ns_to_cycles(timeout_ns);
}


/* Partition tag of objects created by the caller: 0 = kernel (usable by every partition). */
static inline uint16_t pt_caller_part_tag(void)
{
	struct pt_thread *t = pt_current();
	return (t && t->user && t->part) ? (uint16_t)(t->part->id + 1) : 0;
}

/* Deleting is for the creator: a user thread may delete only its own partition's objects; a
 * kernel object (usable by every partition) is deleted only by kernel threads. */
static inline bool pt_sync_obj_deletable(uint16_t owner_part)
{
	struct pt_thread *t = pt_current();
	return !(t && t->user) || owner_part == pt_caller_part_tag();
}
#endif
