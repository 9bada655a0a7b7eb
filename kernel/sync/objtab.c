/* Object id tables with generations, and per-partition quotas (see objects.h). */
#include "objects.h"

int pt_quota_charge(uint16_t part_tag, uint8_t quota, uint32_t amount)
{
	if (!part_tag)
		return PT_OK;
	struct pt_partition *p = &pt_partitions[part_tag - 1];
	if ((uint64_t)p->used[quota] + amount > p->cfg->quota[quota])
		return PT_EQUOTA;
	p->used[quota] += amount;
	return PT_OK;
}

void pt_quota_release(uint16_t part_tag, uint8_t quota, uint32_t amount)
{
	if (part_tag)
		pt_partitions[part_tag - 1].used[quota] -= amount;
}

int pt_objtab_add(struct pt_objtab *t, void *o)
{
	for (uint32_t i = 0; i < t->max; i++) {
		if (t->obj[i] || t->gen[i] >= PT_OBJ_GEN_LIMIT)
			continue;
		uint16_t tag = pt_caller_part_tag();
		int r = pt_quota_charge(tag, t->quota, 1);
		if (r)
			return r;
		t->obj[i] = o;
		t->owner[i] = tag;
		t->id[i] = (int32_t)(i | t->gen[i] << PT_OBJ_IDX_BITS);
		return t->id[i];
	}
	return PT_ENOSPC;
}

void *pt_objtab_get(struct pt_objtab *t, int id)
{
	uint32_t i = (uint32_t)id & PT_OBJ_IDX_MASK;
	if (id < 0 || i >= t->max || !t->obj[i] || t->id[i] != id)
		return 0;
	return pt_sync_obj_allowed(t->owner[i]) ? t->obj[i] : 0;
}

uint16_t pt_objtab_owner(struct pt_objtab *t, int id)
{
	return t->owner[(uint32_t)id & PT_OBJ_IDX_MASK];
}

void pt_objtab_remove(struct pt_objtab *t, int id)
{
	uint32_t i = (uint32_t)id & PT_OBJ_IDX_MASK;
	pt_quota_release(t->owner[i], t->quota, 1);
	t->obj[i] = 0;
	t->owner[i] = 0;
	t->gen[i]++; /* the deleted id goes stale now; at PT_OBJ_GEN_LIMIT the slot retires */
}
