/*
 * The task of the cache-coloring evaluation (`partita experiment coloring`, docs/coloring.md;
 * seed 001 §IV, its Figure 9): one periodic job reads and writes its working set, an array
 * taken from its partition's heap of one color, `accesses` times; one access in four is a
 * write. The argument packs everything the job needs, so one entry serves every task:
 *
 *   bits  0..23  accesses per job (1 .. 16,777,215)
 *   bits 24..35  working-set KiB (4 .. 4095)
 *   bits 36..43  the heap color the array comes from
 *   bits 44..51  task id (0 .. 63): the slot of the array, the PRNG stream
 *   bit  52      0 = random accesses (a real-time task), 1 = sweep (the best-effort polluter:
 *                from a random line at each job, one access per 64-byte line, wrapping)
 *
 * The array is allocated (and so its pages first touched) by the first job, as the paper's
 * function allocates before its loop; later jobs reuse it. The PRNG is xorshift64* seeded from
 * the task id: deterministic, so two runs of a configuration access the same addresses.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/heap.h>
#include <partita/printf.h>

#define WSS_SLOTS 64
#define WSS_LINE_BYTES 64u
#define WSS_WRITE_EVERY 4u /* one write every four accesses (the paper's 20 % write ratio) */

struct wss_slot {
	volatile uint32_t *array;
	uint64_t rng;
	uint32_t words;
};

static struct wss_slot wss_slots[WSS_SLOTS];
static uint32_t wss_alloc_busy;
volatile uint64_t wss_task_sink;

static uint64_t wss_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

void wss_task(void *arg)
{
	uint64_t a = (uint64_t)(uintptr_t)arg;
	uint32_t accesses = (uint32_t)(a & 0xffffffu);
	uint32_t kib = (uint32_t)((a >> 24) & 0xfffu);
	unsigned color = (unsigned)((a >> 36) & 0xffu);
	unsigned id = (unsigned)((a >> 44) & 0xffu) % WSS_SLOTS;
	unsigned sweep = (unsigned)((a >> 52) & 1u);
	struct wss_slot *s = &wss_slots[id];

	if (!s->array) {
		/* One first job allocates at a time: several heap growths at once (kernel spin
		 * locks, interrupts masked) stopped every hart under icount (docs/coloring.md).
		 * A waiter sleeps, so a holder preempted on the same hart gets to finish. */
		while (__atomic_exchange_n(&wss_alloc_busy, 1u, __ATOMIC_ACQUIRE))
			pt_sleep_ns(20000);
		s->array = pt_malloc_color((uint64_t)kib * 1024u, color);
		__atomic_store_n(&wss_alloc_busy, 0u, __ATOMIC_RELEASE);
		if (!s->array) {
			pt_printf("wss_task: FAIL malloc color %u KiB %u error %d\n", color, kib,
				  pt_heap_last_error());
			return;
		}
		s->words = kib * 1024u / sizeof(uint32_t);
		s->rng = 0x9E3779B97F4A7C15ull * (id + 1u);
	}
	uint64_t sum = 0;
	if (sweep) {
		const uint32_t step = WSS_LINE_BYTES / sizeof(uint32_t);
		uint32_t pos = (uint32_t)(wss_next(&s->rng) % s->words) & ~(step - 1u);
		for (uint32_t k = 0; k < accesses; k++) {
			sum += s->array[pos];
			if (k % WSS_WRITE_EVERY == WSS_WRITE_EVERY - 1u)
				s->array[pos] = k;
			pos += step;
			if (pos >= s->words)
				pos = 0;
		}
	} else {
		for (uint32_t k = 0; k < accesses; k++) {
			uint32_t pos = (uint32_t)(wss_next(&s->rng) % s->words);
			sum += s->array[pos];
			if (k % WSS_WRITE_EVERY == WSS_WRITE_EVERY - 1u)
				s->array[pos] = k;
		}
	}
	wss_task_sink += sum;
}
