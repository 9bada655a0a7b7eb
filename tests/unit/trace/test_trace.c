/* Trace rings: header, order, timestamps, publication after the record, drop counting. */
#include <stdlib.h>
#include <string.h>
#include "test_util.h"
#include "fake_hal.h"
#include "trace/trace.h"

static int setup(void **st)
{
	(void)st;
	fake_hal_reset();
	/* the RAM file may hold a previous run: init must not assume zeroes */
	memset(&pt_trace_area, 0xA5, sizeof pt_trace_area);
	pt_trace_area.magic = 0;
	memset(pt_trace_rings, 0, sizeof pt_trace_rings); /* kernel .bss: zero at every boot */
	return 0;
}

static void test_noop_before_init(void **st)
{
	(void)st;
	pt_trace_area.ring[0].head = 0;
	pt_trace_emit(PT_EV_MARK, 1, 2, 3);
	assert_int_equal(pt_trace_area.ring[0].head, 0);
}

static void test_init_header(void **st)
{
	(void)st;
	pt_trace_init(4);
	assert_true(pt_trace_area.magic == PT_TRACE_MAGIC);
	assert_int_equal(pt_trace_area.ncpus, 4);
	assert_int_equal(pt_trace_area.rec_size, 32);
	assert_int_equal(pt_trace_area.records_per_ring, PT_TRACE_RING_RECORDS);
	assert_int_equal(pt_trace_area.cycles_per_sec, 1000000000ull);
	assert_int_equal(pt_trace_area.exit_code, 0);
	for (int c = 0; c < PT_TRACE_MAX_CPUS; c++) {
		assert_int_equal(pt_trace_area.ring[c].head, 0);
		assert_int_equal(pt_trace_area.ring[c].dropped, 0);
		assert_int_equal(pt_trace_area.ring[c].tail, 0);
		assert_int_equal(pt_trace_area.ring[c].dropped_critical, 0);
	}
	/* layout the host tools mirror */
	assert_int_equal(offsetof(struct pt_trace_area, ring), 64);
	assert_int_equal(offsetof(struct pt_trace_ring, rec), 64);
	assert_int_equal(offsetof(struct pt_trace_ring, tail), 16);
	assert_int_equal(offsetof(struct pt_trace_ring, dropped_critical), 24);
	assert_int_equal((uintptr_t)&pt_trace_area % 4096, 0);
	pt_trace_set_exit_code(3);
	assert_int_equal(pt_trace_area.exit_code, 3);
}

static void test_order_and_cpus(void **st)
{
	(void)st;
	pt_trace_init(3);
	fake_hal_set_cycles(1000);
	fake_hal_set_cycle_step(7);
	for (int k = 0; k < 300; k++) {
		fake_hal_set_cpu((uint32_t)(k % 3));
		pt_trace_emit((uint16_t)(k % 19 + 1), (uint32_t)k, (uint64_t)k * 3, ~(uint64_t)k);
	}
	for (int c = 0; c < 3; c++) {
		const struct pt_trace_ring *r = &pt_trace_area.ring[c];
		uint64_t last_ts = 0;

		assert_int_equal(r->head, 100);
		assert_int_equal(r->dropped, 0);
		for (int j = 0; j < 100; j++) {
			const struct pt_trace_rec *rec = &r->rec[j];
			int k = j * 3 + c;

			assert_int_equal(rec->cpu, c);
			assert_int_equal(rec->tid, k);
			assert_int_equal(rec->type, k % 19 + 1);
			assert_int_equal(rec->arg0, (uint64_t)k * 3);
			assert_true(rec->arg1 == ~(uint64_t)k);
			assert_int_equal(rec->ts_cycles, 1000 + 7 * (uint64_t)k); /* one read per emit */
			assert_true(rec->ts_cycles > last_ts);
			last_ts = rec->ts_cycles;
		}
	}
	assert_int_equal(pt_trace_area.ring[3].head, 0);
	assert_int_equal(fake_hal_irq_depth(), 0);
	assert_int_equal(fake_hal_irq_saves(), 300); /* every append masks interrupts */
}

/* At the fence inside emit, the record is complete and head not yet advanced. */
struct fence_probe {
	uint64_t want_head;
	uint32_t want_tid;
	int seen;
};

static void probe(void *ctx)
{
	struct fence_probe *p = ctx;
	const struct pt_trace_ring *r = &pt_trace_area.ring[1];

	if (r->head == p->want_head &&
	    r->rec[p->want_head % PT_TRACE_RING_RECORDS].tid == p->want_tid)
		p->seen++;
}

static void test_publish_after_record(void **st)
{
	(void)st;
	struct fence_probe p = { 0, 0, 0 };

	pt_trace_init(2);
	fake_hal_set_cpu(1);
	fake_hal_on_fence(probe, &p);
	for (uint32_t k = 0; k < 50; k++) {
		p.want_head = k;
		p.want_tid = 1000 + k;
		pt_trace_emit(PT_EV_DISPATCH, 1000 + k, 0, 0);
		assert_int_equal(pt_trace_area.ring[1].head, k + 1);
	}
	assert_int_equal(p.seen, 50);
	fake_hal_on_fence(NULL, NULL);
}

