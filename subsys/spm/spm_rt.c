/*
 * SPM subsystem on the target: the software scratchpads, the mirror-buffer pool, the boot hook
 * and the application-core service. The I/O core's TDMA service is subsys/io/io_core.c. Both
 * run on the service-hart runtime (<partita/svc.h>, kernel/svc/): locks, waits, kicks, the
 * console rings and the ticked job call come from there.
 *
 * Software stand-ins (QEMU virt has neither): each application core's "scratchpad" is a
 * reserved, private region of ordinary RAM (pt_spm_pool); the application DMA is the I/O core
 * copying memory (dma_sw.c). Nothing else reads or writes a core's region except that core and
 * the I/O core's DMA, which is the property the protocol needs.
 */
#include <partita/hal.h>
#include <partita/config.h>
#include "trace/trace.h"
#include "spm_rt.h"
#include "spm_config.h"
#include "spm_trace.h"
#include <partita/spm_task.h>
#include <partita/subsys.h>
#include <partita/svc.h>
#include <partita/hal_svc.h>

#define PT_SPM_POOL_BYTES (512u * 1024u)    /* all application cores' scratchpads */
#define PT_IO_POOL_BYTES (256u * 1024u)     /* the I/O core's mirror buffers */


struct pt_spm_system pt_spm_sys;
static uint8_t pt_spm_pool[PT_SPM_POOL_BYTES] __attribute__((aligned(4096)));
static uint8_t pt_io_pool[PT_IO_POOL_BYTES] __attribute__((aligned(64)));
static struct pt_spm_task_cfg tcfg[PT_SPM_MAX_TASKS]; /* config + layout read from images */
static uint32_t in_off[PT_SPM_MAX_TASKS], out_off[PT_SPM_MAX_TASKS];
static struct pt_io_mbuf *in_mir[PT_SPM_MAX_TASKS], *out_mir[PT_SPM_MAX_TASKS];
static volatile uint32_t spm_ready;

static void fail(const char *what, const char *name)
{
	pt_printk("spm: %s: %s\n", name, what);
	hal_poweroff(3);
}

uint32_t pt_spm_in_off(uint32_t id) { return in_off[id]; }
uint32_t pt_spm_out_off(uint32_t id) { return out_off[id]; }
struct pt_io_mbuf *pt_spm_in_mirror(uint32_t id) { return in_mir[id]; }
struct pt_io_mbuf *pt_spm_out_mirror(uint32_t id) { return out_mir[id]; }

static uint32_t align8(uint32_t x) { return (x + 7u) & ~7u; }

static uint64_t name_word(const char *s, int from)
{
	uint64_t w = 0;
	for (int i = 0; i < 8; i++) {
		char ch = 0;
		for (int k = 0; k <= from + i; k++)
			if (!s[k]) { ch = 0; goto put; }
		ch = s[from + i];
put:
		w |= (uint64_t)(uint8_t)ch << (8 * i);
		if (!ch)
			break;
	}
	return w;
}

