/*
 * The I/O core's service loop (brief 0; Tabish et al. §IV-B, §IV-C).
 *
 * Event priorities, highest first, in one polling loop (no interrupts are taken on this hart,
 * so the order is exactly the order of the checks below):
 *   1. TDMA slot boundary: releases due by then, then Rule 1 / Rule 2 for the owning core, and
 *      programming the application DMA;
 *   2. application DMA completion: queue updates (loaded -> ready, unloaded -> partition free),
 *      I/O mirror hand-off;
 *   3. job releases between slot boundaries;
 *   4. devices, by their configured priority: network receive/transmit, then the UART.
 * Slots are time-triggered from pt_epoch: slot k covers [epoch + k*sigma, epoch + (k+1)*sigma)
 * and belongs to application core k mod M.
 *
 * It is a service on the service-hart runtime (<partita/svc.h>, kernel/svc/): the io
 * subsystem's per-hart entry runs it on the hart whose role is io; it sleeps with
 * pt_svc_wait_until (no polling, and it writes no other hart's comparator), wakes application
 * cores with pt_svc_kick, and stops at the end of the run or when asked (pt_svc_stop), after
 * stopping the application-core services and draining their console lines.
 */
#include <partita/hal.h>
#include <partita/config.h>
#include "trace/trace.h"
#include "../spm/spm_rt.h"
#include "../spm/spm_config.h"
#include "../spm/spm_trace.h"
#include "../spm/dma.h"
#include <partita/io_flow.h>
#include <partita/subsys.h>
#include <partita/svc.h>
#include "net.h"

static uint64_t next_release[PT_SPM_MAX_TASKS];
static uint64_t spor_state[PT_SPM_MAX_TASKS]; /* xorshift64 per sporadic task, never 0 */

/* Time to the next release of task i: the period (the minimum inter-arrival) plus, for a
 * sporadic task, an extra in [0, sporadic_extra_ns] from the task's own generator, so the
 * releases are the same on every run. */
static uint64_t interarrival(uint32_t i)
{
	const struct pt_spm_task *t = &pt_spm_sys.task[i];
	uint64_t extra_ns = t->cfg->sporadic_extra_ns;
	if (extra_ns == 0)
		return t->period_cycles;
	uint64_t x = spor_state[i];
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	spor_state[i] = x;
	return t->period_cycles + pt_svc_ns_to_cycles(x % (extra_ns + 1));
}
static struct pt_spm_action cur;  /* the transfer in flight, kind IDLE if none */
static uint32_t cur_core;
static int16_t tx_pending[PT_SPM_MAX_TASKS]; /* tasks whose output mirror awaits the device */
static uint32_t ntx_pending;
static uint64_t net_rx_pkts, net_tx_pkts, net_drops;

/* The I/O core's clock mailbox, read live by the host traffic tool through the shared RAM
 * file (tools/partita/subsys/spm/traffic.py GuestClock): virtual time in ns at the I/O
 * core's last loop iteration, and the time origin of the releases. The I/O core wakes at
 * least every 2 us while the virtio device is polled (net.c), so the host sees the guest
 * clock in steps of at most 2 us of virtual time. */
volatile uint64_t pt_io_clock_ns, pt_io_origin_ns;

static uint16_t phase;          /* task sets of other phases are not released */
static bool draining;           /* the phase's releases stopped; waiting for its jobs */

static void releases_due(uint64_t now)
{
	struct pt_spm_system *s = &pt_spm_sys;
	if (draining)
		return;
	for (uint32_t i = 0; i < s->ntasks; i++) {
		if (s->task[i].cfg->phase != phase)
			continue;
		while (next_release[i] <= now) {
			struct pt_spm_task *t = &s->task[i];
			struct pt_spm_core *core = &s->core[t->cfg->core];
			uint64_t rel = next_release[i];
			next_release[i] += interarrival(i);
			pt_svc_lock(&core->lock);
			bool active = pt_spm_release(s, i, rel);
			uint64_t job = t->job;
			pt_svc_unlock(&core->lock);
			if (active)
				pt_trace_emit(PT_EV_RELEASE, PT_SPM_TID_BASE + i, job,
					      rel + pt_svc_ns_to_cycles(t->cfg->deadline_ns));
			else
				pt_trace_emit(PT_EV_SPM_RELEASE, PT_SPM_TID_BASE + i, 0, rel);
		}
	}
}

