/*
 * The client side of the coprocessor interface (<partita/coproc.h>), the execution models, the
 * `inline` back end and the service side's serve loop body shared by the `hart` back end
 * (coproc_hart.c) and the host tests. Portable: no HAL call here (the back ends make them).
 */
#include <partita/coproc.h>
#include <partita/api.h>

static inline bool seq_reached(uint32_t done, uint32_t seq)
{
	return (int32_t)(done - seq) >= 0;
}

static inline void stat_add(uint64_t *v)
{
	__atomic_fetch_add(v, 1, __ATOMIC_RELAXED);
}

static uint32_t next_seq(struct pt_coproc_slot *sl)
{
	uint32_t s = sl->posted + 1;
	return s ? s : 1; /* 0 means "none" */
}

struct pt_coproc *pt_coproc_find(const char *name)
{
	for (uint32_t i = 0; i < pt_ncoprocs; i++) {
		const char *a = pt_coprocs[i]->name, *b = name;
		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return pt_coprocs[i];
	}
	return 0;
}

void pt_coproc_boot(struct pt_coproc *c)
{
	if (__atomic_load_n(&c->booted, __ATOMIC_ACQUIRE))
		return;
	if (c->be->boot)
		c->be->boot(c);
	__atomic_store_n(&c->booted, 1, __ATOMIC_RELEASE);
}

int64_t pt_coproc_post(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req)
{
	if (client >= c->nclients)
		return PT_EINVAL;
	struct pt_coproc_slot *sl = &c->slots[client];
	req->seq = next_seq(sl);
	if (c->be->post(c, client, req) != 0) {
		stat_add(&c->refused);
		return PT_EAGAIN;
	}
	sl->posted = req->seq;
	stat_add(&c->posts);
	return req->seq;
}

uint32_t pt_coproc_post_wait(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req)
{
	int64_t s;
	while ((s = pt_coproc_post(c, client, req)) == PT_EAGAIN) {
		stat_add(&c->nudges);
		c->be->nudge(c, client);
	}
	return s < 0 ? 0 : (uint32_t)s;
}

bool pt_coproc_served(const struct pt_coproc *c, uint32_t client, uint32_t seq)
{
	if (client >= c->nclients)
		return false;
	return seq_reached(c->be->done(c, client), seq);
}

void pt_coproc_sync(struct pt_coproc *c, uint32_t client)
{
	if (client >= c->nclients)
		return;
	uint32_t want = c->slots[client].posted;
	while (!seq_reached(c->be->done(c, client), want)) {
		stat_add(&c->nudges);
		c->be->nudge(c, client);
	}
}

uint64_t pt_coproc_read(const struct pt_coproc *c, uint32_t client, uint32_t word)
{
	return client < c->nclients ? c->be->read(c, client, word) : 0;
}

int pt_coproc_wait(struct pt_coproc *c, uint32_t client, uint32_t seq, struct pt_coproc_rep *rep)
{
	if (client >= c->nclients || seq == 0 || !seq_reached(c->slots[client].posted, seq))
		return PT_EINVAL;
	stat_add(&c->waits);
	for (;;) {
		/* done first: the service pushes a reply before it stores done */
		bool served = seq_reached(c->be->done(c, client), seq);
		while (c->be->take(c, client, rep)) {
			if (rep->seq == seq)
				return 0;
			if (!seq_reached(seq, rep->seq))
				return PT_EINVAL; /* a later one: seq's reply was taken before */
			/* an earlier request's reply nobody waits for: dropped */
		}
		if (served)
			return PT_EINVAL; /* its reply was taken before, or F_NOREPLY */
		stat_add(&c->nudges);
		c->be->nudge(c, client);
	}
}

int pt_coproc_call(struct pt_coproc *c, uint32_t client, enum pt_coproc_model model,
		   struct pt_coproc_req *req, struct pt_coproc_rep *rep)
{
	switch (model) {
	case PT_COPROC_PROCESSOR_ONLY:
		if (c->be != &pt_coproc_backend_inline)
			return rep->status = PT_EINVAL;
		/* the inline back end serves at post: the same as sequential, without a ring */
		/* fallthrough */
	case PT_COPROC_SEQUENTIAL:
	case PT_COPROC_PAR_BLOCKING:
		return pt_coproc_call_par(c, client, req, rep, 0, 0);
	case PT_COPROC_PAR_NONBLOCKING:
		req->flags |= PT_COPROC_F_NOREPLY;
		rep->seq = pt_coproc_post_wait(c, client, req);
		rep->status = 0;
		rep->val[0] = rep->val[1] = 0;
		return 0;
	default:
		return rep->status = PT_EINVAL;
	}
}

int pt_coproc_call_par(struct pt_coproc *c, uint32_t client, struct pt_coproc_req *req,
		       struct pt_coproc_rep *rep, void (*work)(void *arg), void *arg)
{
	req->flags &= (uint16_t)~PT_COPROC_F_NOREPLY;
	uint32_t seq = pt_coproc_post_wait(c, client, req);
	if (work)
		work(arg);
	int r = pt_coproc_wait(c, client, seq, rep);
	if (r) {
		rep->seq = seq;
		rep->val[0] = rep->val[1] = 0;
		return rep->status = r;
	}
	return rep->status;
}