static void spm_boot(void)
{
	const struct pt_spm_sys_cfg *sc = &pt_spm_config;
	if (!sc->enabled)
		return;
	if (sc->napp == 0 || sc->napp > PT_SPM_MAX_CORES ||
	    (uint64_t)sc->napp * sc->spm_bytes > PT_SPM_POOL_BYTES)
		fail("scratchpads do not fit the reserved pool", "config");
	uint32_t part = sc->spm_bytes / 2;
	uint32_t io_used = 0;
	for (uint32_t i = 0; i < sc->ntasks; i++) {
		const struct pt_spm_task_cfg *c = &sc->tasks[i];
		const struct pt_spm_task_io *io = &sc->task_io[i];
		const struct pt_spm_image_hdr *h = (const void *)(uintptr_t)c->image_addr;
		if (h->magic != PT_SPM_IMAGE_MAGIC)
			fail("image has no SPM header", c->name);
		tcfg[i] = *c;
		/* the image itself is the authority on its layout */
		tcfg[i].image_bytes = h->image_bytes;
		tcfg[i].entry_off = h->entry_off;
		tcfg[i].data_off = h->data_off;
		tcfg[i].data_bytes = h->image_bytes - h->data_off;
		if (h->image_bytes > c->image_bytes)
			fail("built image is larger than its declared image_bytes", c->name);
		uint32_t inb = io->in_slots ? PT_IO_MBUF_BYTES(io->in_slots, io->in_slot_bytes) : 0;
		uint32_t outb = io->out_slots ? PT_IO_MBUF_BYTES(io->out_slots, io->out_slot_bytes) : 0;
		in_off[i] = align8(h->image_bytes);
		out_off[i] = in_off[i] + align8(inb);
		tcfg[i].in_mirror_bytes = inb;
		tcfg[i].out_mirror_bytes = outb;
		if (out_off[i] + outb > part)
			fail("image and mirrors do not fit a partition", c->name);
		if (io_used + align8(inb) + align8(outb) > PT_IO_POOL_BYTES)
			fail("mirror buffers exceed the I/O pool", c->name);
		if (inb) {
			in_mir[i] = (struct pt_io_mbuf *)&pt_io_pool[io_used];
			pt_io_mbuf_init(in_mir[i], io->in_slots, io->in_slot_bytes);
			io_used += align8(inb);
		}
		if (outb) {
			out_mir[i] = (struct pt_io_mbuf *)&pt_io_pool[io_used];
			pt_io_mbuf_init(out_mir[i], io->out_slots, io->out_slot_bytes);
			io_used += align8(outb);
		}
	}
	uintptr_t bases[PT_SPM_MAX_CORES];
	for (uint32_t c = 0; c < sc->napp; c++)
		bases[c] = (uintptr_t)&pt_spm_pool[c * sc->spm_bytes];
	if (pt_spm_init(&pt_spm_sys, sc->napp, bases, part, tcfg, sc->ntasks))
		fail("task table rejected (too many tasks on a core?)", "config");
	for (uint32_t c = 0; c < sc->napp; c++)
		pt_spm_sys.core[c].hart = sc->app_hart[c];
	for (uint32_t i = 0; i < sc->ntasks; i++) {
		pt_spm_sys.task[i].period_cycles = pt_svc_ns_to_cycles(tcfg[i].period_ns);
		pt_spm_sys.task[i].in_mirror = (uint8_t *)in_mir[i];
		pt_spm_sys.task[i].out_mirror = (uint8_t *)out_mir[i];
		const char *n = tcfg[i].name;
		pt_trace_emit(PT_EV_THREAD_INFO, PT_SPM_TID_BASE + i, name_word(n, 0),
			      name_word(n, 8));
	}
	pt_printk("spm: %u application cores, I/O core hart %u, %u tasks, sigma %lu ns, "
		  "partition %u bytes\n", sc->napp, sc->io_hart, sc->ntasks,
		  (unsigned long)sc->sigma_ns, part);
	hal_fence();
	spm_ready = 1;
}

/* Console rings (spm_rt.h): one producer (the application core), one consumer (the I/O
 * core). */
static struct pt_svc_con con[PT_SPM_MAX_CORES];

struct pt_svc_con *pt_spm_con(uint32_t core)
{
	return &con[core];
}

static int app_index(uint32_t hart);

static void spm_puts(const char *line)
{
	int c = app_index(hal_cpu_id());
	if (c >= 0)
		pt_svc_con_put(&con[c], line);
}

static int app_index(uint32_t hart)
{
	for (uint32_t c = 0; c < pt_spm_config.napp; c++)
		if (pt_spm_config.app_hart[c] == hart)
			return (int)c;
	return -1;
}

/*
 * Heartbeat of an application hart running a job (pt_svc_call_ticked): a tick every
 * PT_SPM_BEAT_NS, application core k's grid shifted by k * PT_SPM_BEAT_NS / M, so while both
 * application harts compute, their deadlines alternate and QEMU hands the intervals to them
 * in turn; no icount turn is longer than one beat (docs/spm.md, "The QEMU icount
 * limitation"). The configuration also puts an idle hart after the I/O core and after each
 * application hart but the last (partita.subsys.spm.soundness): the idle hart takes the zero-budget
 * turn that follows a deadline-terminated one.
 */
#define PT_SPM_BEAT_NS 10000u

static struct pt_svc app_svc[PT_SPM_MAX_CORES];
static const char *const app_name[] = { "spm-app0", "spm-app1", "spm-app2", "spm-app3",
					"spm-app4", "spm-app5", "spm-app6", "spm-app7" };
_Static_assert(sizeof(app_name) / sizeof(app_name[0]) >= PT_SPM_MAX_CORES,
	       "a service name per application core");

/* Application core: non-preemptive fixed priority over the ready queue (loaded tasks only).
 * Stops when asked (pt_spm_stop_apps) once its ready queue is empty. */