static void program(uint32_t c, const struct pt_spm_action *a)
{
	struct pt_spm_system *s = &pt_spm_sys;
	const struct pt_spm_task *t = &s->task[a->task];
	const struct pt_spm_task_cfg *tc = t->cfg;
	uintptr_t base = s->core[c].part[a->part].base;
	uint64_t where = PT_SPM_TRACE_WHERE(c, a->part);
	struct pt_dma_xfer x = { 0 };
	if (a->kind == PT_SPM_LOAD) {
		x.seg[x.nsegs++] = (struct pt_dma_seg){ base, (uintptr_t)tc->image_addr,
							 tc->image_bytes };
		if (tc->in_mirror_bytes)
			x.seg[x.nsegs++] = (struct pt_dma_seg){ base + pt_spm_in_off(a->task),
				(uintptr_t)t->in_mirror, tc->in_mirror_bytes };
		if (tc->out_mirror_bytes) /* only the (empty) header: the task fills the rest */
			x.seg[x.nsegs++] = (struct pt_dma_seg){ base + pt_spm_out_off(a->task),
				(uintptr_t)t->out_mirror, sizeof(struct pt_io_mbuf) };
		pt_trace_emit(PT_EV_SPM_LOAD_BEGIN, PT_SPM_TID_BASE + a->task, where,
			      pt_spm_load_bytes(tc));
	} else {
		x.seg[x.nsegs++] = (struct pt_dma_seg){ (uintptr_t)tc->image_addr + tc->data_off,
							 base + tc->data_off, tc->data_bytes };
		if (tc->out_mirror_bytes)
			x.seg[x.nsegs++] = (struct pt_dma_seg){ (uintptr_t)t->out_mirror,
				base + pt_spm_out_off(a->task), tc->out_mirror_bytes };
		pt_trace_emit(PT_EV_SPM_UNLOAD_BEGIN, PT_SPM_TID_BASE + a->task, where,
			      pt_spm_unload_bytes(tc));
	}
	cur = *a;
	cur_core = c;
	pt_dma_submit(&x);
}

static void slot_begin(uint64_t slot, uint64_t boundary)
{
	struct pt_spm_system *s = &pt_spm_sys;
	uint32_t c = pt_spm_slot_owner(slot, s->ncores);
	struct pt_spm_core *core = &s->core[c];
	pt_trace_emit(PT_EV_SPM_SLOT, 0, PT_SPM_TRACE_WHERE(c, 0xff), slot);
	struct pt_spm_action a = { .kind = PT_SPM_IDLE, .reason = PT_SPM_IDLE_NOTHING };
	if (PT_SPM_MUTANT == PT_SPM_MUTANT_SKIP_SLOT && (slot / s->ncores) % 8 == 7) {
		/* mutant only: the slot is lost */
	} else {
		pt_svc_lock(&core->lock);
		a = pt_spm_slot_decide_at(s, c, boundary);
		pt_svc_unlock(&core->lock);
	}
	if (a.kind == PT_SPM_IDLE) {
		pt_trace_emit(PT_EV_SPM_IDLE_SLOT, 0, PT_SPM_TRACE_WHERE(c, 0xff), a.reason);
		return;
	}
	program(c, &a);
}

