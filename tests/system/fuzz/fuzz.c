/*
 * System-call fuzzer (issue 7; docs/security.md). A user partition issues seeded random system
 * calls: random numbers, live and stale object ids, thread ids, pointers inside, outside and
 * straddling its own memory and the kernel's, lengths, timeouts and periods. The campaign is
 * run by test_sys_fuzz.py (a bounded one in `make test`) and `partita fuzz`
 * (long ones, `make fuzz`), which check from outside that nothing broke: no kernel panic, no
 * victim deadline miss, no victim memory change, no change to the kernel's code or read-only
 * data (through the RAM file), and the campaign completing (no livelock).
 *
 * fuzz_main (the coordinator) runs FUZZ_WORKERS workers and replaces any that stops making
 * progress (blocked forever, suspended, exited, deleted: all legal outcomes of random calls),
 * so a campaign always reaches its count. Its arg: seed << 32 | calls / 1000.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/config.h>
#include <partita/hal_cpu.h>
#include <partita/syscall.h>

#include "lib/ufmt.h"

#define FUZZ_WORKERS 4
#define FUZZ_HEAP_BYTES 8192 /* heap_bytes of the fuzzer's partition (fuzz.yaml) */
#define FUZZ_PRIO_COORD 31   /* the top of the partition's aperiodic range */
#define FUZZ_PRIO_WORKER 60
#define POOL 16

extern char __user_start[], __user_end[], pt_trace_area[];

struct worker {
	volatile int tid;
	volatile uint64_t issued; /* calls issued (a call that never returns counts too) */
	volatile int finished;
	uint64_t seen;
	int stalls;
};

static struct worker workers[FUZZ_WORKERS];
static volatile int coord_tid;
static volatile uint64_t quota_calls;  /* calls each worker makes before it finishes */
static volatile int ids[POOL], stale[POOL], tids[POOL]; /* shared by the workers */
static volatile uint32_t nids, nstale, ntids;
static uint8_t bufs[2][4096];
static volatile uint64_t last_result;

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64*: small, fast, good enough to pick arguments */
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

#define sys6 pt_syscall6

/* A pointer: mostly into or around memory the partition owns, often the kernel's. */
static uint64_t ptr_arg(uint64_t *s)
{
	uint64_t r = rnd(s);
	uint64_t heap = HAL_USER_VA, heap_end = HAL_USER_VA + FUZZ_HEAP_BYTES;
	switch (r % 14) {
	case 0: return (uint64_t)(uintptr_t)bufs[r >> 8 & 1] + (r >> 16) % 4096;
	case 1: return heap + (r >> 8) % FUZZ_HEAP_BYTES;
	case 2: return heap_end - (r >> 8) % 16;                 /* straddles the heap's end */
	case 3: return (uint64_t)(uintptr_t)__user_end - (r >> 8) % 64; /* next: trace area */
	case 4: return (uint64_t)(uintptr_t)__user_start + (r >> 8) % 4096;
	case 5: return 0x80000000ull + (r >> 8) % 0x10000;       /* kernel text and data */
	case 6: return (uint64_t)(uintptr_t)pt_trace_area + (r >> 8) % 0x100000;
	case 7: return 0x80400000ull + (r >> 8) % (64ull << 20); /* the page pool */
	case 8: return HAL_KSTACK_VA + (r >> 8) % 0x100000;      /* kernel stacks */
	case 9: return HAL_USER_VA_END - (r >> 8) % 64;
	case 10: return (r >> 8) % 4096;                         /* NULL page */
	case 11: return heap + 1;                                /* unaligned */
	case 12: return (uint64_t)0 - (r >> 8) % 4096;
	default: return r;
	}
}

static uint64_t time_arg(uint64_t *s)
{
	static const uint64_t edge[] = { 0, 1, 1000, 49999, 50000, 100000, 1000000,
					 1ull << 40, 1ull << 62, (1ull << 62) + 1,
					 UINT64_MAX - 1, UINT64_MAX };
	uint64_t r = rnd(s);
	return r & 1 ? edge[(r >> 1) % (sizeof(edge) / sizeof(edge[0]))] : (r >> 1) % 3000000;
}

