/*
 * Back end `device`: the scheduler service of <partita/coproc_sched.h> on the emulated
 * scheduler-coprocessor device (QEMU built with platform/qemu-virt/devices/partita-sched.c,
 * docs/devices.md). The device does the service's work inside QEMU, synchronously: a request
 * is one 8-byte store to the slot's command register (slot k = device instance k), and it has
 * been served when the store retires. So:
 *   post   one store; without PT_COPROC_F_NOREPLY also the loads that make the reply (status,
 *          the GET_ATTR result, the next thread), pushed on the slot's reply ring;
 *   done   the last posted sequence number (nothing is ever pending);
 *   read   published word PT_SCHEDSVC_PUB_NEXT / _NREADY = one load of NEXT[k] / NREADY[k];
 *   nudge  nothing to wait for.
 * The device's errors become the service's (schedsvc.c): a busy or free handle PT_ESTATE,
 * anything else malformed PT_EINVAL; every reply equals schedsvc.c's (tests/system/qemudev/
 * backend.c checks it) except for a tag of 2^32 or more, which the device cannot hold
 * (PT_EINVAL, never sent). Operations outside the service's protocol (the device's own
 * YIELD) and handles past PT_SCHEDSVC_MAX_THREADS are refused here with PT_EINVAL.
 *
 * Boot resets the device and sets its priority order; with no device at the configured base
 * the first access faults (a kernel panic naming the address).
 */
#include <partita/coproc.h>
#include <partita/coproc_sched.h>
#include <partita/api.h>

/* The device's register map (docs/devices.md): offsets from the base, i = instance. */
#define DEV_ID 0x000
#define DEV_CTRL 0x00c
#define DEV_NEXT(i) (0x100 + 8 * (i))
#define DEV_CMD(i) (0x200 + 8 * (i))
#define DEV_STATUS(i) (0x280 + 8 * (i))
#define DEV_RESULT(i) (0x300 + 8 * (i))
#define DEV_NREADY(i) (0x380 + 8 * (i))
#define DEV_ID_VALUE 0x50545343u /* "PTSC" */
#define DEV_CTRL_ORDER 1u
#define DEV_CTRL_RESET 2u
/* device errors that mean "wrong state of the handle" (in use / no such thread) */
#define DEV_E_IN_USE 3u
#define DEV_E_NO_THREAD 4u

/* Boot found the device (its ID register) at the coprocessor's base; else every request is
 * refused with PT_EINVAL. Indexed by pt_coproc.id. */
static bool device_ok[PT_COPROC_MAX];

static inline uint32_t ld32(const struct pt_coproc *c, uintptr_t off)
{
	return *(volatile uint32_t *)(c->base + off);
}

static inline uint64_t ld64(const struct pt_coproc *c, uintptr_t off)
{
	return *(volatile uint64_t *)(c->base + off);
}

static void device_boot(struct pt_coproc *c)
{
	const struct pt_schedsvc_cfg *cfg = c->svc_cfg;
	for (uint32_t k = 0; k < c->nclients; k++) {
		struct pt_coproc_slot *sl = &c->slots[k];
		sl->posted = sl->done = 0;
		pt_svc_ring_init(&sl->rep, sl->rep_slots, PT_COPROC_RING_RECORDS,
				 sizeof(struct pt_coproc_rep));
	}
	*(volatile uint32_t *)(c->base + DEV_CTRL) = DEV_CTRL_RESET;
	*(volatile uint32_t *)(c->base + DEV_CTRL) = cfg && cfg->high_first ? DEV_CTRL_ORDER : 0;
	device_ok[c->id % PT_COPROC_MAX] = ld32(c, DEV_ID) == DEV_ID_VALUE;
}

/*
 * The command word of `req`, or 0 when the device cannot carry it (the reply: PT_EINVAL).
 * Out-of-range arguments are sent in a form the device refuses for the same reason, so that
 * it still checks the handle's state first and answers as schedsvc.c does (PT_ESTATE for a
 * free or busy handle, else PT_EINVAL): a priority past 255 travels as SET_ATTR PRIO with the
 * (saturated) 32-bit value, a bad CREATE prio or state as state 0xff, an attribute past 255 as
 * attribute 0xff. Only a tag of 2^32 or more cannot be sent at all.
 */
