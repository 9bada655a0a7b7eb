/*
 * Scratchpad-centric (SPM) execution, brief 0 / Tabish et al., RTAS 2016 §IV.
 *
 * The portable part: the relocatable-task table, each application core's active and ready
 * queues, its two scratchpad partitions, and the slot decision the I/O core takes at every TDMA
 * slot boundary (Rule 1, then Rule 2). No arch, platform or hal header is used here, so this
 * file is compiled unchanged for the host unit tests (tests/unit/spm/).
 *
 * Task lifecycle of one job (the relocatable-task table status):
 *   UNLOADED --release--> RELEASED (active queue) --Rule 1--> LOADING --dma done--> LOADED
 *   (ready queue) --app core picks--> RUNNING --job ends--> COMPLETED --Rule 2--> UNLOADING
 *   --dma done--> UNLOADED.
 * A release that arrives while the task is anywhere but UNLOADED is counted in `pending` and
 * becomes a RELEASED job as soon as the unload completes.
 *
 * Locking: every function taking a `struct pt_spm_core` must be called with that core's
 * state protected (the I/O core and the application core both touch it); the callers
 * (subsys/io/io_core.c, subsys/spm/spm_rt.c) hold `core->lock` (a pt_svc_lock).
 */
#ifndef PARTITA_SUBSYS_SPM_H
#define PARTITA_SUBSYS_SPM_H

#include <stdint.h>
#include <stdbool.h>
#include <partita/svc.h>

#define PT_SPM_MAX_CORES 7           /* application cores; one more hart is the I/O core */
#define PT_SPM_MAX_TASKS_PER_CORE 32 /* queues are bitmaps over the core's tasks */
#define PT_SPM_MAX_TASKS (PT_SPM_MAX_CORES * PT_SPM_MAX_TASKS_PER_CORE)
#define PT_SPM_PARTITIONS 2
#define PT_SPM_NO_TASK (-1)

enum pt_spm_status {
	PT_SPM_UNLOADED = 0,  /* image only in main memory (initial state) */
	PT_SPM_RELEASED = 1,  /* job released, in the active queue, not yet loaded */
	PT_SPM_LOADING = 2,   /* DMA copying image + input mirror into a partition */
	PT_SPM_LOADED = 3,    /* in a partition, in the ready queue */
	PT_SPM_RUNNING = 4,   /* executing from its partition */
	PT_SPM_COMPLETED = 5, /* job done, partition still holds its image */
	PT_SPM_UNLOADING = 6, /* DMA copying data + output mirror back */
};

enum pt_spm_action_kind {
	PT_SPM_IDLE = 0,
	PT_SPM_LOAD = 1,   /* Rule 1 */
	PT_SPM_UNLOAD = 2, /* Rule 2 */
};

/* Why a slot stayed idle (traced, so the report can tell wasted slots apart). */
enum pt_spm_idle_reason {
	PT_SPM_IDLE_NOTHING = 0,   /* no active task and no completed task */
	PT_SPM_IDLE_NO_PART = 1,   /* an active task waits but both partitions are busy with a
				    * running/loaded task (no unload possible either) */
	PT_SPM_IDLE_BUSY = 2,      /* a transfer is still in flight (should never happen if
				    * sigma >= largest copy + setup) */
};

/* Static description of one SPM task (generated into pt_spm_config.c). */
/* Deliberate protocol bugs for the mutation check of the soundness tests (issue 13),
 * selected at build time only (make PT_SPM_MUTANT=n; the tests pass it through
 * PARTITA_MAKE_VARS, built in build/<name>-PT_SPM_MUTANTn); the normal build is 0 and
 * contains none of them:
 * 1 = a job loaded while its core slept starts one slot (sigma) late,
 * 2 = the I/O core skips every 8th slot of each core (left idle),
 * 3 = Rule 2 before Rule 1 (unload a completed job even when a load was possible). */
#ifndef PT_SPM_MUTANT
#define PT_SPM_MUTANT 0
#endif
#define PT_SPM_MUTANT_DISPATCH_DELAY 1
#define PT_SPM_MUTANT_SKIP_SLOT 2
#define PT_SPM_MUTANT_RULE2_FIRST 3

struct pt_spm_task_cfg {
	const char *name;
	uint16_t core;            /* application-core index 0..M-1 (not the hart id) */
	uint16_t priority;        /* 0 = highest; unique within a core */
	uint64_t period_ns;
	uint64_t deadline_ns;
	uint64_t offset_ns;
	/* sporadic: each inter-arrival is period_ns (the minimum) plus a pseudo-random extra in
	 * [0, sporadic_extra_ns], drawn by the I/O core from a per-task xorshift seeded by the
	 * task id (deterministic); 0 = periodic */
	uint64_t sporadic_extra_ns;
	uint64_t wcet_ns;
	uint64_t image_addr;      /* relocatable image in main memory (position independent) */
	uint32_t image_bytes;     /* code + data, copied at load */
	uint32_t entry_off;       /* entry point offset inside the image */
	uint32_t data_off;        /* persistent data region [data_off, data_off+data_bytes) is */
	uint32_t data_bytes;      /*   copied back at unload */
	uint32_t in_mirror_bytes; /* input mirror buffer, travels with the load */
	uint32_t out_mirror_bytes;/* output mirror buffer, travels with the unload */
	uint64_t arg;             /* scales the work of one job */
	uint16_t phase;           /* batch of task sets: the task runs only in this phase */
};

/* One row of the relocatable-task table (paper §VI: image position, mirror buffers, status,
 * partition of last relocation). */