/* A timeout: mostly none or short (the campaign must move on), sometimes one at the edges. */
static uint64_t timeout_arg(uint64_t *s)
{
	uint64_t r = rnd(s) % 10;
	return r < 6 ? 0 : r < 9 ? rnd(s) % 20000 : time_arg(s);
}

/* A pointer the partition may not read: the console must refuse it, never print it. */
static uint64_t forbidden_ptr(uint64_t *s)
{
	uint64_t p;
	do
		p = ptr_arg(s);
	while (p >= (uint64_t)(uintptr_t)__user_start && p < (uint64_t)(uintptr_t)__user_end);
	return p >= HAL_USER_VA && p < HAL_USER_VA_END ? 0x80000000ull : p;
}

static int pick(volatile int *pool, volatile uint32_t *n, uint64_t r)
{
	return *n ? pool[r % (*n < POOL ? *n : POOL)] : (int)(r % 64);
}

static uint64_t id_arg(uint64_t *s)
{
	uint64_t r = rnd(s);
	switch (r % 6) {
	case 0: case 1: return (uint64_t)pick(ids, &nids, r >> 8);
	case 2: return (uint64_t)pick(stale, &nstale, r >> 8);
	case 3: return (r >> 8) % 256;
	case 4: return (uint64_t)(int64_t)-(int64_t)((r >> 8) % 4);
	default: return r;
	}
}

static uint64_t tid_arg(uint64_t *s)
{
	uint64_t r = rnd(s);
	uint64_t t = r % 4 == 0 ? 0 : r % 4 == 1 ? (r >> 8) % 512 : (uint64_t)pick(tids, &ntids, r >> 8);
	return (int)t == coord_tid ? 0 : t; /* the coordinator must outlive the campaign */
}

static uint64_t any_arg(uint64_t *s)
{
	uint64_t r = rnd(s);
	switch (r % 7) {
	case 0: return id_arg(s);
	case 1: return ptr_arg(s);
	case 2: return time_arg(s);
	case 3: return (r >> 8) % 300;
	case 4: return (uint64_t)0 - (r >> 8) % 300;
	case 5: return tid_arg(s);
	default: return rnd(s);
	}
}

static void remember(volatile int *pool, volatile uint32_t *n, int v)
{
	pool[*n % POOL] = v;
	(*n)++;
}

/* Bodies for created threads: none spins without a budget (an aperiodic spinner at the
 * coordinator's priority would stall the campaign, not the kernel). */
static void fz_nop(void *arg)
{
	(void)arg;
}