static uint64_t command_word(const struct pt_coproc_req *req)
{
	const uint64_t *a = req->args;
	uint64_t op = req->op, arg = 0, state = 0, value = 0;

	if (a[0] >= PT_SCHEDSVC_MAX_THREADS || op < PT_SCHEDSVC_CREATE || op > PT_SCHEDSVC_SET_ATTR)
		return 0;
	switch (op) {
	case PT_SCHEDSVC_CREATE: /* handle, prio, state, tag */
		if (a[3] > UINT32_MAX)
			return 0;
		if (a[1] > 0xff || a[2] > 0xff)
			state = 0xff;
		else
			arg = a[1], state = a[2];
		value = a[3];
		break;
	case PT_SCHEDSVC_SET_PRIO: /* handle, prio */
		if (a[1] > 0xff) {
			op = PT_SCHEDSVC_SET_ATTR;
			arg = PT_SCHEDSVC_ATTR_PRIO;
			value = a[1] > UINT32_MAX ? UINT32_MAX : a[1];
		} else {
			arg = a[1];
		}
		break;
	case PT_SCHEDSVC_GET_ATTR: /* handle, attr */
		arg = a[1] > 0xff ? 0xff : a[1];
		break;
	case PT_SCHEDSVC_SET_ATTR: /* handle, attr, value */
		arg = a[1] > 0xff ? 0xff : a[1];
		if (a[2] > UINT32_MAX && arg == PT_SCHEDSVC_ATTR_TAG)
			return 0;
		value = a[2] > UINT32_MAX ? UINT32_MAX : a[2];
		break;
	default: /* DELETE, SUSPEND, RESUME, RESUME_HEAD: handle */
		break;
	}
	return op | a[0] << 8 | arg << 16 | state << 24 | value << 32;
}

static int device_post(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req)
{
	struct pt_coproc_slot *sl = &c->slots[client];
	bool reply = !(req->flags & PT_COPROC_F_NOREPLY);
	uint64_t word = command_word(req);

	if (!reply) { /* the parallel non-blocking model: the store is all */
		if (word != 0 && device_ok[c->id % PT_COPROC_MAX])
			*(volatile uint64_t *)(c->base + DEV_CMD(client)) = word;
		__atomic_store_n(&sl->done, req->seq, __ATOMIC_RELEASE);
		return 0;
	}
	struct pt_coproc_rep rep = { .seq = req->seq, .status = 0, .val = { 0, 0 } };
	if (pt_svc_ring_full(&sl->rep))
		return PT_EAGAIN; /* the caller must take its replies first */
	if (!device_ok[c->id % PT_COPROC_MAX] || word == 0) {
		rep.status = PT_EINVAL;
	} else {
		*(volatile uint64_t *)(c->base + DEV_CMD(client)) = word; /* the command */
		uint32_t err = ld32(c, DEV_STATUS(client)) & 0xff;
		rep.status = err == 0 ? 0
			     : err == DEV_E_IN_USE || err == DEV_E_NO_THREAD ? PT_ESTATE
			     : PT_EINVAL;
		if (err == 0 && req->op == PT_SCHEDSVC_GET_ATTR)
			rep.val[0] = ld64(c, DEV_RESULT(client));
	}
	rep.val[1] = device_ok[c->id % PT_COPROC_MAX] ? ld32(c, DEV_NEXT(client))
						       : PT_SCHEDSVC_NONE;
	if (!pt_svc_ring_push(&sl->rep, &rep)) /* full: checked above */
		__atomic_fetch_add(&c->lost_replies, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->done, req->seq, __ATOMIC_RELEASE);
	return 0;
}

static uint64_t device_read(const struct pt_coproc *c, uint32_t client, uint32_t word)
{
	if (!device_ok[c->id % PT_COPROC_MAX])
		return word == PT_SCHEDSVC_PUB_NEXT ? PT_SCHEDSVC_NONE : 0;
	switch (word) {
	case PT_SCHEDSVC_PUB_NEXT:
		return ld32(c, DEV_NEXT(client));
	case PT_SCHEDSVC_PUB_NREADY:
		return ld32(c, DEV_NREADY(client));
	default:
		return 0;
	}
}

static void device_nudge(struct pt_coproc *c, uint32_t client)
{
	/* everything posted is served: a wait that ends up here waits for a reply it dropped */
	struct pt_coproc_rep rep;
	(void)pt_coproc_ring_take(c, client, &rep);
}

const struct pt_coproc_backend pt_coproc_backend_device = {
	.name = "device",
	.boot = device_boot,
	.post = device_post,
	.take = pt_coproc_ring_take,
	.done = pt_coproc_slot_done,
	.read = device_read,
	.nudge = device_nudge,
};
