/*
 * The scheduling-policy interface. A policy is one folder (kernel/sched/<name>/) that fills in
 * one `struct pt_sched_ops` and keeps its own context type in `struct pt_sched.ctx`; adding a
 * policy is that folder plus one line in sched.c (and its id in the configuration schema).
 * The core calls only the table (FP instances also inline, fp/fp_rq.h). Every cpu of an application role
 * belongs to exactly one scheduler instance (`struct pt_sched`), named in the configuration:
 * FP or EDF instances own one cpu, a G-EDF instance owns a cluster.
 *
 * Locking: the core holds `s->lock` around every call into the ops table; policies never take
 * locks themselves and never touch threads outside their instance.
 * Ready set: a thread is in the policy's ready structure iff it is READY and not RUNNING;
 * the core calls enqueue when a thread becomes ready (or is preempted) and dequeue/pick when
 * it leaves. `running[cpu]` is maintained by the core and read by policies (G-EDF).
 * Time: a policy sees a job's release (on_release) and may own timed events on its cpus
 * (next_event / on_event: round-robin quanta, slot boundaries); the core arms the timer.
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
	uint64_t slice_left;   /* cycles left of its quantum (FP round-robin); 0: a new one */
};

struct pt_sched;

/* What on_event asks of the core for the entity running on the cpu. */
enum pt_sched_event_action {
	PT_SCHED_EV_NONE = 0,   /* it goes on */
	PT_SCHED_EV_ROTATE = 1, /* its quantum is over: behind its equals if one is ready */
	PT_SCHED_EV_EVICT = 2,  /* its slot is over: it leaves the cpu (back to the ready
				 * structure, ahead of its equals) even if nothing else is ready */
};
/* next_event flags */
#define PT_SCHED_QUANTUM_OVER 1u /* prev's quantum ended (it yielded or was rotated) */

struct pt_sched_ops {
	const char *name;
	/* Set up s->ctx for an instance; may set s->timed (it uses next_event / on_event). */
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
	/* Order of two entities of this policy under its key, <0: a first, 0: equal (FIFO), >0:
	 * b first. Wait queues order their waiters by it; a mutex holder inherits the best
	 * waiter's key through it. */
	int (*key_cmp)(const struct pt_sched_entity *a, const struct pt_sched_entity *b);
	/* Optional. A job of e is released at `release` with absolute deadline `deadline`
	 * (cycles; e is not queued). The policy sets its key from them and says whether the job
	 * is ready now (true) or held (false: the policy makes it ready later, from on_event, with
	 * pt_sched_release_held). NULL: ready, key = deadline. */
	bool (*on_release)(struct pt_sched *s, struct pt_sched_entity *e, uint64_t release,
			   uint64_t deadline);
	/* Optional (s->timed). After every dispatch decision on `cpu` at `now` (prev: what ran,
	 * next: what runs now, NULL = idle; prev == next: it goes on; flags PT_SCHED_*): the
	 * policy's next timed event on that cpu, absolute cycles, UINT64_MAX for none. The core
	 * arms the cpu's timer for it. */
	uint64_t (*next_event)(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *prev,
			       struct pt_sched_entity *next, uint32_t flags, uint64_t now);
	/* Optional (s->timed). The time next_event returned is reached: called at the cpu's next
	 * preemption point (s locked) with the running entity (NULL = idle); returns an
	 * enum pt_sched_event_action. next_event follows the decision the core then takes. */
	int (*on_event)(struct pt_sched *s, uint32_t cpu, struct pt_sched_entity *running,
			uint64_t now);
};

/* Bytes of struct pt_sched.ctx: the largest policy context (FP's 256 level lists and bitmap).
 * Each policy checks at compile time that its context fits (PT_SCHED_CTX_FITS). */
#define PT_SCHED_CTX_BYTES 4224
#define PT_SCHED_CTX(s, type) ((type *)(void *)(s)->ctx)
#define PT_SCHED_CTX_FITS(type)                                                             \
	_Static_assert(sizeof(type) <= PT_SCHED_CTX_BYTES,                                  \
		       #type " does not fit in struct pt_sched.ctx: raise PT_SCHED_CTX_BYTES")

struct pt_sched {
	const struct pt_sched_ops *ops;
	uint32_t id;
	uint32_t cpu_mask;
	uint64_t quantum_cycles;               /* configured time quantum (FP: round-robin
						* slice among equals); 0 = none */
	const void *policy_cfg;                /* the policy's configured table
						* (pt_sched_cfg.policy_cfg); NULL: none */
	uint8_t timed;                         /* the policy has timed events (set by init) */
	uint8_t fp;                            /* ops == &pt_sched_fp_ops: the core calls the
						* FP queue inline (fp/fp_rq.h), not through ops */
	uint8_t one_cpu;                       /* cpu_mask has one bit: no cluster re-check */
	uint8_t fp_cpu;                        /* lowest cpu of cpu_mask */
	uint8_t lean;                          /* fp && one_cpu && !timed: the core's call-free
						* dispatch applies */
	struct pt_sched_entity *handoff;       /* woken, READY, not queued: runs next on fp_cpu
						* (core's direct hand-off, kernel/core/sched_core.c) */
	uint64_t next_seq;                     /* source of pt_sched_entity.seq */
	struct pt_sched_entity *running[PT_MAX_CPUS]; /* NULL = idle; maintained by the core */
	/* lock word used by the core (ticket spinlock); opaque to policies */
	uint32_t lock_next, lock_owner;
	/* the policy's own context (ready structure, time state): its type is known only to
	 * the policy's folder (PT_SCHED_CTX) */
	_Alignas(16) unsigned char ctx[PT_SCHED_CTX_BYTES];
};

/* Core services for policies (s locked). A job held by on_release becomes ready now: */
void pt_sched_release_held(struct pt_sched *s, struct pt_sched_entity *e);
/* The policy's next timed event changed outside a dispatch decision: every cpu of s asks
 * next_event again at its next preemption point (the core does it after a held release). */
void pt_sched_events_changed(struct pt_sched *s);

extern const struct pt_sched_ops pt_sched_fp_ops;
extern const struct pt_sched_ops pt_sched_edf_ops;
extern const struct pt_sched_ops pt_sched_gedf_ops;
extern const struct pt_sched_ops pt_sched_tdm_ops;
extern const struct pt_sched_ops pt_sched_offload_ops;

/* Ops table for a configured policy id; NULL if unknown. */
const struct pt_sched_ops *pt_sched_ops_for(uint8_t policy_id);

/*
 * Round-robin quantum accounting shared by the fixed-priority policies (fp, offload) for
 * their next_event on a switch: the entity leaving keeps what is left of its quantum (none
 * if it ran out), the one arriving starts a fresh quantum unless it has some left, and
 * *slice_end_cycles (the policy's own context) becomes the end of that quantum. Returns it
 * (UINT64_MAX with nothing running).
 */
static inline uint64_t pt_sched_rr_switch(const struct pt_sched *s, uint64_t *slice_end_cycles,
					  struct pt_sched_entity *prev,
					  struct pt_sched_entity *next, uint32_t flags,
					  uint64_t now)
{
	if (prev)
		prev->slice_left = (flags & PT_SCHED_QUANTUM_OVER) || *slice_end_cycles <= now
					   ? 0 : *slice_end_cycles - now;
	if (!next) {
		*slice_end_cycles = UINT64_MAX;
		return UINT64_MAX;
	}
	if (!next->slice_left)
		next->slice_left = s->quantum_cycles;
	*slice_end_cycles = now + next->slice_left;
	return *slice_end_cycles;
}

#endif
