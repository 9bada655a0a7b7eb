/*
 * The scheduler coprocessor's service (RT-SHADOWS, brief 2): fixed priority over 256 levels
 * in a configurable order, FIFO among equals, per client slot. Every command is constant time:
 * a level FIFO is a doubly linked list of handles (insert at either end, unlink in place), and
 * the best level is two count-trailing-zeros over a two-level bitmap (de Bruijn multiply: the
 * same instructions for every level, no libgcc, no loop). Structure and invariants:
 * schedsvc.h. Pure C: this file runs on a service hart, inline, on the host and in QEMU.
 */
#include "schedsvc.h"

/* PT_E* of <partita/api.h>, repeated so that this file needs no kernel header beyond the
 * protocol (the values are the API's and may not change). */
#define SVC_EINVAL (-1)
#define SVC_ESTATE (-6)

#define NONE PT_SCHEDSVC_NONE

static const uint8_t debruijn64[64] = {
	0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
	62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
	63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
	51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};

/* x != 0 */
static inline unsigned ctz64(uint64_t x)
{
	return debruijn64[((x & -x) * 0x022fdd63cc95386dull) >> 58];
}

static void slot_init(struct pt_schedsvc_slot *s)
{
	for (unsigned w = 0; w < PT_SCHEDSVC_LEVELS / 64; w++)
		s->bitmap[w] = 0;
	s->top = 0;
	s->nready = 0;
	for (unsigned l = 0; l < PT_SCHEDSVC_LEVELS; l++)
		s->head[l] = s->tail[l] = NONE;
	for (unsigned h = 0; h < PT_SCHEDSVC_MAX_THREADS; h++) {
		struct pt_schedsvc_thread *t = &s->t[h];
		t->next = t->prev = NONE;
		t->state = PT_SCHEDSVC_FREE;
		t->prio = t->level = 0;
		t->tag = 0;
	}
}

static void svc_init(void *state, uint32_t nclients, const void *cfg)
{
	struct pt_schedsvc_state *st = state;
	const struct pt_schedsvc_cfg *c = cfg;
	st->nclients = nclients < PT_COPROC_MAX_CLIENTS ? nclients : PT_COPROC_MAX_CLIENTS;
	st->high_first = c ? c->high_first : 0;
	for (uint32_t k = 0; k < PT_COPROC_MAX_CLIENTS; k++)
		slot_init(&st->slot[k]);
}

static inline uint8_t level_of(const struct pt_schedsvc_state *st, uint8_t prio)
{
	return st->high_first ? (uint8_t)(PT_SCHEDSVC_LEVELS - 1 - prio) : prio;
}

/* Put ready thread h on its level: at the tail (behind its equals) or the head. */
static void link(struct pt_schedsvc_slot *s, uint16_t h, int at_head)
{
	struct pt_schedsvc_thread *t = &s->t[h];
	unsigned l = t->level;
	if (s->head[l] == NONE) {
		t->next = t->prev = NONE;
		s->head[l] = s->tail[l] = h;
	} else if (at_head) {
		t->prev = NONE;
		t->next = s->head[l];
		s->t[s->head[l]].prev = h;
		s->head[l] = h;
	} else {
		t->next = NONE;
		t->prev = s->tail[l];
		s->t[s->tail[l]].next = h;
		s->tail[l] = h;
	}
	s->bitmap[l >> 6] |= 1ull << (l & 63);
	s->top |= 1ull << (l >> 6);
	t->state = PT_SCHEDSVC_READY;
	s->nready++;
}

static void unlink(struct pt_schedsvc_slot *s, uint16_t h)
{
	struct pt_schedsvc_thread *t = &s->t[h];
	unsigned l = t->level;
	if (t->prev != NONE)
		s->t[t->prev].next = t->next;
	else
		s->head[l] = t->next;
	if (t->next != NONE)
		s->t[t->next].prev = t->prev;
	else
		s->tail[l] = t->prev;
	t->next = t->prev = NONE;
	if (s->head[l] == NONE) {
		s->bitmap[l >> 6] &= ~(1ull << (l & 63));
		if (s->bitmap[l >> 6] == 0)
			s->top &= ~(1ull << (l >> 6));
	}
	t->state = PT_SCHEDSVC_SUSPENDED;
	s->nready--;
}

uint32_t pt_schedsvc_next(const struct pt_schedsvc_state *st, uint32_t client)
{
	const struct pt_schedsvc_slot *s = &st->slot[client % PT_COPROC_MAX_CLIENTS];
	if (s->top == 0)
		return NONE;
	unsigned w = ctz64(s->top);
	return s->head[(w << 6) + ctz64(s->bitmap[w])];
}

static int set_prio(const struct pt_schedsvc_state *st, struct pt_schedsvc_slot *s, uint16_t h,
		    uint64_t prio)
{
	if (prio >= PT_SCHEDSVC_LEVELS)
		return SVC_EINVAL;
	struct pt_schedsvc_thread *t = &s->t[h];
	int ready = t->state == PT_SCHEDSVC_READY;
	if (ready)
		unlink(s, h);
	t->prio = (uint8_t)prio;
	t->level = level_of(st, t->prio);
	if (ready)
		link(s, h, 0); /* behind its new equals (POSIX set-priority, as in-line FP) */
	return 0;
}

