/* Id tables and partition quotas shared by the sync objects (kernel/sync only). */
#ifndef PARTITA_SYNC_OBJECTS_H
#define PARTITA_SYNC_OBJECTS_H
#include "core/kernel.h"

/* Absolute expiry (cycles) of a relative timeout. Saturates: a timeout whose expiry would
 * not fit in 64 bits of cycles is "forever", never a wrapped time in the past. */
static inline uint64_t pt_timeout_until(uint64_t timeout_ns)
{
	if (timeout_ns == PT_WAIT_FOREVER)
		return UINT64_MAX;
	return pt_time_add_sat(hal_cycles(), pt_ns_to_cycles(timeout_ns));
}

/* Partition tag of objects created by the caller: 0 = kernel (usable by every partition). */
static inline uint16_t pt_caller_part_tag(void)
{
	struct pt_thread *t = pt_current();
	return (t && t->user && t->part) ? (uint16_t)(t->part->id + 1) : 0;
}

/* Using an object: kernel objects (tag 0) are usable by everyone, a partition's objects by
 * kernel threads and its own threads. */
static inline bool pt_sync_obj_allowed(uint16_t owner_part)
{
	struct pt_thread *t = pt_current();
	if (!t->user || owner_part == 0)
		return true;
	return t->part && owner_part == t->part->id + 1;
}

/* Deleting is for the creator: a user thread may delete only its own partition's objects; a
 * kernel object (usable by every partition) is deleted only by kernel threads. */
static inline bool pt_sync_obj_deletable(uint16_t owner_part)
{
	struct pt_thread *t = pt_current();
	return !(t && t->user) || owner_part == pt_caller_part_tag();
}

/*
 * Object ids. id = slot | generation << PT_OBJ_IDX_BITS: the generation of a slot moves on
 * when its object is deleted, so an id held by anyone (a blocked caller, a stale handle in
 * another thread) never names the next object created in that slot — a lookup with it fails.
 * A slot whose generation is exhausted (2^24 deletions) is retired, never reused.
 * All tables are protected by pt_sync_lock.
 */
#define PT_OBJ_IDX_BITS 7
#define PT_OBJ_IDX_MASK ((1u << PT_OBJ_IDX_BITS) - 1)
#define PT_OBJ_GEN_LIMIT (1u << (31 - PT_OBJ_IDX_BITS)) /* ids stay positive ints */

struct pt_objtab {
	void **obj;          /* [max] live object of each slot, or NULL */
	int32_t *id;         /* [max] id of the live object / of the slot's next object */
	uint32_t *gen;       /* [max] generation of the slot's next object */
	uint16_t *owner;     /* [max] partition tag of the live object (pt_caller_part_tag) */
	uint16_t max;
	uint8_t quota;       /* enum pt_quota index charged to the creating partition */
};

#define PT_OBJTAB_DEFINE(name, n, q)                                                   \
	PT_KDATA static void *name##_obj[n];                                           \
	PT_KDATA static int32_t name##_id[n];                                          \
	PT_KDATA static uint32_t name##_gen[n];                                        \
	PT_KDATA static uint16_t name##_owner[n];                                      \
	static struct pt_objtab name = { name##_obj, name##_id, name##_gen, name##_owner, \
					 (n), (q) }

_Static_assert(PT_MAX_SEMS <= PT_OBJ_IDX_MASK + 1 && PT_MAX_MUTEXES <= PT_OBJ_IDX_MASK + 1 &&
	       PT_MAX_MQS <= PT_OBJ_IDX_MASK + 1, "object slots fit the id's index bits");

/* Register o in the first free slot for the caller's partition, charging one unit of its
 * quota. Returns the id, PT_ENOSPC (table full) or PT_EQUOTA (partition quota used up). */
int pt_objtab_add(struct pt_objtab *t, void *o);
/* The live object named exactly by id and visible to the caller, else NULL. */
void *pt_objtab_get(struct pt_objtab *t, int id);
/* Partition tag of the live object named by id (which must be live). */
uint16_t pt_objtab_owner(struct pt_objtab *t, int id);
/* Remove the object named by id (live); its slot's next id is a new one; quota returned. */
void pt_objtab_remove(struct pt_objtab *t, int id);

/* Partition quotas (pt_sync_lock held). part_tag 0 (kernel) is never limited. */
int pt_quota_charge(uint16_t part_tag, uint8_t quota, uint32_t amount);
void pt_quota_release(uint16_t part_tag, uint8_t quota, uint32_t amount);
#endif
