/*
 * The RTOS-coprocessor interface (subsys/coproc/): one way for kernel code and services to use
 * every coprocessor of Partita — the scheduler coprocessor of brief 2 now, the task-status,
 * synchronization and slack coprocessors of brief 4 next. docs/offload.md.
 *
 * Three parts:
 *   - records: a request (op, args, sequence number, flags) and its reply (sequence number,
 *     status, values), the same for every back end;
 *   - a service: the coprocessor's function, portable pure C over its own state (init, serve
 *     one request, publish words). It never sees how requests arrive, so the same service runs
 *     inline, on a service hart, or inside an emulated device;
 *   - a back end: how requests reach the service and replies / published words come back
 *     (`struct pt_coproc_backend`): `inline` (the caller serves, under the coprocessor's lock),
 *     `hart` (a cpu with `role: coproc` runs the service on kernel/svc; one SPSC request ring
 *     and one reply ring per client; published words in shared memory), `device` (an emulated
 *     memory-mapped device: subsys/coproc/device*.c, filled in by the device-model work).
 *
 * Clients. A coprocessor has PT_COPROC_MAX_CLIENTS client slots; slot k has its own rings and
 * its own published words. Invariant: one producer at a time per slot — a hart that owns it
 * (client = hal_cpu_id()) or whoever holds a lock that serializes its users (the offloaded
 * scheduler: the slot of its instance, used under the instance's lock). The service serves
 * each slot's requests in the order they were posted.
 *
 * Sequence numbers: per slot, 1, 2, 3, ... (0 = none; they wrap after 2^32 - 1 requests,
 * compare with (int32_t)(a - b)). After serving request n of slot k the service publishes its
 * words, then the slot's `done` = n (release): a client that reads done >= n (acquire) sees
 * the words as they were after n.
 *
 * Execution models (brief 4's; a caller picks one per call site):
 *   processor only      pt_coproc_call(.., PT_COPROC_PROCESSOR_ONLY, ..): the caller runs the
 *                       service function itself (back end `inline` only);
 *   sequential          pt_coproc_call(.., PT_COPROC_SEQUENTIAL, ..): post, wait for the reply;
 *   parallel blocking   pt_coproc_post, own work, pt_coproc_wait (or pt_coproc_call_par);
 *   parallel non-blocking  pt_coproc_post with PT_COPROC_F_NOREPLY, later pt_coproc_read of a
 *                       published word (after pt_coproc_sync when it must reflect the posts);
 *   multi-coprocessor   pt_coproc_post_all / pt_coproc_wait_all over several coprocessors.
 */
#ifndef PARTITA_COPROC_H
#define PARTITA_COPROC_H

#include <stdint.h>
#include <stdbool.h>
#include <partita/svc.h> /* struct pt_svc_ring (stdint/stdbool only, like this header) */

#define PT_COPROC_MAX 4             /* coprocessors in one system */
#define PT_COPROC_MAX_CLIENTS 8     /* client slots per coprocessor (PT_MAX_CPUS) */
#define PT_COPROC_NARGS 5           /* argument words of a request */
#define PT_COPROC_NVALS 2           /* value words of a reply */
#define PT_COPROC_PUB_WORDS 4       /* published words per client slot */
#define PT_COPROC_RING_RECORDS 64   /* records per request ring and per reply ring */

/* Request flags */
#define PT_COPROC_F_NOREPLY 1u /* no reply record: the client reads `done` / published words */

/* A request. 48 bytes; the layout is the device's command block too. */
struct pt_coproc_req {
	uint32_t seq;                    /* set by pt_coproc_post */
	uint16_t op;                     /* service-defined operation */
	uint16_t flags;                  /* PT_COPROC_F_* */
	uint64_t args[PT_COPROC_NARGS];  /* service-defined */
};

/* A reply. 24 bytes. */
struct pt_coproc_rep {
	uint32_t seq;                    /* the request's */
	int32_t status;                  /* 0 or a PT_E* error (<partita/api.h>) */
	uint64_t val[PT_COPROC_NVALS];   /* service-defined */
};

/* The coprocessor's function. Pure C over `state` (no kernel headers needed to implement one:
 * this header and <partita/svc.h> include only stdint/stdbool), so one file serves every
 * back end, the device model in QEMU included. */