int pt_coproc_post_all(struct pt_coproc *const cs[], uint32_t n, uint32_t client,
		       struct pt_coproc_req reqs[], uint32_t seqs[])
{
	for (uint32_t i = 0; i < n; i++)
		seqs[i] = 0;
	for (uint32_t i = 0; i < n; i++) {
		reqs[i].flags &= (uint16_t)~PT_COPROC_F_NOREPLY;
		int64_t s = pt_coproc_post(cs[i], client, &reqs[i]);
		if (s < 0)
			return PT_EAGAIN;
		seqs[i] = (uint32_t)s;
	}
	return 0;
}

int pt_coproc_wait_all(struct pt_coproc *const cs[], uint32_t n, uint32_t client,
		       const uint32_t seqs[], struct pt_coproc_rep reps[])
{
	int r = 0;
	/* in posting order: one coprocessor may appear twice, its replies come in that order */
	for (uint32_t i = 0; i < n; i++) {
		int e = pt_coproc_wait(cs[i], client, seqs[i], &reps[i]);
		if (e && !r)
			r = e;
	}
	return r;
}

/* ---- the service side (inline and hart back ends) ---- */

static void publish(struct pt_coproc *c, uint32_t client)
{
	struct pt_coproc_slot *sl = &c->slots[client];
	if (c->svc->publish)
		for (uint32_t w = 0; w < PT_COPROC_PUB_WORDS; w++)
			__atomic_store_n(&sl->pub[w], c->svc->publish(c->state, client, w),
					 __ATOMIC_RELAXED);
}

/* Serve one request of `client`, publish, push the reply, mark it done. The reply ring is
 * never full when a client keeps at most PT_COPROC_RING_RECORDS replies outstanding: the
 * reply is then dropped and counted (a request ring of that size bounds it for one waiter). */
static void serve_one(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req)
{
	struct pt_coproc_slot *sl = &c->slots[client];
	struct pt_coproc_rep rep;
	rep.seq = req->seq;
	c->svc->serve(c->state, client, req, &rep);
	rep.seq = req->seq;
	publish(c, client);
	if (!(req->flags & PT_COPROC_F_NOREPLY) && !pt_svc_ring_push(&sl->rep, &rep))
		__atomic_fetch_add(&c->lost_replies, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->done, req->seq, __ATOMIC_RELEASE); /* words and reply first */
}

uint32_t pt_coproc_serve_pending(struct pt_coproc *c)
{
	uint32_t n = 0;
	struct pt_coproc_req req;
	for (uint32_t k = 0; k < c->nclients; k++)
		while (pt_svc_ring_pop(&c->slots[k].req, &req)) {
			serve_one(c, k, &req);
			n++;
		}
	return n;
}

/* Rings and service state; shared by the inline and hart back ends. */
void pt_coproc_ring_boot(struct pt_coproc *c)
{
	for (uint32_t k = 0; k < c->nclients; k++) {
		struct pt_coproc_slot *sl = &c->slots[k];
		sl->posted = sl->done = 0;
		pt_svc_ring_init(&sl->req, sl->req_slots, PT_COPROC_RING_RECORDS,
				 sizeof(struct pt_coproc_req));
		pt_svc_ring_init(&sl->rep, sl->rep_slots, PT_COPROC_RING_RECORDS,
				 sizeof(struct pt_coproc_rep));
	}
	c->svc->init(c->state, c->nclients, c->svc_cfg);
	for (uint32_t k = 0; k < c->nclients; k++)
		publish(c, k);
}

int pt_coproc_ring_post(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req)
{
	return pt_svc_ring_push(&c->slots[client].req, req) ? 0 : PT_EAGAIN;
}

bool pt_coproc_ring_take(struct pt_coproc *c, uint32_t client, struct pt_coproc_rep *rep)
{
	return pt_svc_ring_pop(&c->slots[client].rep, rep);
}

uint32_t pt_coproc_slot_done(const struct pt_coproc *c, uint32_t client)
{
	return __atomic_load_n(&c->slots[client].done, __ATOMIC_ACQUIRE);
}

uint64_t pt_coproc_slot_read(const struct pt_coproc *c, uint32_t client, uint32_t word)
{
	return __atomic_load_n(&c->slots[client].pub[word % PT_COPROC_PUB_WORDS],
			       __ATOMIC_ACQUIRE);
}

/* ---- back end `inline`: the client serves its own request at post (processor only) ----
 * Slots may be used from several harts: serve() runs under the coprocessor's ticket lock. */
static int inline_post(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req)
{
	if (pt_svc_ring_full(&c->slots[client].rep) && !(req->flags & PT_COPROC_F_NOREPLY))
		return PT_EAGAIN; /* the caller must take its replies first */
	pt_svc_lock(&c->lock);
	serve_one(c, client, req);
	pt_svc_unlock(&c->lock);
	return 0;
}

static void inline_nudge(struct pt_coproc *c, uint32_t client)
{
	/* everything posted is served: a wait that ends up here waits for a reply it dropped */
	struct pt_coproc_rep rep;
	(void)pt_coproc_ring_take(c, client, &rep);
}

const struct pt_coproc_backend pt_coproc_backend_inline = {
	.name = "inline",
	.boot = pt_coproc_ring_boot,
	.post = inline_post,
	.take = pt_coproc_ring_take,
	.done = pt_coproc_slot_done,
	.read = pt_coproc_slot_read,
	.nudge = inline_nudge,
};
