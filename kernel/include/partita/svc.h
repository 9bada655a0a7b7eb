/*
 * The service-hart runtime (kernel/svc/): what a hart dedicated to a service needs. Brief 0's
 * I/O core and application cores run on it; the scheduler coprocessor (brief 2), the
 * user-level-kernel mailbox (brief 3) and the task-status / synchronization / slack
 * coprocessors (brief 4) are meant to. Portable: it reaches the hardware only through
 * <partita/hal.h> and <partita/hal_svc.h>. docs/architecture.md, "Service-hart runtime".
 *
 * A service is a subsystem (<partita/subsys.h>) whose per-hart entry calls pt_svc_run on the
 * hart its role names. Service harts run with interrupts masked and never return to the
 * scheduler; they wait with pt_svc_wait_until, wake each other with pt_svc_kick, share state
 * under pt_svc_lock, and talk through pt_svc_ring (fixed-size records) and pt_svc_con (console
 * lines) placed in memory both sides reach.
 */
#ifndef PARTITA_SVC_H
#define PARTITA_SVC_H

#include <stdint.h>
#include <stdbool.h>

/* ---- time ---- */

/* ns -> hal_cycles() units, without overflow for any ns < 2^64. */
uint64_t pt_svc_ns_to_cycles(uint64_t ns);

/* Halt until hal_cycles() >= deadline_cycles, or until a kick or an earlier timer, whichever
 * comes first (callers loop on their own condition). Returns at once if the deadline has
 * passed. UINT64_MAX: only a kick (or a tick) ends the wait. */
void pt_svc_wait_until(uint64_t deadline_cycles);

/* Wake `hart` out of pt_svc_wait_until; stores made before the call are visible to it. */
void pt_svc_kick(uint32_t hart);

/* End this hart's QEMU icount turn: arm a deadline PT_SVC_YIELD_NS ahead (alternating by one
 * cycle, so that each call changes the comparator). A lock waiter calls it instead of
 * spinning through the holder's turn. */
#define PT_SVC_YIELD_NS 2000u
void pt_svc_yield(void);

/* Call entry(arg) with a timer tick every period_cycles, on a grid shifted by phase_cycles
 * (ticks at k * period + phase). Under icount a computing hart then always has a deadline at
 * most one period away, so no QEMU turn is longer than that; shifting the harts' grids makes
 * their deadlines alternate (docs/spm.md). An exception in entry reports the service and
 * powers off. */
void pt_svc_call_ticked(uintptr_t entry, void *arg, uint64_t period_cycles,
			uint64_t phase_cycles);

/* ---- the turn-yielding ticket lock ----
 * FIFO between harts. A waiter whose ticket is not served yields its QEMU turn
 * (pt_svc_yield) after each look instead of spinning: the holder may have lost its turn
 * inside the critical section. No interrupt masking (service harts run masked). */
struct pt_svc_lock {
	uint32_t next;  /* next ticket to hand out */
	uint32_t owner; /* ticket being served; next - owner = holder + waiters */
};
#define PT_SVC_LOCK_INIT { 0, 0 }
void pt_svc_lock(struct pt_svc_lock *l);
bool pt_svc_trylock(struct pt_svc_lock *l);
void pt_svc_unlock(struct pt_svc_lock *l);

/* ---- single-producer / single-consumer rings of fixed-size records ----
 * One hart pushes, one hart pops; no lock. Indices only grow (mod 2^32): count = head - tail,
 * record i lives in slot i & (capacity - 1). The producer writes the record, then publishes
 * head with a release store; the consumer reads head with an acquire load, copies the record,
 * then frees the slot with a release store of tail. A push to a full ring is refused and
 * counted in `refused`, never overwrites; a pop from an empty ring returns false. */
struct pt_svc_ring {
	uint32_t head;         /* producer-owned: records pushed */
	uint32_t refused;      /* producer-owned: pushes refused because the ring was full */
	uint32_t tail;         /* consumer-owned: records popped */
	uint32_t capacity;     /* records, a power of two, <= 2^31 */
	uint32_t record_bytes;
	uint32_t pad;
	uint8_t *slots;        /* capacity * record_bytes bytes, reachable by both harts */
};
/* 0, or -1 if capacity is not a power of two in 1..2^31, record_bytes is 0 or the storage
 * size overflows. `slots` holds capacity * record_bytes bytes. */
