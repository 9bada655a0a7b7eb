/*
 * Colored-heap micro-benchmark (`make bench`, apps/bench/configs/bench-heap.yaml): cycles of
 * pt_malloc and of pt_free for the common sizes, in the steady state (the size's slab or run
 * exists; each repetition allocates and frees one block), from a kernel thread (direct call)
 * and from a user thread (ecall). Same method as bench.h: rdcycle around the call minus the
 * cost of two back-to-back readings; one hart under icount shift 0, so cycles = instructions
 * and min = max when the path is constant. Output, parsed by tools/partita/bench.py:
 *   BENCH-HEAP <malloc|free> <kernel|user> bytes=<n> min=<c> max=<c> n=<reps>
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/heap.h>

#include "bench.h"

#define HEAPB_REPS 16
static const uint32_t heapb_sizes[] = { 16, 64, 256, 1024, 2048, 8192 };

static void heapb_line(const char *op, int user, uint32_t bytes, uint64_t mn, uint64_t mx)
{
	char b[128];
	int n = 0;
	pt_ufmt_str(b, &n, "BENCH-HEAP ");
	pt_ufmt_str(b, &n, op);
	pt_ufmt_str(b, &n, user ? " user bytes=" : " kernel bytes=");
	pt_ufmt_u64(b, &n, bytes);
	pt_ufmt_str(b, &n, " min=");
	pt_ufmt_u64(b, &n, mn);
	pt_ufmt_str(b, &n, " max=");
	pt_ufmt_u64(b, &n, mx);
	pt_ufmt_str(b, &n, " n=");
	pt_ufmt_u64(b, &n, HEAPB_REPS);
	b[n++] = '\n';
	pt_console_write(b, (size_t)n);
}

void heapb_main(void *arg)
{
	int user = arg != 0;
	uint64_t ovh = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = bench_now(), b = bench_now();
		ovh = b - a < ovh ? b - a : ovh;
	}
	for (unsigned s = 0; s < sizeof heapb_sizes / sizeof heapb_sizes[0]; s++) {
		uint64_t amin = UINT64_MAX, amax = 0, fmin = UINT64_MAX, fmax = 0;
		for (int r = 0; r < BENCH_WARMUP + HEAPB_REPS; r++) {
			bench_settle();
			uint64_t t0 = bench_now();
			void *p = pt_malloc(heapb_sizes[s]);
			uint64_t t1 = bench_now();
			int err = pt_free(p);
			uint64_t t2 = bench_now();
			if (!p || err) {
				pt_usay("BENCH-ERROR heap malloc/free failed\n");
				return;
			}
			if (r < BENCH_WARMUP)
				continue; /* the first allocation of a size maps its page */
			uint64_t a = t1 - t0 - ovh, f = t2 - t1 - ovh;
			amin = a < amin ? a : amin;
			amax = a > amax ? a : amax;
			fmin = f < fmin ? f : fmin;
			fmax = f > fmax ? f : fmax;
		}
		heapb_line("malloc", user, heapb_sizes[s], amin, amax);
		heapb_line("free", user, heapb_sizes[s], fmin, fmax);
	}
}

/* Runs after both drivers (lower priority): the end marker the host waits for. */
void heapb_end(void *arg)
{
	(void)arg;
	pt_usay("BENCH-END\n");
}