static void dma_done(void)
{
	struct pt_spm_system *s = &pt_spm_sys;
	struct pt_spm_action a = cur;
	struct pt_spm_task *t = &s->task[a.task];
	uint32_t tid = PT_SPM_TID_BASE + (uint32_t)a.task;
	uint64_t where = PT_SPM_TRACE_WHERE(cur_core, a.part);
	cur.kind = PT_SPM_IDLE;
	if (a.kind == PT_SPM_LOAD) {
		/* input data delivered with the image: the I/O core's copy starts empty again */
		struct pt_io_mbuf *in = (struct pt_io_mbuf *)t->in_mirror;
		if (in) {
			pt_trace_emit(PT_EV_IO_MIRROR_IN, tid, where, in->count);
			pt_io_mbuf_clear(in);
		}
	}
	uint64_t job = t->job, release = t->release_cycles;
	if (a.kind == PT_SPM_LOAD) /* traced before the core can see the task (it may start) */
		pt_trace_emit(PT_EV_SPM_LOAD_END, tid, where, job);
	pt_svc_lock(&s->core[cur_core].lock);
	bool reactivated = pt_spm_transfer_done(s, cur_core, &a);
	uint64_t new_job = t->job, new_release = t->release_cycles;
	pt_svc_unlock(&s->core[cur_core].lock);
	if (a.kind == PT_SPM_LOAD) {
		pt_svc_kick(s->core[cur_core].hart); /* the core may start it now */
		return;
	}
	uint64_t now = hal_cycles();
	pt_trace_emit(PT_EV_SPM_UNLOAD_END, tid, where, job);
	pt_trace_emit(PT_EV_COMPLETE, tid, job, now - release);
	if (t->out_mirror && ((struct pt_io_mbuf *)t->out_mirror)->count) {
		pt_trace_emit(PT_EV_IO_MIRROR_OUT, tid, where,
			      ((struct pt_io_mbuf *)t->out_mirror)->count);
		tx_pending[ntx_pending++] = a.task;
	}
	if (reactivated)
		pt_trace_emit(PT_EV_RELEASE, tid, new_job,
			      new_release + pt_svc_ns_to_cycles(t->cfg->deadline_ns));
}

/* Every job of the current phase has been unloaded and none is pending. */
static bool phase_drained(void)
{
	struct pt_spm_system *s = &pt_spm_sys;
	if (cur.kind != PT_SPM_IDLE)
		return false;
	for (uint32_t i = 0; i < s->ntasks; i++) {
		const struct pt_spm_task *t = &s->task[i];
		if (t->cfg->phase == phase && (t->status != PT_SPM_UNLOADED || t->pending))
			return false;
	}
	return true;
}

/* One device event; true if there was one. */
static bool net_service(void)
{
	struct pt_spm_system *s = &pt_spm_sys;
	uint32_t len;
	const uint8_t *p = pt_net_rx(&len);
	if (p) {
		uint16_t flow = pt_io_flow_of(p, len);
		struct pt_io_mbuf *mir[PT_SPM_MAX_TASKS];
		for (uint32_t i = 0; i < s->ntasks; i++)
			mir[i] = (struct pt_io_mbuf *)s->task[i].in_mirror;
		uint32_t dropped;
		uint32_t n = pt_io_dispatch(pt_spm_config.subs, pt_spm_config.nsubs, mir, flow, p,
					    len, &dropped);
		pt_net_rx_release();
		net_rx_pkts++;
		pt_trace_emit(PT_EV_IO_RX, n, flow, len);
		if (dropped) {
			net_drops += dropped;
			pt_trace_emit(PT_EV_IO_DROP, dropped, flow, 0);
		}
		return true; /* one device event per loop iteration: slot events stay on time */
	}
	if (ntx_pending) {
		int16_t id = tx_pending[0];
		struct pt_io_mbuf *m = (struct pt_io_mbuf *)s->task[id].out_mirror;
		for (uint32_t i = 0; i < m->count; i++) {
			uint32_t l;
			uint8_t *e = pt_io_mbuf_entry(m, i, &l);
			if (e && pt_net_tx(e, l)) {
				net_tx_pkts++;
				pt_trace_emit(PT_EV_IO_TX, PT_SPM_TID_BASE + (uint32_t)id,
					      pt_io_flow_of(e, l), l);
			}
		}
		pt_io_mbuf_clear(m);
		for (uint32_t i = 1; i < ntx_pending; i++)
			tx_pending[i - 1] = tx_pending[i];
		ntx_pending--;
		return true;
	}
	return false;
}

/* One console line of an application core to the UART (the I/O core owns it); true if
 * there was one. */
static bool uart_service(void)
{
	static uint32_t next_core;
	char line[128];
	for (uint32_t k = 0; k < pt_spm_sys.ncores; k++) {
		uint32_t c = (next_core + k) % pt_spm_sys.ncores;
		uint32_t n = pt_svc_con_take(pt_spm_con(c), line, sizeof(line));
		if (n) {
			pt_printk("[spm core %u] %s\n", c, line);
			pt_trace_emit(PT_EV_IO_CONSOLE, 0, PT_SPM_TRACE_WHERE(c, 0xff), n);
			next_core = c + 1;
			return true;
		}
	}
	return false;
}