int pt_svc_ring_init(struct pt_svc_ring *r, void *slots, uint32_t capacity,
		     uint32_t record_bytes);
bool pt_svc_ring_push(struct pt_svc_ring *r, const void *record);   /* producer */
bool pt_svc_ring_pop(struct pt_svc_ring *r, void *record);          /* consumer */
/* Records pushed and not popped; exact for the producer and the consumer, a snapshot for
 * anyone else. */
uint32_t pt_svc_ring_count(const struct pt_svc_ring *r);
bool pt_svc_ring_full(const struct pt_svc_ring *r);
bool pt_svc_ring_empty(const struct pt_svc_ring *r);

/* A client's request ring and the service's reply ring: the client produces requests and
 * consumes replies, the service the reverse. */
struct pt_svc_chan {
	struct pt_svc_ring req, rep;
};

/* ---- console path ----
 * A service or application hart queues whole lines; the hart that owns the UART takes them
 * and writes them (brief 0: the I/O core). A byte ring, single producer / single consumer;
 * a line that does not fit is dropped whole and counted. */
#define PT_SVC_CON_BYTES 1024u
struct pt_svc_con {
	uint32_t head, tail;  /* bytes; only grow; byte i at buf[i % PT_SVC_CON_BYTES] */
	uint32_t drops;       /* lines dropped: ring full (producer-owned) */
	char buf[PT_SVC_CON_BYTES];
};
/* Queue `line` (without newline; at most PT_SVC_CON_BYTES - 1 bytes are kept). */
bool pt_svc_con_put(struct pt_svc_con *c, const char *line);
/* Take the next complete line into `out` (NUL-terminated, no newline, truncated to max - 1
 * bytes); returns its kept length (1 for an empty line), 0 if no complete line. */
uint32_t pt_svc_con_take(struct pt_svc_con *c, char *out, uint32_t max);

/* ---- lifecycle and clean shutdown ----
 * A service runs its main function on its hart through pt_svc_run. Anyone may ask it to stop
 * (pt_svc_stop: the request is a flag plus a kick); the service looks at pt_svc_stopping()
 * where stopping is safe, finishes (drains, reports its figures) and returns from main; the
 * runtime then records its exit code, announces it on the console and marks it stopped,
 * which pt_svc_wait_stopped observes. */
enum pt_svc_state { PT_SVC_IDLE, PT_SVC_RUNNING, PT_SVC_STOPPING, PT_SVC_STOPPED };
struct pt_svc {
	const char *name;
	uint32_t hart;
	uint32_t state;         /* enum pt_svc_state; atomically updated */
	int32_t exit_code;      /* main's return value, valid once STOPPED */
	uint32_t pad;
};
/* Run `main` as service `s` on the calling hart (s->hart is set to it). When main returns,
 * the runtime reports "svc: NAME on hart H stopped, exit CODE" on the console, marks the
 * service STOPPED and returns main's value: the subsystem's entry then powers off (the
 * service that owns the run, brief 0's I/O core) or parks the hart (pt_svc_park). */
int pt_svc_run(struct pt_svc *s, int (*main)(struct pt_svc *s));
/* Halt this hart for good (a stopped service's hart). */
_Noreturn void pt_svc_park(void);
/* Ask `s` to stop (RUNNING -> STOPPING) and kick its hart; false if it is not running. */
bool pt_svc_stop(struct pt_svc *s);
/* Has `s` been asked to stop? (The service itself polls this.) */
bool pt_svc_stopping(const struct pt_svc *s);
/* Wait (pt_svc_wait_until, yielding) until `s` is STOPPED or deadline_cycles passes; true if
 * it stopped. */
bool pt_svc_wait_stopped(const struct pt_svc *s, uint64_t deadline_cycles);
/* The service running on `hart`, or NULL. */
struct pt_svc *pt_svc_on(uint32_t hart);

#endif