static int app_main(struct pt_svc *self)
{
	uint32_t c = (uint32_t)(self - app_svc);
	struct pt_spm_system *s = &pt_spm_sys;
	struct pt_spm_core *core = &s->core[c];
	uint64_t beat = pt_svc_ns_to_cycles(PT_SPM_BEAT_NS);
	uint64_t phase = pt_svc_ns_to_cycles((uint64_t)PT_SPM_BEAT_NS * c / s->ncores);
	bool slept = false;
	for (;;) {
		pt_svc_lock(&core->lock);
		int id = pt_spm_pick(s, c);
		pt_svc_unlock(&core->lock);
		if (id < 0) {
			if (pt_svc_stopping(self))
				return 0;
			pt_svc_wait_until(UINT64_MAX); /* the I/O core kicks us after each load */
			slept = true;
			continue;
		}
		if (PT_SPM_MUTANT == PT_SPM_MUTANT_DISPATCH_DELAY && slept) { /* mutant only */
			uint64_t until = hal_cycles() + pt_svc_ns_to_cycles(pt_spm_config.sigma_ns);
			while (hal_cycles() < until)
				pt_svc_wait_until(until);
		}
		slept = false;
		struct pt_spm_task *t = &s->task[id];
		uintptr_t base = pt_spm_task_base(s, (uint32_t)id);
		const struct pt_spm_task_cfg *tc = t->cfg;
		uint64_t job = t->job;
		struct pt_spm_ctx ctx = {
			.arg = tc->arg, .job = job,
			.in = tc->in_mirror_bytes ? (void *)(base + in_off[id]) : 0,
			.out = tc->out_mirror_bytes ? (void *)(base + out_off[id]) : 0,
			.puts = spm_puts,
		};
		uint64_t where = PT_SPM_TRACE_WHERE(c, t->partition);
		pt_trace_emit(PT_EV_DISPATCH, PT_SPM_TID_BASE + (uint32_t)id, 0, 0);
		pt_trace_emit(PT_EV_SPM_EXEC_BEGIN, PT_SPM_TID_BASE + (uint32_t)id, where, job);
		hal_svc_sync_icache(); /* the DMA wrote the task image */
		pt_svc_call_ticked(base + tc->entry_off, &ctx, beat, phase);
		/* Publish the completion at once, traced under the lock with its time: the I/O
		 * core decides under this lock and, for Rule 2, as of the slot's nominal start
		 * (pt_spm_slot_decide_at), so a job counts as done in a slot iff it finished
		 * before the slot began, as in the simulator (partita.subsys.spm.simcheck). */
		pt_svc_lock(&core->lock);
		uint64_t now = hal_cycles();
		pt_spm_complete_at(s, c, now);
		pt_trace_emit(PT_EV_SPM_EXEC_END, PT_SPM_TID_BASE + (uint32_t)id,
			      where | now << 16, job);
		pt_svc_unlock(&core->lock);
		pt_trace_emit(PT_EV_IDLE, 0, 0, 0);
	}
}

uint32_t pt_spm_stop_apps(uint64_t deadline_cycles)
{
	uint32_t stopped = 0;
	for (uint32_t c = 0; c < pt_spm_config.napp; c++)
		pt_svc_stop(&app_svc[c]);
	for (uint32_t c = 0; c < pt_spm_config.napp; c++)
		stopped += pt_svc_wait_stopped(&app_svc[c], deadline_cycles);
	return stopped;
}

bool pt_spm_wait_ready(void)
{
	if (!pt_spm_config.enabled)
		return false;
	while (!__atomic_load_n(&spm_ready, __ATOMIC_ACQUIRE))
		;
	hal_fence();
	return true;
}

static void spm_cpu_entry(uint32_t hart)
{
	int c = app_index(hart);
	if (c < 0 || !pt_spm_wait_ready())
		return;
	app_svc[c].name = app_name[c];
	pt_svc_run(&app_svc[c], app_main);
	pt_svc_park();
}

/* Brief 0's scratchpad runtime: the application-core services (the I/O core is subsys/io's
 * service). Its trace range is the one kernel/trace/trace_events.yaml gives it. */
PT_SUBSYS_REGISTER(spm) = {
	.name = "spm",
	.boot = spm_boot,
	.cpu_entry = spm_cpu_entry,
	.trace_first = PT_EV_SPM_FIRST,
	.trace_count = PT_EV_SPM_COUNT,
};
