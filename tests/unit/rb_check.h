/* Red-black tree checker shared by the EDF and G-EDF tests. */
#ifndef PARTITA_TESTS_RB_CHECK_H
#define PARTITA_TESTS_RB_CHECK_H

#include "test_util.h"
#include "sched/edf/edf_rq.h"

/* Returns the black height; checks order bounds, colors and parent links; counts nodes. */
static int rb_check_node(const struct pt_sched_entity *n, const struct pt_sched_entity *parent,
			 const struct pt_sched_entity *lo, const struct pt_sched_entity *hi,
			 unsigned *count, unsigned depth, unsigned *max_depth)
{
	int lh, rh;

	if (!n)
		return 1;
	(*count)++;
	if (depth > *max_depth)
		*max_depth = depth;
	assert_ptr_equal(n->parent, parent);
	assert_true(n->rb_color == 0 || n->rb_color == 1);
	assert_int_equal(n->on_rq, 1);
	if (lo)
		assert_true(pt_edf_key_cmp(lo, n) < 0);
	if (hi)
		assert_true(pt_edf_key_cmp(n, hi) < 0);
	if (n->rb_color == 0) { /* red: both children black */
		assert_true(!n->left || n->left->rb_color == 1);
		assert_true(!n->right || n->right->rb_color == 1);
	}
	lh = rb_check_node(n->left, n, lo, n, count, depth + 1, max_depth);
	rh = rb_check_node(n->right, n, n, hi, count, depth + 1, max_depth);
	assert_int_equal(lh, rh);
	return lh + (n->rb_color == 1);
}

/* Full check of one ready tree; returns its height. */
static inline unsigned rb_check(const struct pt_edf_rq *rq)
{
	unsigned count = 0, height = 0;
	const struct pt_sched_entity *m = rq->root;

	if (rq->root) {
		assert_int_equal(rq->root->rb_color, 1);
		rb_check_node(rq->root, NULL, NULL, NULL, &count, 1, &height);
		while (m->left)
			m = m->left;
	}
	assert_int_equal(count, rq->count);
	assert_ptr_equal(rq->first, rq->root ? m : NULL);
	/* red-black bound */
	assert_true(height <= 2 * log2_ceil((uint64_t)count + 1) + (count ? 1 : 0));
	return height;
}

#endif