static void test_drop_when_full(void **st)
{
	(void)st;
	const uint64_t N = PT_TRACE_RING_RECORDS, R = PT_TRACE_RESERVE;
	struct pt_trace_ring *r = &pt_trace_area.ring[2];

	pt_trace_init(4);
	fake_hal_set_cpu(2);
	/* ordinary records stop RESERVE slots short of full */
	for (uint64_t k = 0; k < N + 25; k++)
		pt_trace_emit(PT_EV_MARK, 7, k, 0);
	assert_int_equal(r->head, N - R);
	assert_int_equal(r->dropped, R + 25);
	assert_int_equal(r->dropped_critical, 0);
	/* never overwritten: slot 0..N-R-1 still hold the first N-R */
	for (uint64_t k = 0; k < N - R; k++)
		assert_int_equal(r->rec[k].arg0, k);
	/* a live reader consumed 10: exactly 10 more ordinary ones fit */
	r->tail = 10;
	for (uint64_t k = 0; k < 12; k++)
		pt_trace_emit(PT_EV_MARK, 7, 5000 + k, 0);
	assert_int_equal(r->head, N - R + 10);
	assert_int_equal(r->dropped, R + 27);
	for (uint64_t k = 0; k < 10; k++)
		assert_int_equal(r->rec[N - R + k].arg0, 5000 + k);
	assert_int_equal(pt_trace_area.ring[0].head, 0);
	assert_int_equal(fake_hal_irq_depth(), 0);
}

/* The last RESERVE slots take DEADLINE_MISS, OVERRUN, THREAD_STOP, FAULT and SHUTDOWN only;
 * a critical record lost anyway is counted in dropped and dropped_critical. */
static void test_critical_reserve(void **st)
{
	(void)st;
	const uint64_t N = PT_TRACE_RING_RECORDS, R = PT_TRACE_RESERVE;
	static const uint16_t critical[] = { PT_EV_DEADLINE_MISS, PT_EV_OVERRUN,
					     PT_EV_THREAD_STOP, PT_EV_FAULT, PT_EV_SHUTDOWN };
	struct pt_trace_ring *r = &pt_trace_area.ring[1];

	pt_trace_init(2);
	fake_hal_set_cpu(1);
	fake_hal_set_cycles(100);
	for (uint64_t k = 0; k < N - R; k++)
		pt_trace_emit(PT_EV_DISPATCH, 3, k, 0);
	assert_int_equal(r->head, N - R);
	/* every ordinary type is refused at the reserve; every critical type gets in */
	for (uint16_t type = 1; type < PT_EV_SUBSYS_FIRST + 2; type++) {
		bool crit = false;
		for (unsigned i = 0; i < sizeof critical / sizeof critical[0]; i++)
			crit |= type == critical[i];
		uint64_t head = r->head, dropped = r->dropped;
		pt_trace_emit(type, 9, type, 0);
		if (crit) {
			assert_int_equal(r->head, head + 1);
			assert_int_equal(r->dropped, dropped);
			const struct pt_trace_rec *rec = &r->rec[head % N];
			assert_int_equal(rec->type, type);
			assert_int_equal(rec->cpu, 1);
			assert_int_equal(rec->tid, 9);
			assert_int_equal(rec->arg0, type);
			assert_true(rec->ts_cycles >= 100);
		} else {
			assert_int_equal(r->head, head);
			assert_int_equal(r->dropped, dropped + 1);
		}
	}
	assert_int_equal(r->head, N - R + 5);
	/* fill the reserve with critical records; beyond it they are lost, and counted */
	while (r->head < N)
		pt_trace_emit(PT_EV_DEADLINE_MISS, 9, 1, 2);
	uint64_t dropped = r->dropped;
	pt_trace_emit(PT_EV_FAULT, 9, 1, 2);
	pt_trace_emit(PT_EV_OVERRUN, 9, 1, 2);
	pt_trace_emit(PT_EV_MARK, 9, 1, 2);
	assert_int_equal(r->head, N);
	assert_int_equal(r->dropped, dropped + 3);
	assert_int_equal(r->dropped_critical, 2);
	/* the reserve is measured from the reader's tail: consuming frees ordinary slots again */
	r->tail = R + 1;
	pt_trace_emit(PT_EV_MARK, 9, 77, 0);
	assert_int_equal(r->head, N + 1);
	assert_int_equal(r->rec[0].arg0, 77);
	pt_trace_emit(PT_EV_MARK, 9, 78, 0);
	assert_int_equal(r->head, N + 1);
	assert_int_equal(r->dropped_critical, 2);
	assert_int_equal(pt_trace_area.ring[0].dropped_critical, 0);
	assert_int_equal(fake_hal_irq_depth(), 0);
}

