/*
 * Service lifecycle and clean shutdown (<partita/svc.h>), and the report of an exception on a
 * service hart. State changes are atomic: RUNNING -> STOPPING only through pt_svc_stop,
 * -> STOPPED only by the service's own hart when its main has returned.
 */
#include <partita/hal.h>
#include <partita/hal_svc.h>
#include <partita/config.h>
#include <partita/svc.h>

/* kernel/core/printk.c (declared here rather than including the core's private header) */
int pt_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static struct pt_svc *on_hart[PT_MAX_CPUS];

struct pt_svc *pt_svc_on(uint32_t hart)
{
	return hart < PT_MAX_CPUS ? __atomic_load_n(&on_hart[hart], __ATOMIC_ACQUIRE) : 0;
}

int pt_svc_run(struct pt_svc *s, int (*main)(struct pt_svc *s))
{
	s->hart = hal_cpu_id();
	s->exit_code = 0;
	__atomic_store_n(&s->state, PT_SVC_RUNNING, __ATOMIC_RELEASE);
	__atomic_store_n(&on_hart[s->hart % PT_MAX_CPUS], s, __ATOMIC_RELEASE);
	int code = main(s);
	s->exit_code = code;
	pt_printk("svc: %s on hart %u stopped, exit %d\n", s->name, s->hart, code);
	__atomic_store_n(&s->state, PT_SVC_STOPPED, __ATOMIC_RELEASE); /* exit_code first */
	return code;
}

_Noreturn void pt_svc_park(void)
{
	for (;;)
		hal_svc_halt();
}

bool pt_svc_stop(struct pt_svc *s)
{
	uint32_t want = PT_SVC_RUNNING;
	if (!__atomic_compare_exchange_n(&s->state, &want, PT_SVC_STOPPING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return false;
	hal_svc_kick(s->hart); /* it may be waiting for work */
	return true;
}

bool pt_svc_stopping(const struct pt_svc *s)
{
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == PT_SVC_STOPPING;
}

bool pt_svc_wait_stopped(const struct pt_svc *s, uint64_t deadline_cycles)
{
	while (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != PT_SVC_STOPPED) {
		if (hal_cycles() >= deadline_cycles)
			return false;
		/* end the turn so the service runs; wake at the yield point or the deadline */
		pt_svc_yield();
		hal_svc_halt();
	}
	return true;
}

_Noreturn void pt_svc_fault(uint64_t cause, uint64_t pc, uint64_t tval)
{
	const struct pt_svc *s = pt_svc_on(hal_cpu_id());
	pt_printk("svc: %s on hart %u: exception cause %lu at %lx (tval %lx)\n",
		  s ? s->name : "?", (unsigned)hal_cpu_id(), (unsigned long)cause,
		  (unsigned long)pc, (unsigned long)tval);
	hal_poweroff(3);
}
