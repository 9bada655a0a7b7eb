/*
 * The scheduling-policy interface. A policy is one folder (kernel/sched/<name>/) that fills in
 * one `struct pt_sched_ops`; the core calls only the table. Every cpu of an application role
 * belongs to exactly one scheduler instance (`struct pt_sched`), named in the configuration:
 * FP or EDF instances own one cpu, a G-EDF instance owns a cluster.
 *
 * Locking: the core holds `s->lock` around every call into the ops table; policies never take
 * locks themselves and never touch threads outside their instance.
 * Ready set: a thread is in the policy's ready structure iff it is READY and not RUNNING;
 * the core calls enqueue when a thread becomes ready (or is preempted) and dequeue/pick when
 * it leaves. `running[cpu]` is maintained by the core and read by policies (G-EDF).
 */
#ifndef PARTITA_SCHED_H
#define PARTITA_SCHED_H

#include <stdint.h>
#include <stdbool.h>
#include <partita/list.h>
#include <partita/config.h>

/* PT_PRIO_LEVELS (FP priorities 0 highest .. 255 lowest): <partita/limits.h> */
#define PT_SCHED_ANY_CPU 0xffffffffu /* peek: not for one cpu in particular */

/* The scheduling-relevant part of a thread; embedded in struct pt_thread as `se`. */
struct pt_sched_entity {
	struct pt_list node;   /* ready-queue link (FP level list) */
	/* EDF ordered structure links, owned by the EDF/G-EDF policies */
	struct pt_sched_entity *left, *right, *parent;
	uint8_t rb_color;      /* red-black colour of the ordered structure (not a cache colour) */
	uint8_t on_rq;         /* 1 while in the ready structure */
	uint16_t prio;         /* effective FP priority (after inheritance) */
	uint8_t fp_level;      /* FP: the level list it is queued on (set by enqueue) */
	int16_t cpu;           /* cpu it runs on or last ran on; -1 never ran */
	int16_t pinned_cpu;    /* -1: any cpu of the instance */
	uint32_t tid;          /* unique, breaks ties deterministically (lower first) */
	uint64_t abs_deadline; /* EDF key, cycles */
	uint64_t seq;          /* FIFO order among equals: enqueue sequence number */
	uint64_t slice_left;   /* FP round-robin: cycles left of the slice */
};

struct pt_sched;

struct pt_sched_ops {
	const char *name;
	void (*init)(struct pt_sched *s);
	/* e becomes ready. FIFO among equals: after every ready entity of equal key. */
	void (*enqueue)(struct pt_sched *s, struct pt_sched_entity *e);
	/* e was preempted: ready again, ahead of its equals (it keeps its place). */
	void (*enqueue_head)(struct pt_sched *s, struct pt_sched_entity *e);
	/* e leaves the ready structure (blocked, suspended, deleted, or picked). */
	void (*dequeue)(struct pt_sched *s, struct pt_sched_entity *e);
	/* Best ready entity that may run on `cpu`, without removing it; NULL if none.
	 * cpu == PT_SCHED_ANY_CPU: the best one that may run on any cpu of the instance
	 * (G-EDF: entities pinned to one cpu are left out). */
	struct pt_sched_entity *(*peek)(struct pt_sched *s, uint32_t cpu);
	/* true if `a` must preempt `b` (strictly better under the policy). */
	bool (*preempts)(const struct pt_sched_entity *a, const struct pt_sched_entity *b);
	/* After enqueuing `e`: the cpu of the instance that should reschedule to run it
	 * (an idle cpu first, lowest index; else the cpu whose running entity is worst and
	 * that e preempts), or -1 if e just waits. */
	int (*preempt_cpu)(struct pt_sched *s, const struct pt_sched_entity *e);
	/* e's key changed (priority inheritance, set-priority, new deadline). e may be queued. */
	void (*key_changed)(struct pt_sched *s, struct pt_sched_entity *e);
};

/* Policy-private ready structures; one member per policy. */
struct pt_fp_rq {
	/* bit p set iff level[p] is non-empty; the extra last word is a constant 1, a sentinel
	 * "level PT_PRIO_LEVELS" that makes the best level branch-free (fp/fp_rq.h) */
	uint64_t bitmap[PT_PRIO_LEVELS / 64 + 1];
	uint64_t top;                         /* bit w set iff bitmap[w] != 0 */
	struct pt_list level[PT_PRIO_LEVELS];
};
struct pt_edf_rq {
	struct pt_sched_entity *root;  /* ordered by (abs_deadline, seq, tid) */
	struct pt_sched_entity *first; /* cached minimum: peek is O(1) */
	uint32_t count;
};

/* G-EDF: one global tree for the cluster, plus one per cpu for entities pinned to it, so
 * peek(cpu) is the earlier of two cached minima (O(1)) however many pinned entities wait. */
struct pt_gedf_rq {
	struct pt_edf_rq global;
	struct pt_edf_rq pinned[PT_MAX_CPUS];
};

struct pt_sched {
	const struct pt_sched_ops *ops;
	uint32_t id;
	uint32_t cpu_mask;
	uint64_t rr_slice_cycles;              /* FP round-robin slice; 0 = off */
	uint8_t fp;                            /* ops == &pt_sched_fp_ops: the core calls the
						* FP queue inline (fp/fp_rq.h), not through ops */
	uint8_t one_cpu;                       /* cpu_mask has one bit: no cluster re-check */
	uint8_t fp_cpu;                        /* lowest cpu of cpu_mask */
	uint8_t lean;                          /* fp && one_cpu && no round-robin slice: the
						* core's call-free dispatch applies */
	struct pt_sched_entity *handoff;       /* woken, READY, not queued: runs next on fp_cpu
						* (core's direct hand-off, kernel/core/sched_core.c) */
	uint64_t next_seq;                     /* source of pt_sched_entity.seq */
	struct pt_sched_entity *running[PT_MAX_CPUS]; /* NULL = idle; maintained by the core */
	union {
		struct pt_fp_rq fp;
		struct pt_edf_rq edf;
		struct pt_gedf_rq gedf;
	} rq;
	/* lock word used by the core (ticket spinlock); opaque to policies */
	uint32_t lock_next, lock_owner;
};

extern const struct pt_sched_ops pt_sched_fp_ops;
extern const struct pt_sched_ops pt_sched_edf_ops;
extern const struct pt_sched_ops pt_sched_gedf_ops;

/* Ops table for a configured policy id; NULL if unknown. */
const struct pt_sched_ops *pt_sched_ops_for(uint8_t policy_id);

#endif