struct pt_coproc_service {
	const char *name;
	uint32_t state_bytes;            /* size of the state the back end provides */
	/* Set up `state` for `nclients` slots; `cfg`: the service's own configuration record
	 * (may be NULL). */
	void (*init)(void *state, uint32_t nclients, const void *cfg);
	/* Serve one request of slot `client`; fill rep->status and rep->val (rep->seq is set by
	 * the runtime). */
	void (*serve)(void *state, uint32_t client, const struct pt_coproc_req *req,
		      struct pt_coproc_rep *rep);
	/* Published word `word` (< PT_COPROC_PUB_WORDS) of slot `client`, as it is now; the
	 * runtime stores it where clients read it after each request. NULL: none. */
	uint64_t (*publish)(const void *state, uint32_t client, uint32_t word);
};

struct pt_coproc;

/* A back end: how a client's requests reach the service. Client-side calls are made by the
 * slot's one producer; none of them blocks. */
struct pt_coproc_backend {
	const char *name;                /* "inline", "hart", "device" */
	/* Boot (hart 0, once, before any client posts): set up rings / registers. */
	void (*boot)(struct pt_coproc *c);
	/* Hand `req` (seq set) to the service: 0, or PT_EAGAIN when the request ring is full. */
	int (*post)(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req);
	/* Take the slot's next reply if there is one. */
	bool (*take)(struct pt_coproc *c, uint32_t client, struct pt_coproc_rep *rep);
	/* The sequence number of the slot's last served request (acquire). */
	uint32_t (*done)(const struct pt_coproc *c, uint32_t client);
	/* Published word `word` of the slot (one load, no lock). */
	uint64_t (*read)(const struct pt_coproc *c, uint32_t client, uint32_t word);
	/* The client waits for the service: let it run (kick it; under QEMU's icount, end the
	 * caller's turn). */
	void (*nudge)(struct pt_coproc *c, uint32_t client);
};

extern const struct pt_coproc_backend pt_coproc_backend_inline;
extern const struct pt_coproc_backend pt_coproc_backend_hart;
extern const struct pt_coproc_backend pt_coproc_backend_device; /* the device-model work */

/* A client slot of the `hart` back end: its rings and what the service publishes for it, in
 * memory both harts reach. */
struct pt_coproc_slot {
	uint32_t posted;                 /* client-owned: seq of its last post */
	uint32_t done;                   /* service-owned: seq of the last request served */
	uint64_t pub[PT_COPROC_PUB_WORDS]; /* service-owned, atomic stores */
	struct pt_svc_ring req, rep;      /* client -> service, service -> client */
	struct pt_coproc_req req_slots[PT_COPROC_RING_RECORDS];
	struct pt_coproc_rep rep_slots[PT_COPROC_RING_RECORDS];
};

/* One coprocessor: a service behind a back end. The configuration (`coproc:` section) fills
 * the table pt_coprocs[]; the coproc subsystem boots them. */
struct pt_coproc {
	const char *name;
	uint32_t id;                     /* index in pt_coprocs[] */
	uint32_t hart;                   /* back end `hart`: the cpu that runs the service */
	uintptr_t base;                  /* back end `device`: its MMIO base */
	uint32_t nclients;               /* slots in use (<= PT_COPROC_MAX_CLIENTS) */
	const struct pt_coproc_service *svc;
	const struct pt_coproc_backend *be;
	const void *svc_cfg;             /* the service's configuration record */
	void *state;                     /* inline / hart: the service's state (svc->state_bytes) */
	struct pt_coproc_slot *slots;    /* inline / hart: nclients slots */
	struct pt_svc_lock lock;         /* inline: serializes serve() between slots */
	uint32_t booted;                 /* pt_coproc_boot done */
	/* hart: 0 until the coprocessor hart owns the service state. Before that (the boot, on
	 * hart 0 alone) a client that waits serves its requests itself. */
	uint32_t started;
	/* statistics (updated atomically) */
	uint64_t posts, waits, nudges, refused, lost_replies;
	/* hart: cycles the coprocessor hart has been awake (out of its wfi), written by it */
	uint64_t busy_cycles;
};

/* A scheduler instance of policy `offload` (by name) and the coprocessor slot it uses
 * (generated from the coprocessors' `clients:`; the list ends with cp == NULL). */
struct pt_coproc_binding {
	const char *sched;
	struct pt_coproc *cp;
	uint32_t client;
};
extern const struct pt_coproc_binding pt_coproc_sched_binding[];

/* The configured coprocessors (generated by `partita config`, coproc_config.c). */
extern struct pt_coproc *const pt_coprocs[];
extern const uint32_t pt_ncoprocs;
/* The coprocessor named `name`, or NULL. */
struct pt_coproc *pt_coproc_find(const char *name);

