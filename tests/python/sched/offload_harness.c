/*
 * Host harness of the property test test_offload_property.py: the same command sequence drives
 * the in-line FP policy (kernel/sched/fp) and the offloaded policy (kernel/sched/offload with
 * the scheduler service behind subsys/coproc; the coprocessor runs only when the policy waits
 * for it, as a service hart that is late would), each with its own entities; every call
 * returns what both decided so that Python compares every decision.
 *
 * The commands are the scheduler core's uses of the ops table (kernel/core/sched_core.c):
 * a thread wakes (enqueue), blocks (dequeue, or leaves the cpu), changes priority
 * (key_changed), a dispatch (peek; preempt the running thread to the head of its level if the
 * best one preempts it), a quantum ends (rotate: the running thread goes to the tail), a
 * thread is deleted and its slot reused by a new thread (new tid, same slot).
 */
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <partita/config.h>
#include <partita/coproc.h>
#include "sched/sched.h"
#include "sched/offload/schedsvc.h"
#include "sched/offload/offload.h"

_Noreturn void pt_panic(const char *fmt, ...)
{
	fprintf(stderr, "panic: %s\n", fmt);
	abort();
}

/* ---- the configuration the offload policy finds its coprocessor in ---- */
static const struct pt_sched_cfg scheds[2] = {
	{ .name = "inline", .policy = PT_POLICY_FP, .cpu_mask = 1 },
	{ .name = "off", .policy = PT_POLICY_OFFLOAD, .cpu_mask = 1 },
};
const struct pt_system_cfg pt_config = { .scheds = scheds, .nscheds = 2 };

static void late_nudge(struct pt_coproc *c, uint32_t client)
{
	(void)client;
	pt_coproc_serve_pending(c);
}
static const struct pt_coproc_backend late_hart = {
	.name = "late-hart", .boot = pt_coproc_ring_boot, .post = pt_coproc_ring_post,
	.take = pt_coproc_ring_take, .done = pt_coproc_slot_done, .read = pt_coproc_slot_read,
	.nudge = late_nudge,
};
static struct pt_schedsvc_state svc_state;
static struct pt_schedsvc_cfg svc_cfg;
static struct pt_coproc_slot slots[1];
static struct pt_coproc cp = {
	.name = "schedcp", .nclients = 1, .svc = &pt_schedsvc, .be = &late_hart,
	.svc_cfg = &svc_cfg, .state = &svc_state, .slots = slots,
};
struct pt_coproc *const pt_coprocs[] = { &cp };
const uint32_t pt_ncoprocs = 1;
const struct pt_coproc_binding pt_coproc_sched_binding[] = { { "off", &cp, 0 }, { 0, 0, 0 } };

/* ---- two worlds ---- */
enum { NSLOTS = 128 };
enum { FREE, BLOCKED, READY, RUNNING };
struct world {
	struct pt_sched s;
	struct pt_sched_entity e[NSLOTS];
	struct pt_sched_entity *running;
};
static struct world w[2];
static uint8_t state[NSLOTS];
static uint32_t gen[NSLOTS];
static int high_first;

/* in-line FP is 0-highest: with high_first the offloaded side sees prio, the in-line one
 * 255 - prio (the same order) */
static uint16_t prio_for(int side, unsigned prio)
{
	return (uint16_t)(side == 0 && high_first ? 255 - prio : prio);
}

void h_reset(int hf)
{
	memset(w, 0, sizeof(w));
	memset(state, 0, sizeof(state));
	memset(gen, 0, sizeof(gen));
	memset(&cp, 0, sizeof(cp));
	cp.name = "schedcp";
	cp.nclients = 1;
	cp.svc = &pt_schedsvc;
	cp.be = &late_hart;
	cp.svc_cfg = &svc_cfg;
	cp.state = &svc_state;
	cp.slots = slots;
	high_first = hf;
	svc_cfg.high_first = (uint8_t)hf;
	for (int k = 0; k < 2; k++) {
		w[k].s.ops = k ? &pt_sched_offload_ops : &pt_sched_fp_ops;
		w[k].s.id = (uint32_t)k;
		w[k].s.cpu_mask = 1;
		w[k].s.one_cpu = 1;
		w[k].s.ops->init(&w[k].s);
	}
}

static int32_t tid_of(const struct pt_sched_entity *e) { return e ? (int32_t)e->tid : 0; }

