/*
 * Portable SPM scheduling state: relocatable-task table, active/ready queues, Rule 1 / Rule 2.
 * See spm.h for the lifecycle and the locking contract. O(1) per decision: the queues are
 * bitmaps over a core's tasks in priority order, so the highest-priority member is the lowest
 * set bit.
 */
#include "spm.h"

/* Index of the lowest set bit (de Bruijn multiply: O(1) without libgcc's __ctzsi2). */
static int lowest_bit(uint32_t m)
{
	static const uint8_t pos[32] = {
		0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
		31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9,
	};
	if (!m)
		return -1;
	return pos[(uint32_t)((m & -m) * 0x077CB531u) >> 27];
}

uint32_t pt_spm_load_bytes(const struct pt_spm_task_cfg *t)
{
	return t->image_bytes + t->in_mirror_bytes;
}

uint32_t pt_spm_unload_bytes(const struct pt_spm_task_cfg *t)
{
	return t->data_bytes + t->out_mirror_bytes;
}

int pt_spm_init(struct pt_spm_system *s, uint32_t ncores, const uintptr_t *spm_base,
		uint32_t part_bytes, const struct pt_spm_task_cfg *cfg, uint32_t ntasks)
{
	if (ncores == 0 || ncores > PT_SPM_MAX_CORES || ntasks > PT_SPM_MAX_TASKS)
		return -1;
	*s = (struct pt_spm_system){ .ncores = ncores, .ntasks = ntasks };
	for (uint32_t c = 0; c < ncores; c++) {
		struct pt_spm_core *core = &s->core[c];
		core->index = c;
		core->running = PT_SPM_NO_TASK;
		core->last_load_part = PT_SPM_PARTITIONS - 1; /* the first load goes to partition 0 */
		for (uint32_t p = 0; p < PT_SPM_PARTITIONS; p++) {
			core->part[p].base = spm_base[c] + (uintptr_t)p * part_bytes;
			core->part[p].bytes = part_bytes;
			core->part[p].task = PT_SPM_NO_TASK;
		}
	}
	for (uint32_t i = 0; i < ntasks; i++) {
		const struct pt_spm_task_cfg *tc = &cfg[i];
		if (tc->core >= ncores || pt_spm_load_bytes(tc) > part_bytes ||
		    pt_spm_unload_bytes(tc) > part_bytes)
			return -1;
		struct pt_spm_core *core = &s->core[tc->core];
		if (core->ntasks == PT_SPM_MAX_TASKS_PER_CORE)
			return -1;
		struct pt_spm_task *t = &s->task[i];
		*t = (struct pt_spm_task){ .cfg = tc, .id = (uint16_t)i, .partition = -1 };
		/* insertion in priority order; equal priorities keep table order */
		uint32_t k = core->ntasks++;
		while (k > 0 && core->tasks[k - 1]->cfg->priority > tc->priority) {
			core->tasks[k] = core->tasks[k - 1];
			k--;
		}
		core->tasks[k] = t;
	}
	for (uint32_t c = 0; c < ncores; c++)
		for (uint32_t k = 0; k < s->core[c].ntasks; k++)
			s->core[c].tasks[k]->local = (uint8_t)k;
	return 0;
}

static void activate(struct pt_spm_core *core, struct pt_spm_task *t, uint64_t now)
{
	t->status = PT_SPM_RELEASED;
	t->job++;
	t->release_cycles = now;
	core->active |= 1u << t->local;
}

bool pt_spm_release(struct pt_spm_system *s, uint32_t id, uint64_t now)
{
	struct pt_spm_task *t = &s->task[id];
	struct pt_spm_core *core = &s->core[t->cfg->core];
	if (t->status != PT_SPM_UNLOADED) {
		if (t->pending++ == 0)
			t->next_release_cycles = now;
		return false;
	}
	activate(core, t, now);
	return true;
}

/* A free partition, preferring the one after the core's last load: consecutive loads
 * alternate, so every task image runs from both partitions over time (relocation is
 * exercised, not assumed). */
static int free_partition(const struct pt_spm_core *core)
{
	for (int k = 1; k <= PT_SPM_PARTITIONS; k++) {
		int p = (core->last_load_part + k) % PT_SPM_PARTITIONS;
		if (core->part[p].task == PT_SPM_NO_TASK)
			return p;
	}
	return -1;
}

/* The partition whose job completed first (unloads in completion order). */
static int completed_partition(const struct pt_spm_system *s, const struct pt_spm_core *core,
			       uint64_t boundary)
{
	int best = -1;
	for (int p = 0; p < PT_SPM_PARTITIONS; p++) {
		int16_t id = core->part[p].task;
		if (id == PT_SPM_NO_TASK || s->task[id].status != PT_SPM_COMPLETED ||
		    s->task[id].completed_at > boundary)
			continue;
		if (best < 0 || s->task[id].completed_seq <
				s->task[core->part[best].task].completed_seq)
			best = p;
	}
	return best;
}