/* Devices in their configured priority order, one event per loop iteration. */
static bool devices(bool net)
{
	if (pt_spm_config.uart_priority < pt_spm_config.net_priority) {
		if (uart_service())
			return true;
		return net && net_service();
	}
	if (net && net_service())
		return true;
	return uart_service();
}

/*
 * Table IV on this platform: time a full-partition load and unload through the software DMA
 * and the cost of programming a transfer, once at start (partitions are still empty). The
 * source of the "load" is main memory (the image area's neighbourhood: the kernel's RAM).
 */
static void calibrate(void)
{
	struct pt_spm_system *s = &pt_spm_sys;
	struct pt_spm_partition *p = &s->core[0].part[1];
	static uint8_t main_mem[64 * 1024] __attribute__((aligned(64)));
	uint32_t n = p->bytes <= sizeof(main_mem) ? p->bytes : (uint32_t)sizeof(main_mem);
	struct pt_dma_xfer x = { .nsegs = 1, .seg = { { p->base, (uintptr_t)main_mem, n } } };
	uint64_t t0 = hal_cycles();
	pt_dma_submit(&x);
	uint64_t t1 = hal_cycles();
	while (!pt_dma_poll_done())
		;
	uint64_t t2 = hal_cycles();
	x.seg[0] = (struct pt_dma_seg){ (uintptr_t)main_mem, p->base, n };
	pt_dma_submit(&x);
	while (!pt_dma_poll_done())
		;
	uint64_t t3 = hal_cycles();
	pt_trace_emit(PT_EV_SPM_CALIB, 0, 0, t2 - t0);
	pt_trace_emit(PT_EV_SPM_CALIB, 0, 1, t3 - t2);
	pt_trace_emit(PT_EV_SPM_CALIB, 0, 2, t1 - t0);
	pt_trace_emit(PT_EV_SPM_CALIB, 0, 3, n);
	pt_printk("spm: calibration: partition of %u bytes: load %lu cycles, unload %lu cycles, "
		  "dma setup %lu cycles\n", n, (unsigned long)(t2 - t0), (unsigned long)(t3 - t2),
		  (unsigned long)(t1 - t0));
}