/* The dispatch decision of one side: who runs afterwards. */
static void dispatch(struct world *x, int rotate)
{
	struct pt_sched *s = &x->s;
	if (x->running && rotate) {
		s->ops->enqueue(s, x->running); /* quantum over: behind its equals */
		x->running = 0;
	}
	struct pt_sched_entity *best = s->ops->peek(s, 0);
	if (!best)
		return;
	if (x->running) {
		if (!s->ops->preempts(best, x->running))
			return;
		s->ops->enqueue_head(s, x->running); /* preempted: keeps its place */
	}
	s->ops->dequeue(s, best);
	x->running = best;
	s->running[0] = best;
}

/*
 * One command; out[0..1] = the best ready tid of each side after it (0 = none), out[2..3] =
 * the running tid of each side, out[4..5] = each side's preempt_cpu of the woken thread
 * (WAKE only, else 9), out[6..7] = key_cmp(slot, arg2 slot) of each side (9 if either free).
 * Returns 0, or -1 if the command does not apply (e.g. wake a thread that is not blocked).
 */
enum { ADD, WAKE, BLOCK, SETPRIO, DISPATCH, ROTATE, DELETE, CMP };
int h_step(int op, int slot, int prio, int other, int32_t out[8])
{
	int r = 0;
	slot %= NSLOTS;
	other %= NSLOTS;
	out[4] = out[5] = out[6] = out[7] = 9;
	for (int k = 0; k < 2; k++)
		w[k].s.running[0] = w[k].running;
	switch (op) {
	case ADD:
		if (state[slot] != FREE) {
			r = -1;
			break;
		}
		state[slot] = BLOCKED;
		for (int k = 0; k < 2; k++) {
			struct pt_sched_entity *e = &w[k].e[slot];
			memset(e, 0, sizeof(*e));
			e->tid = (uint32_t)slot + 1 + NSLOTS * gen[slot];
			e->prio = prio_for(k, (unsigned)prio & 255);
			e->pinned_cpu = -1;
			e->cpu = -1;
		}
		gen[slot]++;
		break;
	case WAKE:
		if (state[slot] != BLOCKED) {
			r = -1;
			break;
		}
		state[slot] = READY;
		for (int k = 0; k < 2; k++) {
			w[k].s.ops->enqueue(&w[k].s, &w[k].e[slot]);
			out[4 + k] = w[k].s.ops->preempt_cpu(&w[k].s, &w[k].e[slot]);
		}
		break;
	case BLOCK:
	case DELETE:
		if (state[slot] == FREE) {
			r = -1;
			break;
		}
		for (int k = 0; k < 2; k++) {
			if (w[k].running == &w[k].e[slot]) {
				w[k].running = 0;
				w[k].s.running[0] = 0;
			} else {
				w[k].s.ops->dequeue(&w[k].s, &w[k].e[slot]);
			}
		}
		state[slot] = op == DELETE ? FREE : BLOCKED;
		break;
	case SETPRIO:
		if (state[slot] == FREE) {
			r = -1;
			break;
		}
		for (int k = 0; k < 2; k++) {
			w[k].e[slot].prio = prio_for(k, (unsigned)prio & 255);
			w[k].s.ops->key_changed(&w[k].s, &w[k].e[slot]);
		}
		break;
	case DISPATCH:
	case ROTATE:
		for (int k = 0; k < 2; k++) {
			if (w[k].running)
				state[(w[k].running->tid - 1) % NSLOTS] = READY;
			dispatch(&w[k], op == ROTATE);
		}
		if (w[0].running)
			state[(w[0].running->tid - 1) % NSLOTS] = RUNNING;
		break;
	case CMP:
		if (state[slot] == FREE || state[other] == FREE) {
			r = -1;
			break;
		}
		for (int k = 0; k < 2; k++)
			out[6 + k] = w[k].s.ops->key_cmp(&w[k].e[slot], &w[k].e[other]);
		break;
	default:
		r = -1;
	}
	for (int k = 0; k < 2; k++) {
		out[k] = tid_of(w[k].s.ops->peek(&w[k].s, 0));
		out[2 + k] = tid_of(w[k].running);
	}
	return r;
}

/* Commands the offloaded side posted so far (the test checks it is not a no-op). */
uint64_t h_commands(void) { return pt_offload_commands(&w[1].s); }
