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
	const struct pt_io_sub subs[] = { { 0, 1, PT_IO_OVERWRITE }, { 1, 2, PT_IO_OVERWRITE },
					  { 2, 1, PT_IO_QUEUE }, { 3, 1, PT_IO_QUEUE } };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overwrite_keeps_newest),
		cmocka_unit_test(test_queue_drops_arrival),
		cmocka_unit_test(test_truncates_to_slot),
		cmocka_unit_test(test_dispatch_by_flow),
	};
	return cmocka_run_group_tests_name("io_flow", tests, NULL, NULL);
}
