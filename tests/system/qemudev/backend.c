/*
 * The coprocessor back end `device` (subsys/coproc/coproc_device.c) against the scheduler
 * service itself (kernel/sched/offload/schedsvc.c on the `inline` back end): the same random
 * request sequences through <partita/coproc.h> to both, every reply (status, GET_ATTR value,
 * next thread) and every published word compared, in both priority orders, over two client
 * slots, with replies (sequential model) and without (parallel non-blocking + pt_coproc_read).
 * Also the guest cycles of one request on each back end (printed; the device: one store).
 *
 * Bare metal (start.S, probe.ld), hart 0 of -smp 1 with -device partita-sched,addr=0x10200000,
 * instances=2. Exit status 0 when every comparison held.
 */
#include <stdbool.h>
#include <stdint.h>
#include <partita/coproc.h>
#include <partita/coproc_sched.h>
#include "schedsvc.h" /* kernel/sched/offload/, on the include path */

#define UART0 0x10000000ul
#define FINISHER 0x100000ul
#define BASE 0x10200000ul
#define NCLIENTS 2

/* What the runtime needs from the rest of the kernel (bare metal: nothing else runs), and
 * what the compiler may call for struct copies. */
void pt_svc_yield(void) {}
void *memcpy(void *d, const void *s, unsigned long n);
void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n)
{
	unsigned char *a = d;
	const unsigned char *b = s;
	while (n--)
		*a++ = *b++;
	return d;
}
void *memset(void *d, int c, unsigned long n)
{
	unsigned char *a = d;
	while (n--)
		*a++ = (unsigned char)c;
	return d;
}

static struct pt_schedsvc_state svc_state;
static struct pt_coproc_slot inl_slots[NCLIENTS], dev_slots[NCLIENTS];
static struct pt_schedsvc_cfg cfg;
static struct pt_coproc inl = {
	.name = "inline", .id = 0, .nclients = NCLIENTS, .svc = &pt_schedsvc,
	.be = &pt_coproc_backend_inline, .svc_cfg = &cfg, .state = &svc_state, .slots = inl_slots,
};
static struct pt_coproc dev = {
	.name = "device", .id = 1, .base = BASE, .nclients = NCLIENTS, .svc = &pt_schedsvc,
	.be = &pt_coproc_backend_device, .svc_cfg = &cfg, .slots = dev_slots,
};
struct pt_coproc *const pt_coprocs[] = { &inl, &dev };
const uint32_t pt_ncoprocs = 2;