static int io_main(struct pt_svc *self)
{
	struct pt_spm_system *s = &pt_spm_sys;
	uint64_t sigma = pt_svc_ns_to_cycles(pt_spm_config.sigma_ns);
	uint64_t start = pt_epoch;
	uint64_t end = pt_config.run_for_ns ? start + pt_svc_ns_to_cycles(pt_config.run_for_ns)
					    : UINT64_MAX;
	calibrate();
	bool net = pt_spm_config.net && pt_net_init() == 0;
	cur.kind = PT_SPM_IDLE;
	/* the first slot boundary still ahead of us (boot work may have passed the epoch) */
	uint64_t slot = 0, now0 = hal_cycles();
	if (now0 > start)
		slot = (now0 - start) / sigma + 1;
	/* releases count from a slot owned by application core 0 (the analysis' time origin) */
	slot += (s->ncores - slot % s->ncores) % s->ncores;
	uint64_t origin = start + slot * sigma;
	uint64_t phase_len = pt_spm_config.nphases > 1 ? pt_svc_ns_to_cycles(pt_spm_config.phase_ns)
						       : UINT64_MAX;
	uint64_t phase_end = phase_len == UINT64_MAX ? UINT64_MAX : origin + phase_len;
	for (uint32_t i = 0; i < s->ntasks; i++) {
		next_release[i] = origin + pt_svc_ns_to_cycles(s->task[i].cfg->offset_ns);
		spor_state[i] = 0x9E3779B97F4A7C15ull ^ ((uint64_t)i + 1) * 0xBF58476D1CE4E5B9ull;
	}
	pt_trace_emit(PT_EV_SPM_PHASE, 0, 0, origin);
	uint64_t overruns = 0;
	pt_io_origin_ns = origin << pt_config.icount_shift;
	for (;;) {
		uint64_t now = hal_cycles();
		pt_io_clock_ns = now << pt_config.icount_shift;
		if (now >= start + slot * sigma) {                 /* 1. slot timer */
			if (cur.kind != PT_SPM_IDLE) {
				/* sigma shorter than a copy: finish it before the next decision */
				overruns++;
				while (!pt_dma_poll_done())
					;
				dma_done();
			}
			releases_due(start + slot * sigma);
			slot_begin(slot, start + slot * sigma);
			slot++;
			continue;
		}
		if (cur.kind != PT_SPM_IDLE && pt_dma_poll_done()) { /* 2. DMA completion */
			dma_done();
			continue;
		}
		if (now >= end || pt_svc_stopping(self))
			break;
		if (!draining && now >= phase_end)
			draining = true;
		if (draining && phase_drained()) {
			if (++phase >= pt_spm_config.nphases)
				break;
			/* the new phase starts at the next slot owned by core 0 */
			uint64_t k = slot + (s->ncores - slot % s->ncores) % s->ncores;
			origin = start + k * sigma;
			for (uint32_t i = 0; i < s->ntasks; i++)
				next_release[i] = origin +
					pt_svc_ns_to_cycles(s->task[i].cfg->offset_ns);
			phase_end = origin + phase_len;
			draining = false;
			pt_trace_emit(PT_EV_SPM_PHASE, 0, phase, origin);
			continue;
		}
		releases_due(now);                                  /* 3. releases */
		if (devices(net))                                   /* 4. devices */
			continue;
		/* nothing pending: sleep to the next slot boundary, release or device event */
		uint64_t wake = start + slot * sigma;
		for (uint32_t i = 0; i < s->ntasks && !draining; i++)
			if (s->task[i].cfg->phase == phase && next_release[i] < wake)
				wake = next_release[i];
		if (!draining && phase_end < wake)
			wake = phase_end;
		if (net) {
			uint64_t nw = pt_net_next_event();
			if (nw < wake)
				wake = nw;
		}
		if (wake > end)
			wake = end;
		pt_svc_wait_until(wake);
	}
	/* clean shutdown: the application cores get one slot to finish their current job and
	 * report, then their last console lines go out */
	uint32_t stopped = pt_spm_stop_apps(hal_cycles() + sigma);
	while (uart_service()) /* what the application cores still queued */
		;
	pt_printk("spm: I/O core: %lu slots, %lu overran, net rx %lu tx %lu drops %lu\n",
		  (unsigned long)slot, (unsigned long)overruns, (unsigned long)net_rx_pkts,
		  (unsigned long)net_tx_pkts, (unsigned long)net_drops);
	for (uint32_t c = 0; c < s->ncores; c++)
		pt_printk("spm: core %u: loads %lu unloads %lu idle slots %lu wasted %lu "
			  "console drops %u\n", c,
			  (unsigned long)s->core[c].loads, (unsigned long)s->core[c].unloads,
			  (unsigned long)s->core[c].idle_slots,
			  (unsigned long)s->core[c].wasted_slots, pt_spm_con(c)->drops);
	if (stopped != s->ncores)
		pt_printk("spm: %u of %u application cores did not stop in a slot\n",
			  s->ncores - stopped, s->ncores);
	return 0;
}

static struct pt_svc io_svc = { .name = "io" };

static void io_cpu_entry(uint32_t hart)
{
	if (hart != pt_spm_config.io_hart || !pt_spm_wait_ready())
		return;
	int code = pt_svc_run(&io_svc, io_main);
	/* the I/O core owns the run: its end is the machine's */
	pt_trace_emit(PT_EV_SHUTDOWN, 0, 0, 0);
	pt_trace_set_exit_code(code);
	hal_poweroff(code);
}

/* The I/O core of brief 0, a service on the hart whose role is io (it needs the SPM tables:
 * the spm subsystem is always linked with it). Its trace range is the one
 * kernel/trace/trace_events.yaml gives it (io_trace_events.h). */
PT_SUBSYS_REGISTER(io) = {
	.name = "io",
	.cpu_entry = io_cpu_entry,
	.trace_first = PT_EV_IO_FIRST,
	.trace_count = PT_EV_IO_COUNT,
};
