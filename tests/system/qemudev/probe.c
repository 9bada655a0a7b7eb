/*
 * Bare-metal probe of the scheduler-coprocessor device (platform/qemu-virt/devices/
 * partita-sched.c): drives every register through its documented map and checks every answer
 * against a reference model written here from the map alone (docs/devices.md).
 *
 * Runs on hart 0 of `-smp 1 -bios none` with `-device partita-sched,addr=0x10200000,
 * instances=2`. Prints to the UART; powers off through the virt machine's test finisher with
 * exit status 0 (all checks held) or 1.
 */
#include <stdbool.h>
#include <stdint.h>

#define BASE 0x10200000ul
#define UART0 0x10000000ul
#define FINISHER 0x100000ul

/* Register map (docs/devices.md) */
#define R_ID 0x000
#define R_VERSION 0x004
#define R_CONFIG 0x008
#define R_CTRL 0x00c
#define R_ERR_WHERE 0x010
#define R_ERRORS 0x014
#define R_ERR_VALUE 0x018
#define R_COMMANDS 0x020
#define R_NEXT(i) (0x100 + 8 * (i))
#define R_NEXT_RR(i) (0x180 + 8 * (i))
#define R_CMD(i) (0x200 + 8 * (i))
#define R_STATUS(i) (0x280 + 8 * (i))
#define R_RESULT(i) (0x300 + 8 * (i))
#define R_NREADY(i) (0x380 + 8 * (i))
#define R_THREAD(i, t) (0x1000 + 0x800 * (i) + 8 * (t))

enum { OP_CREATE = 1, OP_DELETE, OP_SUSPEND, OP_RESUME, OP_RESUME_HEAD, OP_SET_PRIO,
       OP_GET_ATTR, OP_SET_ATTR, OP_YIELD };
enum { ST_FREE = 0, ST_SUSPENDED = 1, ST_READY = 2 };
enum { A_PRIO = 0, A_STATE = 1, A_TAG = 2, A_LEVEL = 3 };
enum { E_OK = 0, E_OP = 1, E_IN_USE = 3, E_NO_THREAD = 4, E_STATE = 5, E_ATTR = 6,
       E_ACCESS = 7, E_ORDER = 8, E_PRIO = 9 };
#define NONE 0xffffu
#define THREADS 256
#define INSTANCES 2

static volatile uint32_t *r32(unsigned off) { return (volatile uint32_t *)(BASE + off); }
static volatile uint64_t *r64(unsigned off) { return (volatile uint64_t *)(BASE + off); }