struct pt_spm_action pt_spm_slot_decide(struct pt_spm_system *s, uint32_t c)
{
	return pt_spm_slot_decide_at(s, c, UINT64_MAX);
}

struct pt_spm_action pt_spm_slot_decide_at(struct pt_spm_system *s, uint32_t c,
					   uint64_t boundary)
{
	struct pt_spm_core *core = &s->core[c];
	struct pt_spm_action a = { .kind = PT_SPM_IDLE, .part = -1, .task = PT_SPM_NO_TASK };
	if (core->in_flight) {
		a.reason = PT_SPM_IDLE_BUSY;
		return a;
	}
	int top = lowest_bit(core->active);
	int p = free_partition(core);
	int done = PT_SPM_MUTANT == PT_SPM_MUTANT_RULE2_FIRST ?
		   completed_partition(s, core, boundary) : -1;
	if (done >= 0) { /* mutant only: Rule 2 before Rule 1 */
		p = done;
		top = -1;
		goto unload;
	}
	if (top >= 0 && p >= 0) { /* Rule 1: load the highest-priority active task */
		struct pt_spm_task *t = core->tasks[top];
		core->active &= ~(1u << top);
		t->status = PT_SPM_LOADING;
		t->partition = (int8_t)p;
		core->part[p].task = (int16_t)t->id;
		core->last_load_part = (int8_t)p;
		a.kind = PT_SPM_LOAD;
		a.part = (int8_t)p;
		a.task = (int16_t)t->id;
	} else if ((p = completed_partition(s, core, boundary)) >= 0) { /* Rule 2 */
unload:;
		struct pt_spm_task *t = &s->task[core->part[p].task];
		t->status = PT_SPM_UNLOADING;
		a.kind = PT_SPM_UNLOAD;
		a.part = (int8_t)p;
		a.task = (int16_t)t->id;
	} else {
		a.reason = top >= 0 ? PT_SPM_IDLE_NO_PART : PT_SPM_IDLE_NOTHING;
		core->idle_slots++;
		if (top >= 0)
			core->wasted_slots++;
		return a;
	}
	core->in_flight = true;
	return a;
}

bool pt_spm_transfer_done(struct pt_spm_system *s, uint32_t c, const struct pt_spm_action *a)
{
	struct pt_spm_core *core = &s->core[c];
	struct pt_spm_task *t = &s->task[a->task];
	core->in_flight = false;
	if (a->kind == PT_SPM_LOAD) {
		t->status = PT_SPM_LOADED;
		core->ready |= 1u << t->local;
		core->loads++;
		return false;
	}
	/* unload */
	core->part[a->part].task = PT_SPM_NO_TASK;
	t->status = PT_SPM_UNLOADED;
	core->unloads++;
	if (t->pending) {
		t->pending--;
		/* the pending job was released at or before its nominal time; keep that time so
		 * response times count from the real release */
		uint64_t rel = t->next_release_cycles;
		t->next_release_cycles += t->period_cycles; /* periodic: the next one is due then */
		activate(core, t, rel);
		return true;
	}
	return false;
}

int pt_spm_pick(struct pt_spm_system *s, uint32_t c)
{
	struct pt_spm_core *core = &s->core[c];
	if (core->running != PT_SPM_NO_TASK)
		return PT_SPM_NO_TASK; /* non-preemptive */
	int top = lowest_bit(core->ready);
	if (top < 0)
		return PT_SPM_NO_TASK;
	struct pt_spm_task *t = core->tasks[top];
	core->ready &= ~(1u << top);
	t->status = PT_SPM_RUNNING;
	core->running = (int16_t)t->id;
	return t->id;
}

void pt_spm_complete(struct pt_spm_system *s, uint32_t c)
{
	pt_spm_complete_at(s, c, 0);
}

void pt_spm_complete_at(struct pt_spm_system *s, uint32_t c, uint64_t now)
{
	struct pt_spm_core *core = &s->core[c];
	if (core->running == PT_SPM_NO_TASK)
		return;
	s->task[core->running].completed_at = now;
	s->task[core->running].status = PT_SPM_COMPLETED;
	s->task[core->running].completed_seq = ++core->completions;
	core->running = PT_SPM_NO_TASK;
}

uintptr_t pt_spm_task_base(const struct pt_spm_system *s, uint32_t id)
{
	const struct pt_spm_task *t = &s->task[id];
	if (t->partition < 0 || t->status == PT_SPM_UNLOADED || t->status == PT_SPM_RELEASED)
		return 0;
	return s->core[t->cfg->core].part[t->partition].base;
}