static void test_cpu_out_of_range(void **st)
{
	(void)st;
	pt_trace_init(8);
	fake_hal_set_cpu(PT_TRACE_MAX_CPUS);
	pt_trace_emit(PT_EV_MARK, 1, 1, 1);
	for (int c = 0; c < PT_TRACE_MAX_CPUS; c++)
		assert_int_equal(pt_trace_area.ring[c].head, 0);
	assert_int_equal(fake_hal_irq_depth(), 0);
}

/* pt_trace_place_rings with fake pages: page k is "physical" 0x80000000 + 0x1000 * k (any
 * values do: only the directory records them); map() checks the window is filled in order. */
static uint64_t next_page, fail_at_page;
static uintptr_t window, next_va;
static uintptr_t fake_page(void)
{
	if (fail_at_page && next_page + 1 == fail_at_page)
		return 0;
	return (uintptr_t)(0x80000000u + 0x1000u * next_page++);
}
static int fake_map(uintptr_t va, uintptr_t pa)
{
	assert_int_equal(va, next_va);
	assert_int_equal(pa, 0x80000000u + 0x1000u * (next_page - 1));
	next_va += 4096;
	return 0;
}

static void test_place_rings_moves_writers_and_records(void **st)
{
	(void)st;
	const size_t ring_bytes = (size_t)PT_TRACE_RING_PAGES * 4096u;
	window = (uintptr_t)aligned_alloc(4096, 2 * ring_bytes);
	assert_non_null((void *)window);
	memset((void *)window, 0x5A, 2 * ring_bytes); /* pages are zeroed by page(): not assumed */
	next_page = fail_at_page = 0;
	next_va = window;
	pt_trace_init(2);
	fake_hal_set_cpu(0);
	pt_trace_emit(PT_EV_MARK, 7, 70, 700); /* a boot record, before the move */
	struct pt_trace_ring *old = pt_trace_rings[0];
	assert_int_equal(pt_trace_area.rings_magic, 0);
	assert_int_equal(pt_trace_place_rings(window, fake_page, fake_map), 0);
	assert_int_equal(next_page, 2 * PT_TRACE_RING_PAGES);
	assert_true(pt_trace_area.rings_magic == PT_RINGS_MAGIC);
	assert_int_equal(pt_trace_area.ring_pages, PT_TRACE_RING_PAGES);
	assert_int_equal(pt_trace_area.ring_pa[1][PT_TRACE_RING_PAGES - 1],
			 0x80000000u + 0x1000u * (2 * PT_TRACE_RING_PAGES - 1));
	struct pt_trace_ring *r0 = (struct pt_trace_ring *)window;
	struct pt_trace_ring *r1 = (struct pt_trace_ring *)(window + ring_bytes);
	assert_ptr_equal(pt_trace_rings[0], r0);
	assert_ptr_equal(pt_trace_rings[1], r1);
	/* the boot record came along; the header too */
	assert_int_equal(r0->head, 1);
	assert_int_equal(r0->tail, 0);
	assert_int_equal(r0->dropped, 0);
	assert_int_equal(r0->rec[0].tid, 7);
	assert_int_equal(r0->rec[0].arg1, 700);
	assert_int_equal(r1->head, 0);
	/* writers use the new rings; the in-image ring stays as it was */
	fake_hal_set_cpu(1);
	pt_trace_emit(PT_EV_MARK, 8, 80, 800);
	assert_int_equal(r1->head, 1);
	assert_int_equal(r1->rec[0].arg0, 80);
	assert_int_equal(old->head, 1);
	assert_int_equal(pt_trace_area.ring[1].head, 0);
	free((void *)window);
}

static void test_place_rings_out_of_pages_keeps_the_image_rings(void **st)
{
	(void)st;
	window = (uintptr_t)aligned_alloc(4096, (size_t)PT_TRACE_RING_PAGES * 4096u * 2);
	next_page = 0;
	fail_at_page = PT_TRACE_RING_PAGES + 3; /* the second ring runs out */
	next_va = window;
	pt_trace_init(2);
	assert_int_equal(pt_trace_place_rings(window, fake_page, fake_map), -1);
	assert_int_equal(pt_trace_area.rings_magic, 0);
	assert_ptr_equal(pt_trace_rings[0], &pt_trace_area.ring[0]);
	assert_ptr_equal(pt_trace_rings[1], &pt_trace_area.ring[1]);
	free((void *)window);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_noop_before_init, setup),
		cmocka_unit_test_setup(test_init_header, setup),
		cmocka_unit_test_setup(test_order_and_cpus, setup),
		cmocka_unit_test_setup(test_publish_after_record, setup),
		cmocka_unit_test_setup(test_drop_when_full, setup),
		cmocka_unit_test_setup(test_critical_reserve, setup),
		cmocka_unit_test_setup(test_cpu_out_of_range, setup),
		cmocka_unit_test_setup(test_place_rings_moves_writers_and_records, setup),
		cmocka_unit_test_setup(test_place_rings_out_of_pages_keeps_the_image_rings, setup),
	};
	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