static void put_char(char c) { *(volatile uint8_t *)UART0 = (uint8_t)c; }
static void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}
static void put_hex(uint64_t v)
{
	put_str("0x");
	for (int i = 60; i >= 0; i -= 4)
		put_char("0123456789abcdef"[(v >> i) & 15]);
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

static unsigned checks, failures;

static void check_eq(unsigned line, const char *what, uint64_t got, uint64_t want)
{
	checks++;
	if (got == want)
		return;
	if (++failures <= 20) {
		put_str("probe: FAIL line ");
		put_dec(line);
		put_str(" ");
		put_str(what);
		put_str(": got ");
		put_hex(got);
		put_str(" want ");
		put_hex(want);
		put_str("\n");
	}
}
#define EQ(got, want) check_eq(__LINE__, #got, (uint64_t)(got), (uint64_t)(want))

static uint64_t cmd(unsigned op, unsigned tid, unsigned arg, unsigned state, uint32_t value)
{
	return (uint64_t)(op & 0xff) | (uint64_t)(tid & 0xff) << 8 | (uint64_t)(arg & 0xff) << 16 |
	       (uint64_t)(state & 0xff) << 24 | (uint64_t)value << 32;
}
static void post(unsigned i, uint64_t c) { *r64(R_CMD(i)) = c; }
static uint32_t status(unsigned i) { return *r32(R_STATUS(i)); }
static uint32_t next(unsigned i) { return *r32(R_NEXT(i)); }

/* ---- the reference model: the register map's semantics, by brute force ---- */
struct ref_thread {
	uint8_t state, prio;
	uint32_t tag;
	int64_t key; /* FIFO position among equals: tail inserts count up, head inserts down */
};
struct ref {
	struct ref_thread t[THREADS];
	int64_t tail_key, head_key;
	unsigned nready;
	uint64_t result;
};
static struct ref refs[INSTANCES];
static bool high_first;

static unsigned level(unsigned prio) { return high_first ? 255 - prio : prio; }

static void ref_clear(void)
{
	for (unsigned i = 0; i < INSTANCES; i++) {
		for (unsigned t = 0; t < THREADS; t++)
			refs[i].t[t] = (struct ref_thread){0};
		refs[i].tail_key = refs[i].head_key = 0;
		refs[i].nready = 0;
		refs[i].result = 0;
	}
}

static void ref_enqueue(struct ref *r, unsigned tid, bool head)
{
	r->t[tid].state = ST_READY;
	r->t[tid].key = head ? --r->head_key : ++r->tail_key;
	r->nready++;
}

static void ref_dequeue(struct ref *r, unsigned tid)
{
	if (r->t[tid].state == ST_READY) {
		r->t[tid].state = ST_SUSPENDED;
		r->nready--;
	}
}

static void ref_set_prio(struct ref *r, unsigned tid, unsigned prio)
{
	bool ready = r->t[tid].state == ST_READY;
	ref_dequeue(r, tid);
	r->t[tid].prio = (uint8_t)prio;
	if (ready)
		ref_enqueue(r, tid, false);
}

static unsigned ref_next(const struct ref *r)
{
	unsigned best = NONE;
	for (unsigned t = 0; t < THREADS; t++) {
		const struct ref_thread *x = &r->t[t];
		if (x->state != ST_READY)
			continue;
		if (best == NONE || level(x->prio) < level(r->t[best].prio) ||
		    (level(x->prio) == level(r->t[best].prio) && x->key < r->t[best].key))
			best = t;
	}
	return best;
}

/* The error the device must report for this command; applies it to the model. */
static unsigned ref_apply(struct ref *r, unsigned op, unsigned tid, unsigned arg, unsigned state,
			  uint32_t value)
{
	struct ref_thread *x = &r->t[tid];

	if (op < OP_CREATE || op > OP_YIELD)
		return E_OP;
	if (op == OP_CREATE) {
		if (x->state != ST_FREE)
			return E_IN_USE;
		if (state != ST_READY && state != ST_SUSPENDED)
			return E_STATE;
		x->prio = (uint8_t)arg;
		x->tag = value;
		x->state = ST_SUSPENDED;
		if (state == ST_READY)
			ref_enqueue(r, tid, false);
		return E_OK;
	}
	if (x->state == ST_FREE) {
		if (op == OP_GET_ATTR && arg == A_STATE) {
			r->result = ST_FREE;
			return E_OK;
		}
		return E_NO_THREAD;
	}
	switch (op) {
	case OP_DELETE:
		ref_dequeue(r, tid);
		x->state = ST_FREE;
		return E_OK;
	case OP_SUSPEND:
		ref_dequeue(r, tid);
		return E_OK;
	case OP_RESUME:
	case OP_RESUME_HEAD:
		if (x->state != ST_READY)
			ref_enqueue(r, tid, op == OP_RESUME_HEAD);
		return E_OK;
	case OP_SET_PRIO:
		ref_set_prio(r, tid, arg);
		return E_OK;
	case OP_YIELD:
		ref_set_prio(r, tid, x->prio);
		return E_OK;
	case OP_GET_ATTR:
		if (arg == A_PRIO)
			r->result = x->prio;
		else if (arg == A_STATE)
			r->result = x->state;
		else if (arg == A_TAG)
			r->result = x->tag;
		else if (arg == A_LEVEL)
			r->result = level(x->prio);
		else
			return E_ATTR;
		return E_OK;
	default: /* OP_SET_ATTR */
		if (arg == A_PRIO) {
			if (value > 255)
				return E_PRIO;
			ref_set_prio(r, tid, value);
		} else if (arg == A_STATE) {
			if (value == ST_SUSPENDED)
				ref_dequeue(r, tid);
			else if (value == ST_READY) {
				if (x->state != ST_READY)
					ref_enqueue(r, tid, false);
			} else
				return E_STATE;
		} else if (arg == A_TAG) {
			x->tag = value;
		} else {
			return E_ATTR;
		}
		return E_OK;
	}
}

static uint64_t ref_thread_word(const struct ref_thread *x)
{
	if (x->state == ST_FREE)
		return 0;
	return x->prio | (uint64_t)x->state << 8 | (uint64_t)level(x->prio) << 16 |
	       (uint64_t)x->tag << 32;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

/* n random commands over both instances, every answer checked against the model. Priorities
 * cluster on a few levels (many equals) with occasional far gaps; tids reach past 64. */
static void random_commands(unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		unsigned i = rnd(INSTANCES);
		struct ref *r = &refs[i];
		unsigned op = rnd(40) == 0 ? 10 + rnd(200) : 1 + rnd(9);
		unsigned tid = rnd(100);
		unsigned prio = rnd(4) == 0 ? rnd(256) : 100 + 3 * rnd(4);
		unsigned arg = prio, state = 1 + rnd(2);
		uint32_t value = rnd(0x7fffffff);

		if (rnd(30) == 0)
			state = rnd(2) ? 0 : 3 + rnd(250);
		if (op == OP_GET_ATTR || op == OP_SET_ATTR)
			arg = rnd(12) == 0 ? 4 + rnd(200) : rnd(4);
		if (op == OP_SET_ATTR && arg == A_PRIO)
			value = rnd(10) == 0 ? 256 + rnd(1000) : prio;
		if (op == OP_SET_ATTR && arg == A_STATE)
			value = rnd(10) == 0 ? 3 + rnd(9) : 1 + rnd(2);
		unsigned err = ref_apply(r, op, tid, arg, state, value);
		post(i, cmd(op, tid, arg, state, value));
		EQ(status(i), err | (op & 0xff) << 8);
		EQ(next(i), ref_next(r));
		EQ(*r32(R_NREADY(i)), r->nready);
		if (op == OP_GET_ATTR && err == E_OK)
			EQ(*r64(R_RESULT(i)), r->result);
		EQ(*r64(R_THREAD(i, tid)), ref_thread_word(&r->t[tid]));
	}
}

static uint64_t rdcycle(void)
{
	uint64_t v;
	__asm__ volatile("csrr %0, mcycle" : "=r"(v));
	return v;
}

#define X16(s) s s s s s s s s s s s s s s s s
/* Cycles of 16 loads (or stores) from/to `p` between two mcycle reads. */
static uint64_t loads16(volatile void *p)
{
	uint64_t t0 = rdcycle();
	__asm__ volatile(X16("lw t0, 0(%0)\n") : : "r"(p) : "t0", "memory");
	return rdcycle() - t0;
}
static uint64_t stores16(volatile void *p, uint64_t v)
{
	uint64_t t0 = rdcycle();
	__asm__ volatile(X16("sd %1, 0(%0)\n") : : "r"(p), "r"(v) : "memory");
	return rdcycle() - t0;
}

static volatile uint64_t ram_word;

void probe_trap(uint64_t mcause, uint64_t mtval);
void probe_main(void);

void probe_trap(uint64_t mcause, uint64_t mtval)
{
	put_str("probe: FAIL trap mcause ");
	put_hex(mcause);
	put_str(" mtval ");
	put_hex(mtval);
	put_str("\n");
	*(volatile uint32_t *)FINISHER = (1u << 16) | 0x3333;
}

void probe_main(void)
{
	put_str("probe: partita-sched at 0x10200000\n");
	EQ(*r32(R_ID), 0x50545343);
	EQ(*r32(R_VERSION), 1);
	EQ(*r32(R_CONFIG), THREADS | INSTANCES << 16);
	EQ(*r32(R_CTRL), 0);
	EQ(next(0), NONE);
	EQ(next(1), NONE);

	/* Errors: each one counted, the first one kept. */
	EQ(*r32(R_ERRORS), 0);
	post(0, cmd(OP_DELETE, 7, 0, 0, 0));
	EQ(status(0), E_NO_THREAD | OP_DELETE << 8);
	EQ(*r32(R_ERRORS), 1);
	EQ(*r32(R_ERR_WHERE), R_CMD(0) | E_NO_THREAD << 16);
	EQ(*r64(R_ERR_VALUE), cmd(OP_DELETE, 7, 0, 0, 0));
	*r32(R_CMD(1)) = OP_CREATE; /* a 4-byte store is not a command */
	EQ(*r32(R_ERRORS), 2);
	EQ(*r64(R_COMMANDS), 1);
	EQ(*r32(R_ERR_WHERE), R_CMD(0) | E_NO_THREAD << 16);
	*r32(R_ERRORS) = 0;
	EQ(*r32(R_ERRORS), 0);
	(void)*r32(0x0ff0); /* nothing there */
	EQ(*r32(R_ERR_WHERE), 0x0ff0 | E_ACCESS << 16);
	*r32(R_ERRORS) = 0;

	/* 64 threads on 4 priorities; FIFO among equals; NEXT has no side effect. */
	for (unsigned t = 0; t < 64; t++) {
		post(0, cmd(OP_CREATE, t, 10 + t % 4, ST_READY, 1000 + t));
		EQ(status(0), OP_CREATE << 8);
	}
	EQ(*r32(R_NREADY(0)), 64);
	EQ(next(0), 0);
	EQ(next(0), 0);
	post(0, cmd(OP_SUSPEND, 0, 0, 0, 0));
	EQ(next(0), 4);
	post(0, cmd(OP_RESUME_HEAD, 0, 0, 0, 0));
	EQ(next(0), 0);
	/* Round robin: NEXT_RR walks the 16 threads of the top level, in order, and wraps. */
	for (unsigned k = 0; k < 20; k++)
		EQ(*r32(R_NEXT_RR(0)), (k % 16) * 4);
	post(0, cmd(OP_SET_PRIO, 63, 5, 0, 0));
	EQ(next(0), 63);
	post(0, cmd(OP_GET_ATTR, 63, A_TAG, 0, 0));
	EQ(*r64(R_RESULT(0)), 1063);
	/* The order can change only while no thread exists. */
	*r32(R_CTRL) = 1;
	EQ(*r32(R_CTRL), 0);
	EQ(*r32(R_ERR_WHERE), R_CTRL | E_ORDER << 16);

	/* A command and a NEXT read cost the guest one store / one load: nothing more. */
	uint64_t dev_ld = loads16(r32(R_NEXT(0))), ram_ld = loads16(&ram_word);
	uint64_t dev_st = stores16(r64(R_CMD(0)), cmd(OP_YIELD, 1, 0, 0, 0));
	uint64_t ram_st = stores16(&ram_word, 0);
	put_str("probe: 16 NEXT loads ");
	put_dec(dev_ld);
	put_str(" cycles, 16 RAM loads ");
	put_dec(ram_ld);
	put_str("; 16 commands ");
	put_dec(dev_st);
	put_str(", 16 RAM stores ");
	put_dec(ram_st);
	put_str("\n");
	EQ(dev_ld, ram_ld);
	EQ(dev_st, ram_st);

	/* Random command sequences against the model, in both orders. */
	*r32(R_CTRL) = 2; /* RESET */
	EQ(next(0), NONE);
	EQ(*r64(R_COMMANDS), 0);
	ref_clear();
	random_commands(3000);
	*r32(R_CTRL) = 2;
	*r32(R_CTRL) = 1; /* 255 is the highest */
	EQ(*r32(R_CTRL), 1);
	high_first = true;
	ref_clear();
	post(1, cmd(OP_CREATE, 1, 10, ST_READY, 0));
	post(1, cmd(OP_CREATE, 2, 200, ST_READY, 0));
	EQ(next(1), 2);
	*r32(R_CTRL) = 3; /* RESET, order kept */
	random_commands(3000);
	EQ(*r32(R_ERRORS) != 0, 1); /* the sequences include bad commands */

	put_str(failures ? "probe: FAIL " : "probe: PASS ");
	put_dec(checks);
	put_str(" checks\n");
	*(volatile uint32_t *)FINISHER = failures ? (1u << 16) | 0x3333 : 0x5555;
}