static int set_state(struct pt_schedsvc_slot *s, uint16_t h, uint64_t state, int at_head)
{
	struct pt_schedsvc_thread *t = &s->t[h];
	if (state == PT_SCHEDSVC_READY) {
		if (t->state != PT_SCHEDSVC_READY)
			link(s, h, at_head);
	} else if (state == PT_SCHEDSVC_SUSPENDED) {
		if (t->state == PT_SCHEDSVC_READY)
			unlink(s, h);
	} else {
		return SVC_EINVAL;
	}
	return 0;
}

static void svc_serve(void *state, uint32_t client, const struct pt_coproc_req *req,
		      struct pt_coproc_rep *rep)
{
	struct pt_schedsvc_state *st = state;
	rep->val[0] = rep->val[1] = 0;
	if (client >= st->nclients || req->args[0] >= PT_SCHEDSVC_MAX_THREADS) {
		rep->status = SVC_EINVAL;
		rep->val[1] = client < st->nclients ? pt_schedsvc_next(st, client) : NONE;
		return;
	}
	struct pt_schedsvc_slot *s = &st->slot[client];
	uint16_t h = (uint16_t)req->args[0];
	struct pt_schedsvc_thread *t = &s->t[h];
	int free = t->state == PT_SCHEDSVC_FREE;
	int r = 0;

	switch (req->op) {
	case PT_SCHEDSVC_CREATE:
		if (!free) {
			r = SVC_ESTATE;
		} else if (req->args[1] >= PT_SCHEDSVC_LEVELS ||
			   (req->args[2] != PT_SCHEDSVC_READY &&
			    req->args[2] != PT_SCHEDSVC_SUSPENDED)) {
			r = SVC_EINVAL;
		} else {
			t->prio = (uint8_t)req->args[1];
			t->level = level_of(st, t->prio);
			t->tag = req->args[3];
			t->state = PT_SCHEDSVC_SUSPENDED;
			if (req->args[2] == PT_SCHEDSVC_READY)
				link(s, h, 0);
		}
		break;
	case PT_SCHEDSVC_DELETE:
		if (free) {
			r = SVC_ESTATE;
		} else {
			if (t->state == PT_SCHEDSVC_READY)
				unlink(s, h);
			t->state = PT_SCHEDSVC_FREE;
		}
		break;
	case PT_SCHEDSVC_SUSPEND:
	case PT_SCHEDSVC_RESUME:
	case PT_SCHEDSVC_RESUME_HEAD:
		if (free)
			r = SVC_ESTATE;
		else
			r = set_state(s, h, req->op == PT_SCHEDSVC_SUSPEND ? PT_SCHEDSVC_SUSPENDED
									 : PT_SCHEDSVC_READY,
				      req->op == PT_SCHEDSVC_RESUME_HEAD);
		break;
	case PT_SCHEDSVC_SET_PRIO:
		r = free ? SVC_ESTATE : set_prio(st, s, h, req->args[1]);
		break;
	case PT_SCHEDSVC_GET_ATTR:
		switch (req->args[1]) {
		case PT_SCHEDSVC_ATTR_PRIO: rep->val[0] = t->prio; break;
		case PT_SCHEDSVC_ATTR_STATE: rep->val[0] = t->state; break;
		case PT_SCHEDSVC_ATTR_TAG: rep->val[0] = t->tag; break;
		case PT_SCHEDSVC_ATTR_LEVEL: rep->val[0] = t->level; break;
		default: r = SVC_EINVAL;
		}
		if (free && req->args[1] != PT_SCHEDSVC_ATTR_STATE)
			r = SVC_ESTATE;
		break;
	case PT_SCHEDSVC_SET_ATTR:
		if (free) {
			r = SVC_ESTATE;
			break;
		}
		switch (req->args[1]) {
		case PT_SCHEDSVC_ATTR_PRIO: r = set_prio(st, s, h, req->args[2]); break;
		case PT_SCHEDSVC_ATTR_STATE: r = set_state(s, h, req->args[2], 0); break;
		case PT_SCHEDSVC_ATTR_TAG: t->tag = req->args[2]; break;
		default: r = SVC_EINVAL; /* LEVEL is read-only */
		}
		break;
	default:
		r = SVC_EINVAL;
	}
	rep->status = r;
	rep->val[1] = pt_schedsvc_next(st, client);
}

static uint64_t svc_publish(const void *state, uint32_t client, uint32_t word)
{
	const struct pt_schedsvc_state *st = state;
	switch (word) {
	case PT_SCHEDSVC_PUB_NEXT: return pt_schedsvc_next(st, client);
	case PT_SCHEDSVC_PUB_NREADY: return st->slot[client % PT_COPROC_MAX_CLIENTS].nready;
	default: return 0;
	}
}

const struct pt_coproc_service pt_schedsvc = {
	.name = "sched",
	.state_bytes = sizeof(struct pt_schedsvc_state),
	.init = svc_init,
	.serve = svc_serve,
	.publish = svc_publish,
};
