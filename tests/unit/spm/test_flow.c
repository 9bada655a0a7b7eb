/* Host unit tests of I/O flows and mirror buffers (subsys/io/flow.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <partita/io_flow.h>

static uint64_t mem[4][PT_IO_MBUF_BYTES(3, 64) / 8 + 1];

static void test_overwrite_keeps_newest(void **st)
{
	(void)st;
	struct pt_io_mbuf *m = (struct pt_io_mbuf *)mem[0];
	pt_io_mbuf_init(m, 2, 64);
	assert_true(pt_io_mbuf_put(m, PT_IO_OVERWRITE, "a", 1));
	assert_true(pt_io_mbuf_put(m, PT_IO_OVERWRITE, "bb", 2));
	assert_false(pt_io_mbuf_put(m, PT_IO_OVERWRITE, "ccc", 3));
	assert_int_equal(m->count, 2);
	assert_int_equal(m->drops, 1);
	uint32_t len;
	uint8_t *p = pt_io_mbuf_entry(m, 0, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(p, "bb", 2);
	p = pt_io_mbuf_entry(m, 1, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(p, "ccc", 3);
	assert_null(pt_io_mbuf_entry(m, 2, &len));
}

static void test_queue_drops_arrival(void **st)
{
	(void)st;
	struct pt_io_mbuf *m = (struct pt_io_mbuf *)mem[0];
	pt_io_mbuf_init(m, 1, 64);
	assert_true(pt_io_mbuf_put(m, PT_IO_QUEUE, "old", 3));
	assert_false(pt_io_mbuf_put(m, PT_IO_QUEUE, "new", 3));
	uint32_t len;
	assert_memory_equal(pt_io_mbuf_entry(m, 0, &len), "old", 3);
	assert_int_equal(m->drops, 1);
	pt_io_mbuf_clear(m);
	assert_int_equal(m->count, 0);
}

static void test_truncates_to_slot(void **st)
{
	(void)st;
	struct pt_io_mbuf *m = (struct pt_io_mbuf *)mem[0];
	char big[100];
	memset(big, 7, sizeof big);
	pt_io_mbuf_init(m, 1, 64);
	pt_io_mbuf_put(m, PT_IO_QUEUE, big, sizeof big);
	uint32_t len;
	pt_io_mbuf_entry(m, 0, &len);
	assert_int_equal(len, 64);
}

static void test_dispatch_by_flow(void **st)
{
	(void)st;
	struct pt_io_mbuf *mir[4];
	for (int i = 0; i < 4; i++) {
		mir[i] = (struct pt_io_mbuf *)mem[i];
		pt_io_mbuf_init(mir[i], 1, 64);
	}
	mir[3] = NULL; /* task 3 has no input mirror */
	const struct pt_io_sub subs[] = { { 0, 1, PT_IO_OVERWRITE, 0 }, { 1, 2, PT_IO_OVERWRITE, 0 },
					  { 2, 1, PT_IO_QUEUE, 0 }, { 3, 1, PT_IO_QUEUE, 0 } };
	uint8_t pkt[8] = { 1, 0, 0, 0, 'x', 'y', 'z', 'w' };
	assert_int_equal(pt_io_flow_of(pkt, sizeof pkt), 1);
	uint32_t dropped;
	assert_int_equal(pt_io_dispatch(subs, 4, mir, 1, pkt, sizeof pkt, &dropped), 2);
	assert_int_equal(dropped, 0);
	assert_int_equal(mir[0]->count, 1);
	assert_int_equal(mir[1]->count, 0);
	assert_int_equal(mir[2]->count, 1);
	assert_int_equal(pt_io_dispatch(subs, 4, mir, 1, pkt, sizeof pkt, &dropped), 2);
	assert_int_equal(dropped, 2); /* overwrite counts the lost oldest, queue the arrival */
	assert_int_equal(pt_io_flow_of(pkt, 3), 0xffff);
}

/* A subscription's bounded queue refuses the arrival when its depth entries are still in the
 * mirror (never overwrites), counts the loss for that (task, flow) only, and accepts again once
 * the mirror was handed over with a load. */
static void test_bounded_queue_refuses_and_counts_per_flow(void **st)
{
	(void)st;
	struct pt_io_mbuf *mir[2] = { (struct pt_io_mbuf *)mem[0], (struct pt_io_mbuf *)mem[1] };
	pt_io_mbuf_init(mir[0], 3, 16); /* task 0: flows 5 (depth 2) and 6 (depth 1) */
	pt_io_mbuf_init(mir[1], 1, 16); /* task 1: flow 6 (depth 1) */
	const struct pt_io_sub subs[] = { { 0, 5, PT_IO_QUEUE, 2 }, { 0, 6, PT_IO_QUEUE, 1 },
					  { 1, 6, PT_IO_QUEUE, 1 } };
	struct pt_io_sub_state st3[3] = { { 0, 0 } };
	uint8_t a[8] = { 5, 0, 0, 0, 'a' }, b[8] = { 5, 0, 0, 0, 'b' }, c[8] = { 5, 0, 0, 0, 'c' };
	uint8_t f6[8] = { 6, 0, 0, 0, 'x' };
	uint32_t dropped, mask;
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 5, a, 8, &dropped, &mask), 1);
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 5, b, 8, &dropped, &mask), 1);
	assert_int_equal(dropped, 0);
	/* flow 5's queue (depth 2) is full although the mirror has a free entry */
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 5, c, 8, &dropped, &mask), 1);
	assert_int_equal(dropped, 1);
	assert_int_equal(mask, 1u);
	assert_int_equal(st3[0].drops, 1);
	assert_int_equal(mir[0]->count, 2);
	uint32_t len;
	assert_int_equal(pt_io_mbuf_entry(mir[0], 0, &len)[4], 'a'); /* kept, not overwritten */
	assert_int_equal(pt_io_mbuf_entry(mir[0], 1, &len)[4], 'b');
	/* flow 6 still fits task 0's third entry and task 1's only one */
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 6, f6, 8, &dropped, &mask), 2);
	assert_int_equal(dropped, 0);
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 6, f6, 8, &dropped, &mask), 2);
	assert_int_equal(dropped, 2);
	assert_int_equal(mask, 6u);
	assert_int_equal(st3[0].drops, 1);
	assert_int_equal(st3[1].drops, 1);
	assert_int_equal(st3[2].drops, 1);
	/* task 0 loaded: its queues are empty again, task 1's stays full */
	pt_io_mbuf_clear(mir[0]);
	pt_io_subs_emptied(subs, st3, 3, 0);
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 5, c, 8, &dropped, &mask), 1);
	assert_int_equal(dropped, 0);
	assert_int_equal(pt_io_dispatch_bounded(subs, st3, 3, mir, 6, f6, 8, &dropped, &mask), 2);
	assert_int_equal(dropped, 1);
	assert_int_equal(mask, 4u);
	assert_int_equal(st3[2].drops, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overwrite_keeps_newest),
		cmocka_unit_test(test_queue_drops_arrival),
		cmocka_unit_test(test_truncates_to_slot),
		cmocka_unit_test(test_dispatch_by_flow),
		cmocka_unit_test(test_bounded_queue_refuses_and_counts_per_flow),
	};
	return cmocka_run_group_tests_name("io_flow", tests, NULL, NULL);
}