struct pt_spm_task {
	const struct pt_spm_task_cfg *cfg;
	uint16_t id;              /* global index into the task table (trace tid = id + 1) */
	uint8_t local;            /* index within its core; queue bit = 1u << local */
	uint8_t status;           /* enum pt_spm_status */
	int8_t partition;         /* partition of the last relocation, -1 never loaded */
	uint32_t pending;         /* releases waiting behind the current job */
	uint64_t job;             /* number of the current (or last) job, 1-based */
	uint64_t release_cycles;  /* release time of the current job */
	uint64_t next_release_cycles; /* release time of the oldest pending job */
	uint64_t period_cycles;   /* set by the caller after pt_spm_init (clock-dependent) */
	uint64_t completed_seq;   /* order of completion on its core (Rule 2 unloads oldest) */
	uint64_t completed_at;    /* when the job finished (pt_spm_complete_at), 0 = unknown */
	uint8_t *in_mirror;       /* I/O core's mirror buffers for this task */
	uint8_t *out_mirror;
};

struct pt_spm_partition {
	uintptr_t base;           /* address of the partition in the core's scratchpad */
	uint32_t bytes;
	int16_t task;             /* global task id occupying it, PT_SPM_NO_TASK if free */
};

struct pt_spm_core {
	uint32_t index;           /* application-core index */
	uint32_t hart;            /* hart it runs on */
	uint32_t ntasks;
	struct pt_spm_task *tasks[PT_SPM_MAX_TASKS_PER_CORE]; /* sorted: local 0 = highest prio */
	uint32_t active;          /* bit i: tasks[i] RELEASED (released, not loaded) */
	uint32_t ready;           /* bit i: tasks[i] LOADED */
	int16_t running;          /* global task id or PT_SPM_NO_TASK */
	bool in_flight;           /* a transfer for this core is in progress */
	int8_t last_load_part;    /* partition of the core's most recent load */
	struct pt_spm_partition part[PT_SPM_PARTITIONS];
	struct pt_svc_lock lock;  /* taken by callers, see above */
	uint64_t loads, unloads, idle_slots, wasted_slots, completions;
};

struct pt_spm_action {
	uint8_t kind;             /* enum pt_spm_action_kind */
	uint8_t reason;           /* enum pt_spm_idle_reason when kind == IDLE */
	int8_t part;              /* partition loaded or unloaded */
	int16_t task;             /* global task id */
};

struct pt_spm_system {
	uint32_t ncores;
	uint32_t ntasks;
	struct pt_spm_core core[PT_SPM_MAX_CORES];
	struct pt_spm_task task[PT_SPM_MAX_TASKS];
};

/* Build the table from the configuration: tasks of each core sorted by priority (ties: lower
 * table index first). Partition p of core c spans [spm_base[c] + p*part_bytes, +part_bytes).
 * Returns 0, or -1 if a core has more than PT_SPM_MAX_TASKS_PER_CORE tasks, a task names a
 * core >= ncores, or an image does not fit a partition. */
int pt_spm_init(struct pt_spm_system *s, uint32_t ncores, const uintptr_t *spm_base,
		uint32_t part_bytes, const struct pt_spm_task_cfg *cfg, uint32_t ntasks);

/* A job of task `id` is released at `now`. Returns true if it entered the active queue. */
bool pt_spm_release(struct pt_spm_system *s, uint32_t id, uint64_t now);

/* I/O core, at the start of a slot owned by `core`: Rule 1, else Rule 2, else idle. The
 * chosen task/partition is marked LOADING/UNLOADING and `in_flight` set. */
struct pt_spm_action pt_spm_slot_decide(struct pt_spm_system *s, uint32_t core);
/* The same decision as of time `boundary` (the slot's nominal start): Rule 2 only sees jobs
 * that completed at or before it, so a late decision takes the decision the time-triggered
 * protocol takes at the boundary. */
struct pt_spm_action pt_spm_slot_decide_at(struct pt_spm_system *s, uint32_t core,
					   uint64_t boundary);

/* I/O core, when the DMA reports the transfer of `a` complete. A finished load moves the task
 * to the ready queue; a finished unload frees the partition and turns a pending release into
 * an active job. Returns true if a pending release was activated. */
bool pt_spm_transfer_done(struct pt_spm_system *s, uint32_t core, const struct pt_spm_action *a);

/* Application core: take the highest-priority LOADED task (non-preemptive: only when nothing
 * runs). Returns its global id, or PT_SPM_NO_TASK. */
int pt_spm_pick(struct pt_spm_system *s, uint32_t core);

/* Application core: the running job finished (at time `now`, for pt_spm_slot_decide_at). */
void pt_spm_complete(struct pt_spm_system *s, uint32_t core);
void pt_spm_complete_at(struct pt_spm_system *s, uint32_t core, uint64_t now);

/* Where task `id` currently sits (partition base), 0 if not in a partition. */
uintptr_t pt_spm_task_base(const struct pt_spm_system *s, uint32_t id);

/* Bytes copied by a load / unload of `t` (image + input mirror; data + output mirror). */
uint32_t pt_spm_load_bytes(const struct pt_spm_task_cfg *t);
uint32_t pt_spm_unload_bytes(const struct pt_spm_task_cfg *t);

/* TDMA: the application core owning slot number `slot` (round-robin over ncores). */
static inline uint32_t pt_spm_slot_owner(uint64_t slot, uint32_t ncores)
{
	return (uint32_t)(slot % ncores);
}

#endif
