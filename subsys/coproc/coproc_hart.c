/*
 * The coproc subsystem: boots the configured coprocessors (pt_coprocs[], generated from the
 * `coproc:` section) and runs each `hart` back end's service on its cpu (`role: coproc`) with
 * the service-hart runtime (kernel/svc). docs/offload.md.
 *
 * The coprocessor hart serves every slot's request ring in turn and sleeps in wfi when all
 * are empty; a post kicks it (one CLINT write, the sender keeps its turn). A client that must
 * wait (a reply, or `done` for a fence) nudges: on a scheduler hart hal_ipi_send, which also
 * ends the client's QEMU icount turn so that the coprocessor hart runs next instead of the
 * client spinning through its whole turn; on a service hart a kick and pt_svc_yield.
 *
 * Boot: the kernel creates the configured threads before the subsystems boot and before any
 * other hart runs, so the offloaded scheduler posts before the coprocessor hart exists. Until
 * this subsystem's boot hook hands the service over (`started`), a waiting client serves the
 * pending requests itself — on hart 0 alone, so no one else touches the service state.
 */
#include <partita/coproc.h>
#include <partita/subsys.h>
#include <partita/svc.h>
#include <partita/hal.h>
#include <partita/hal_svc.h>
#include <partita/config.h>

static struct pt_svc coproc_svc[PT_COPROC_MAX];

static void hart_nudge(struct pt_coproc *c, uint32_t client)
{
	(void)client;
	if (!__atomic_load_n(&c->started, __ATOMIC_ACQUIRE)) {
		pt_coproc_serve_pending(c); /* the boot, hart 0 alone (above) */
		return;
	}
	if (pt_svc_on(hal_cpu_id())) {
		hal_svc_kick(c->hart);
		pt_svc_yield();
		hal_svc_halt();
	} else {
		hal_ipi_send(c->hart);
	}
}

static int coproc_main(struct pt_svc *s)
{
	struct pt_coproc *c = 0;
	for (uint32_t i = 0; i < pt_ncoprocs; i++)
		if (pt_coprocs[i]->be == &pt_coproc_backend_hart && pt_coprocs[i]->hart == s->hart)
			c = pt_coprocs[i];
	uint64_t woke = hal_cycles();
	for (;;) {
		if (pt_coproc_serve_pending(c))
			continue;
		if (pt_svc_stopping(s))
			return 0;
		/* awake time: under icount the client waits exactly this long (docs/offload.md) */
		__atomic_store_n(&c->busy_cycles, c->busy_cycles + (hal_cycles() - woke),
				 __ATOMIC_RELAXED);
		/* a post after the last look has kicked us: wfi falls through */
		pt_svc_wait_until(UINT64_MAX);
		woke = hal_cycles();
	}
}

static void coproc_cpu_entry(uint32_t cpu)
{
	for (uint32_t i = 0; i < pt_ncoprocs; i++) {
		struct pt_coproc *c = pt_coprocs[i];
		if (c->be != &pt_coproc_backend_hart || c->hart != cpu)
			continue;
		struct pt_svc *s = &coproc_svc[i % PT_COPROC_MAX];
		s->name = c->name;
		pt_svc_run(s, coproc_main);
		pt_svc_park();
	}
}

static void coproc_boot(void)
{
	for (uint32_t i = 0; i < pt_ncoprocs; i++) {
		struct pt_coproc *c = pt_coprocs[i];
		pt_coproc_boot(c);
		if (c->be == &pt_coproc_backend_hart) {
			pt_coproc_serve_pending(c); /* what the boot posted */
			__atomic_store_n(&c->started, 1, __ATOMIC_RELEASE);
		}
	}
}

PT_SUBSYS_REGISTER(coproc) = {
	.name = "coproc",
	.boot = coproc_boot,
	.cpu_entry = coproc_cpu_entry,
};

/* A post kicks the coprocessor hart (one CLINT write; the client keeps its turn). */
static int hart_post(struct pt_coproc *c, uint32_t client, const struct pt_coproc_req *req)
{
	int r = pt_coproc_ring_post(c, client, req);
	if (r == 0 && __atomic_load_n(&c->started, __ATOMIC_ACQUIRE))
		hal_svc_kick(c->hart);
	return r;
}

const struct pt_coproc_backend pt_coproc_backend_hart = {
	.name = "hart",
	.boot = pt_coproc_ring_boot,
	.post = hart_post,
	.take = pt_coproc_ring_take,
	.done = pt_coproc_slot_done,
	.read = pt_coproc_slot_read,
	.nudge = hart_nudge,
};