static void put_char(char c) { *(volatile uint8_t *)UART0 = (uint8_t)c; }
static void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}
static void put_dec(uint64_t v)
{
	char b[24];
	int n = 0;
	do {
		b[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(b[--n]);
}
static void put_sdec(int64_t v)
{
	if (v < 0) {
		put_char('-');
		v = -v;
	}
	put_dec((uint64_t)v);
}

static unsigned checks, failures;

static void check_eq(unsigned k, const char *what, int64_t dev_v, int64_t inl_v)
{
	checks++;
	if (dev_v == inl_v)
		return;
	if (++failures <= 20) {
		put_str("backend: FAIL request ");
		put_dec(k);
		put_str(" ");
		put_str(what);
		put_str(": device ");
		put_sdec(dev_v);
		put_str(" service ");
		put_sdec(inl_v);
		put_str("\n");
	}
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

static void boot_both(bool high_first)
{
	cfg.high_first = high_first;
	inl.booted = dev.booted = 0;
	pt_coproc_boot(&inl);
	pt_coproc_boot(&dev);
}

/* One random request of the service's protocol (and some outside it). */
static void random_request(struct pt_coproc_req *r)
{
	unsigned prio = rnd(4) == 0 ? rnd(256) : 40 + 7 * rnd(3);

	r->flags = 0;
	r->op = (uint16_t)(rnd(50) == 0 ? 9 + rnd(100) : 1 + rnd(8));
	r->args[0] = rnd(60) == 0 ? PT_SCHEDSVC_MAX_THREADS + rnd(1000) : rnd(PT_SCHEDSVC_MAX_THREADS);
	r->args[1] = prio;
	r->args[2] = 1 + rnd(2);
	r->args[3] = rnd(0x7fffffff);
	r->args[4] = 0;
	if (rnd(25) == 0) /* out of range: priority, state */
		r->args[1] = 256 + rnd(100000);
	if (rnd(25) == 0)
		r->args[2] = rnd(2) ? 0 : 3 + (uint64_t)rnd(1u << 30) * 1000;
	if (r->op == PT_SCHEDSVC_GET_ATTR || r->op == PT_SCHEDSVC_SET_ATTR)
		r->args[1] = rnd(15) == 0 ? 4 + (uint64_t)rnd(1u << 30) * 16 : rnd(4);
	if (r->op == PT_SCHEDSVC_SET_ATTR) {
		if (r->args[1] == PT_SCHEDSVC_ATTR_PRIO)
			r->args[2] = rnd(10) == 0 ? 256 + (uint64_t)rnd(1u << 30) * 64 : prio;
		else if (r->args[1] == PT_SCHEDSVC_ATTR_STATE)
			r->args[2] = rnd(10) == 0 ? 3 + rnd(9) : 1 + rnd(2);
		else
			r->args[2] = rnd(0x7fffffff);
	}
}

static void compare_words(unsigned k, uint32_t client)
{
	check_eq(k, "published next", (int64_t)pt_coproc_read(&dev, client, PT_SCHEDSVC_PUB_NEXT),
		 (int64_t)pt_coproc_read(&inl, client, PT_SCHEDSVC_PUB_NEXT));
	check_eq(k, "published nready",
		 (int64_t)pt_coproc_read(&dev, client, PT_SCHEDSVC_PUB_NREADY),
		 (int64_t)pt_coproc_read(&inl, client, PT_SCHEDSVC_PUB_NREADY));
}

static void run(unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		struct pt_coproc_req rq, rd;
		struct pt_coproc_rep pi, pd;
		uint32_t client = rnd(NCLIENTS);
		enum pt_coproc_model m = rnd(4) == 0 ? PT_COPROC_PAR_NONBLOCKING
						      : PT_COPROC_SEQUENTIAL;
		random_request(&rq);
		rd = rq;
		int si = pt_coproc_call(&inl, client, m, &rq, &pi);
		int sd = pt_coproc_call(&dev, client, m, &rd, &pd);
		check_eq(k, "status", sd, si);
		if (m == PT_COPROC_SEQUENTIAL) {
			if (si == 0)
				check_eq(k, "value", (int64_t)pd.val[0], (int64_t)pi.val[0]);
			check_eq(k, "reply next", (int64_t)pd.val[1], (int64_t)pi.val[1]);
		}
		compare_words(k, client);
	}
}

static uint64_t rdcycle(void)
{
	uint64_t v;
	__asm__ volatile("csrr %0, mcycle" : "=r"(v));
	return v;
}

/* Guest cycles of one non-blocking post (create + delete, averaged) on a back end. */
static uint64_t post_cycles(struct pt_coproc *c)
{
	struct pt_coproc_req r = { .op = PT_SCHEDSVC_CREATE, .flags = PT_COPROC_F_NOREPLY,
				   .args = { 5, 10, PT_SCHEDSVC_READY, 0, 0 } };
	struct pt_coproc_req d = { .op = PT_SCHEDSVC_DELETE, .flags = PT_COPROC_F_NOREPLY,
				   .args = { 5, 0, 0, 0, 0 } };
	uint64_t t0 = rdcycle();
	for (unsigned k = 0; k < 8; k++) {
		pt_coproc_post(c, 0, &r);
		pt_coproc_post(c, 0, &d);
	}
	return (rdcycle() - t0) / 16;
}

void probe_trap(uint64_t mcause, uint64_t mtval);
void probe_main(void);

void probe_trap(uint64_t mcause, uint64_t mtval)
{
	put_str("backend: FAIL trap mcause ");
	put_dec(mcause);
	put_str(" mtval ");
	put_dec(mtval);
	put_str("\n");
	*(volatile uint32_t *)FINISHER = (1u << 16) | 0x3333;
}

void probe_main(void)
{
	boot_both(false);
	compare_words(0, 0);
	run(4000);
	boot_both(true);
	run(4000);
	boot_both(false);
	put_str("backend: cycles per non-blocking post: device ");
	put_dec(post_cycles(&dev));
	put_str(", inline service ");
	put_dec(post_cycles(&inl));
	put_str("\n");
	put_str(failures ? "backend: FAIL " : "backend: PASS ");
	put_dec(checks);
	put_str(" checks\n");
	*(volatile uint32_t *)FINISHER = failures ? (1u << 16) | 0x3333 : 0x5555;
}