static void fz_spin(void *arg) /* periodic only: its budget is enforced */
{
	(void)arg;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

static void fz_fault(void *arg)
{
	*(volatile uint64_t *)(uintptr_t)(0x80001000ull + ((uintptr_t)arg & 0xff8)) = 1;
}

static void fz_calls(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg | 1;
	for (int i = 0; i < 16; i++)
		sys6(PT_SYS_SEM_GIVE + (long)(rnd(&s) % 3), (long)id_arg(&s), 0, 0, 0, 0, 0);
}

static void (*const bodies[])(void *) = { fz_nop, fz_spin, fz_fault, fz_calls };

static long fuzz_create(uint64_t *s)
{
	static struct pt_thread_attr a;
	uint64_t r = rnd(s);
	uint8_t *raw = (uint8_t *)&a;
	if (r % 5 == 0) /* garbage attributes */
		for (unsigned i = 0; i < sizeof(a); i++)
			raw[i] = (uint8_t)rnd(s);
	else if (r % 5 == 1) /* a pointer anywhere instead of the attributes */
		return sys6(PT_SYS_THREAD_CREATE, (long)ptr_arg(s), 0, 0, 0, 0, 0);
	else {
		a.name = r % 3 ? "fz" : (const char *)(uintptr_t)ptr_arg(s);
		a.entry = r % 7 ? bodies[(r >> 8) % 4] : (void (*)(void *))(uintptr_t)ptr_arg(s);
		a.arg = (void *)(uintptr_t)rnd(s);
		a.priority = (uint16_t)(rnd(s) % 300);
		a.cpu = (int16_t)((int)(rnd(s) % 5) - 1);
		a.sched = (int16_t)((int)(rnd(s) % 5) - 1);
		a.kind = (uint8_t)(rnd(s) % 4);
		a.miss_policy = (uint8_t)(rnd(s) % 4);
		a.enforce_budget = (uint8_t)(rnd(s) % 2);
		a.stack_bytes = (uint32_t)(rnd(s) % 3 ? 4096 : rnd(s));
		a.period_ns = time_arg(s);
		a.deadline_ns = rnd(s) % 2 ? 0 : time_arg(s);
		a.offset_ns = rnd(s) % 2 ? 0 : time_arg(s);
		a.wcet_ns = time_arg(s) % (a.period_ns ? a.period_ns : 1);
		if (a.entry == fz_spin && a.kind == PT_KIND_APERIODIC)
			a.entry = fz_nop;
	}
	if (a.entry == fz_spin && a.kind == PT_KIND_APERIODIC)
		a.entry = fz_nop;
	long t = sys6(PT_SYS_THREAD_CREATE, (long)(uintptr_t)&a, 0, 0, 0, 0, 0);
	if (t > 0)
		remember(tids, &ntids, (int)t);
	return t;
}

/* One random call. */
static void fuzz_one(uint64_t *s, int self)
{
	uint64_t r = rnd(s);
	long nr = (long)(r % (PT_SYS_COUNT + 3));
	long v;
	switch (nr) {
	case PT_SYS_THREAD_CREATE:
		v = fuzz_create(s);
		break;
	case PT_SYS_THREAD_DELETE: case PT_SYS_THREAD_SUSPEND: case PT_SYS_THREAD_RESUME:
	case PT_SYS_THREAD_SET_PRIORITY: case PT_SYS_SPORADIC_RELEASE: {
		uint64_t t = tid_arg(s);
		if ((nr == PT_SYS_THREAD_DELETE || nr == PT_SYS_THREAD_SUSPEND) && (r >> 40) % 8)
			t = t == 0 || (int)t == self ? 1 : t; /* seldom itself */
		v = sys6(nr, (long)t, (long)any_arg(s), 0, 0, 0, 0);
		break;
	}
	case PT_SYS_SEM_CREATE: case PT_SYS_MUTEX_CREATE: case PT_SYS_MQ_CREATE:
		v = sys6(nr, (long)(rnd(s) % 3 ? rnd(s) % 64 : any_arg(s)),
			 (long)(rnd(s) % 3 ? rnd(s) % 64 : any_arg(s)), 0, 0, 0, 0);
		if (v >= 0)
			remember(ids, &nids, (int)v);
		break;
	case PT_SYS_SEM_DELETE: case PT_SYS_MUTEX_DELETE: case PT_SYS_MQ_DELETE: {
		uint64_t id = id_arg(s);
		v = sys6(nr, (long)id, 0, 0, 0, 0, 0);
		if (v == PT_OK)
			remember(stale, &nstale, (int)id);
		break;
	}
	case PT_SYS_MQ_SEND: case PT_SYS_MQ_RECV:
		v = sys6(nr, (long)id_arg(s), (long)ptr_arg(s), (long)timeout_arg(s), 0, 0, 0);
		break;
	case PT_SYS_SEM_TAKE: case PT_SYS_MUTEX_LOCK:
		v = sys6(nr, (long)id_arg(s), (long)timeout_arg(s), 0, 0, 0, 0);
		break;
	case PT_SYS_CONSOLE_WRITE: /* refused pointers and lengths (the log stays readable) */
		v = sys6(nr, (long)forbidden_ptr(s), (long)(rnd(s) % 3 ? rnd(s) % 8 : any_arg(s)), 0,
			 0, 0, 0);
		break;
	case PT_SYS_SLEEP_NS: case PT_SYS_SLEEP_UNTIL:
		v = sys6(nr, (long)(rnd(s) % 8 ? rnd(s) % 20000 : time_arg(s)), 0, 0, 0, 0, 0);
		break;
	default:
		v = sys6(nr, (long)any_arg(s), (long)any_arg(s), (long)any_arg(s), (long)any_arg(s),
			 (long)any_arg(s), (long)any_arg(s));
	}
	last_result = (uint64_t)v;
}

static void fuzz_worker(void *arg)
{
	struct worker *w = &workers[(uintptr_t)arg % FUZZ_WORKERS];
	uint64_t s = ((uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ull) | 1;
	int self = pt_thread_self();
	while (w->issued < quota_calls) {
		w->issued++;
		fuzz_one(&s, self);
	}
	w->finished = 1;
}

static int start_worker(int i, uint64_t seed)
{
	struct pt_thread_attr a = { .name = "fz_worker", .entry = fuzz_worker,
				    .arg = (void *)(uintptr_t)(seed * FUZZ_WORKERS + (uint64_t)i),
				    .priority = FUZZ_PRIO_WORKER, .cpu = -1, .sched = -1,
				    .kind = PT_KIND_APERIODIC, .stack_bytes = 8192 };
	workers[i].issued = workers[i].seen = 0;
	workers[i].finished = workers[i].stalls = 0;
	int t = pt_thread_create(&a);
	for (uint32_t k = 0; t == PT_EQUOTA && k < POOL && k < ntids; k++) {
		pt_thread_delete(tids[k]); /* threads the campaign created: make room */
		t = pt_thread_create(&a);
	}
	workers[i].tid = t;
	return t;
}

static void say2(const char *what, uint64_t a, const char *what2, uint64_t b);

static void say2(const char *what, uint64_t a, const char *what2, uint64_t b)
{
	char buf[128];
	int n = 0;
	pt_ufmt_str(buf, &n, what);
	pt_ufmt_u64(buf, &n, a);
	pt_ufmt_str(buf, &n, what2);
	pt_ufmt_u64(buf, &n, b);
	buf[n++] = '\n';
	pt_console_write(buf, (size_t)n);
}

void fuzz_main(void *arg)
{
	uint64_t seed = (uint64_t)(uintptr_t)arg >> 32;
	uint64_t target = ((uint64_t)(uintptr_t)arg & 0xffffffffu) * 1000;
	uint64_t total = 0, replaced = 0, round = 0;
	coord_tid = pt_thread_self();
	quota_calls = 2000;
	pt_usay("fuzz: start\n");
	for (int i = 0; i < FUZZ_WORKERS; i++)
		start_worker(i, seed + round++);
	while (total < target) {
		pt_sleep_ns(250000);
		for (int i = 0; i < FUZZ_WORKERS; i++) {
			struct worker *w = &workers[i];
			uint64_t now = w->issued;
			bool stalled = now == w->seen && ++w->stalls >= 3;
			if (now != w->seen)
				w->stalls = 0;
			if ((total + now - w->seen) / 20000 != total / 20000)
				say2("fuzz: progress calls=", total + now - w->seen, " replaced=", replaced);
			total += now - w->seen;
			w->seen = now;
			if (total >= target || !(w->finished || stalled || w->tid <= 0))
				continue;
			if (!w->finished) {
				pt_thread_delete(w->tid); /* blocked for good, suspended or gone */
				replaced++;
			}
			start_worker(i, seed + round++);
		}
	}
	for (int i = 0; i < FUZZ_WORKERS; i++)
		pt_thread_delete(workers[i].tid);
	say2("fuzz: done calls=", total, " replaced=", replaced);
	say2("fuzz: done_at_cycles=", pt_time_cycles(), " workers=", FUZZ_WORKERS);
}