enum pt_coproc_model {
	PT_COPROC_PROCESSOR_ONLY = 0, /* the caller runs the service (back end inline) */
	PT_COPROC_SEQUENTIAL = 1,     /* post, wait for the reply */
	PT_COPROC_PAR_BLOCKING = 2,   /* post, own work, wait (pt_coproc_call_par) */
	PT_COPROC_PAR_NONBLOCKING = 3 /* post without reply; read published words */
};

/* Post `req` for slot `client` (req->seq is set): its sequence number (> 0), PT_EAGAIN if
 * the request ring is full (nothing posted), PT_EINVAL for a slot >= nclients. Does not wait.
 * (Every call below treats a slot >= nclients as PT_EINVAL / nothing.) */
int64_t pt_coproc_post(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req);
/* Post, waiting (nudging the service) while the ring is full: the sequence number (0 for a
 * bad slot). */
uint32_t pt_coproc_post_wait(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req);
/* Wait for the reply to request `seq` (posted without F_NOREPLY by this slot); replies to
 * earlier requests of the slot that nobody waited for are dropped. 0, or PT_EINVAL if `seq`
 * was never posted. */
int pt_coproc_wait(struct pt_coproc *c, uint32_t client, uint32_t seq, struct pt_coproc_rep *rep);
/* Wait until every request the slot posted has been served (its published words reflect
 * them). */
void pt_coproc_sync(struct pt_coproc *c, uint32_t client);
/* Has request `seq` of the slot been served? (no wait) */
bool pt_coproc_served(const struct pt_coproc *c, uint32_t client, uint32_t seq);
/* Published word `word` of the slot: one load, no lock, no wait (parallel non-blocking). */
uint64_t pt_coproc_read(const struct pt_coproc *c, uint32_t client, uint32_t word);

/* One call in execution model `model`:
 *   PROCESSOR_ONLY: the service runs on the caller (PT_EINVAL unless the back end is inline);
 *   SEQUENTIAL: post and wait for the reply;
 *   PAR_BLOCKING: as SEQUENTIAL with no own work (see pt_coproc_call_par);
 *   PAR_NONBLOCKING: post with F_NOREPLY and return at once (rep->seq = its sequence number,
 *   rep->status = 0).
 * Returns rep->status (or PT_EINVAL for a bad model). */
int pt_coproc_call(struct pt_coproc *c, uint32_t client, enum pt_coproc_model model,
		   struct pt_coproc_req *req, struct pt_coproc_rep *rep);
/* Parallel blocking: post, run work(arg) while the coprocessor serves, wait for the reply. */
int pt_coproc_call_par(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req,
		       struct pt_coproc_rep *rep, void (*work)(void *arg), void *arg);

/* Multi-coprocessor forms: post reqs[i] to cs[i] (slot `client` of each), then wait for all
 * the replies (reps[i]); cs[i] may repeat. post_all returns 0 or PT_EAGAIN (a ring was full:
 * requests before it were posted, seqs[] says which: 0 = not posted). */
int pt_coproc_post_all(struct pt_coproc *const cs[], uint32_t n, uint32_t client,
		       struct pt_coproc_req reqs[], uint32_t seqs[]);
int pt_coproc_wait_all(struct pt_coproc *const cs[], uint32_t n, uint32_t client,
		       const uint32_t seqs[], struct pt_coproc_rep reps[]);

/* The service side of the `hart` back end: serve every slot's pending requests once, in slot
 * order, publishing after each; returns the number served. The coprocessor hart loops on it
 * (subsys/coproc/coproc_hart.c); host tests call it directly. */
uint32_t pt_coproc_serve_pending(struct pt_coproc *c);
/* Boot one coprocessor (its back end's boot: rings, service init), once; idempotent, so a
 * client that needs it before the subsystem's boot (a scheduling policy's init) calls it too.
 * Hart 0 during the boot, or host tests. */
void pt_coproc_boot(struct pt_coproc *c);
/* The ring operations of back ends inline and hart (host tests build a fake "hart" back end
 * from them with their own nudge): set up the slots' rings and the service state; push a
 * request; pop a reply; the slot's done word and published words. */
void pt_coproc_ring_boot(struct pt_coproc *c);
int pt_coproc_ring_post(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req);
bool pt_coproc_ring_take(struct pt_coproc *c, uint32_t client, struct pt_coproc_rep *rep);
uint32_t pt_coproc_slot_done(const struct pt_coproc *c, uint32_t client);
uint64_t pt_coproc_slot_read(const struct pt_coproc *c, uint32_t client, uint32_t word);

#endif
