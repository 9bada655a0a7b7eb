/*
 * Red-black tree for the EDF ready structures (see edf_rq.h). Leaves are NULL; a NULL child
 * counts as black. Invariants (checked by tests/unit/sched/test_edf.c after every operation):
 *   1. in-order traversal is strictly increasing in (abs_deadline, seq, tid);
 *   2. the root is black; a red node has no red child;
 *   3. every root-to-leaf path has the same number of black nodes  => height <= 2 log2(n+1);
 *   4. parent links are consistent; `first` is the minimum (NULL iff empty); `count` = nodes.
 */
#include "edf_rq.h"

#define RB_RED 0
#define RB_BLACK 1

#ifdef PT_SCHED_COUNT_STEPS
uint64_t pt_edf_steps;
#define STEP() (pt_edf_steps++)
#else
#define STEP() ((void)0)
#endif

typedef struct pt_sched_entity node_t;

static inline int color_of(const node_t *n) { return n ? n->rb_color : RB_BLACK; }

void pt_edf_rq_init(struct pt_edf_rq *rq)
{
	rq->root = 0;
	rq->first = 0;
	rq->count = 0;
}

static void rotate_left(struct pt_edf_rq *rq, node_t *x)
{
	node_t *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	if (!x->parent)
		rq->root = y;
	else if (x == x->parent->left)
		x->parent->left = y;
	else
		x->parent->right = y;
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct pt_edf_rq *rq, node_t *x)
{
	node_t *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	if (!x->parent)
		rq->root = y;
	else if (x == x->parent->right)
		x->parent->right = y;
	else
		x->parent->left = y;
	y->right = x;
	x->parent = y;
}

static void insert_fixup(struct pt_edf_rq *rq, node_t *z)
{
	node_t *p, *g, *u;

	while ((p = z->parent) != 0 && p->rb_color == RB_RED) {
		STEP();
		g = p->parent; /* exists: a red node is never the root */
		if (p == g->left) {
			u = g->right;
			if (color_of(u) == RB_RED) {
				p->rb_color = RB_BLACK;
				u->rb_color = RB_BLACK;
				g->rb_color = RB_RED;
				z = g;
				continue;
			}
			if (z == p->right) {
				rotate_left(rq, p);
				z = p;
				p = z->parent;
			}
			p->rb_color = RB_BLACK;
			g->rb_color = RB_RED;
			rotate_right(rq, g);
		} else {
			u = g->left;
			if (color_of(u) == RB_RED) {
				p->rb_color = RB_BLACK;
				u->rb_color = RB_BLACK;
				g->rb_color = RB_RED;
				z = g;
				continue;
			}
			if (z == p->left) {
				rotate_right(rq, p);
				z = p;
				p = z->parent;
			}
			p->rb_color = RB_BLACK;
			g->rb_color = RB_RED;
			rotate_left(rq, g);
		}
	}
	rq->root->rb_color = RB_BLACK;
}

void pt_edf_rq_insert(struct pt_edf_rq *rq, node_t *e)
{
	node_t **link = &rq->root, *parent = 0;
	bool leftmost = true;

	while (*link) {
		STEP();
		parent = *link;
		if (pt_edf_key_cmp(e, parent) < 0) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	e->parent = parent;
	e->left = e->right = 0;
	e->rb_color = RB_RED;
	*link = e;
	if (leftmost)
		rq->first = e;
	insert_fixup(rq, e);
	rq->count++;
	e->on_rq = 1;
}

static node_t *minimum(node_t *n)
{
	while (n->left) {
		STEP();
		n = n->left;
	}
	return n;
}

node_t *pt_edf_rq_next(const node_t *e)
{
	const node_t *p;

	if (e->right)
		return minimum(e->right);
	p = e->parent;
	while (p && e == p->right) {
		STEP();
		e = p;
		p = p->parent;
	}
	return (node_t *)p;
}

node_t *pt_edf_rq_root_of(node_t *e)
{
	while (e->parent) {
		STEP();
		e = e->parent;
	}
	return e;
}

/* Put v where u was (v may be NULL). */
static void transplant(struct pt_edf_rq *rq, node_t *u, node_t *v)
{
	if (!u->parent)
		rq->root = v;
	else if (u == u->parent->left)
		u->parent->left = v;
	else
		u->parent->right = v;
	if (v)
		v->parent = u->parent;
}

/* x (possibly NULL) under parent xp carries an extra black; push it up or absorb it. */
static void remove_fixup(struct pt_edf_rq *rq, node_t *x, node_t *xp)
{
	node_t *w;

	while (x != rq->root && color_of(x) == RB_BLACK) {
		STEP();
		if (x == xp->left) {
			w = xp->right; /* non-NULL: its side has black height >= 1 */
			if (w->rb_color == RB_RED) {
				w->rb_color = RB_BLACK;
				xp->rb_color = RB_RED;
				rotate_left(rq, xp);
				w = xp->right;
			}
			if (color_of(w->left) == RB_BLACK && color_of(w->right) == RB_BLACK) {
				w->rb_color = RB_RED;
				x = xp;
				xp = x->parent;
			} else {
				if (color_of(w->right) == RB_BLACK) {
					w->left->rb_color = RB_BLACK;
					w->rb_color = RB_RED;
					rotate_right(rq, w);
					w = xp->right;
				}
				w->rb_color = xp->rb_color;
				xp->rb_color = RB_BLACK;
				w->right->rb_color = RB_BLACK;
				rotate_left(rq, xp);
				x = rq->root;
				xp = 0;
			}
		} else {
			w = xp->left;
			if (w->rb_color == RB_RED) {
				w->rb_color = RB_BLACK;
				xp->rb_color = RB_RED;
				rotate_right(rq, xp);
				w = xp->left;
			}
			if (color_of(w->left) == RB_BLACK && color_of(w->right) == RB_BLACK) {
				w->rb_color = RB_RED;
				x = xp;
				xp = x->parent;
			} else {
				if (color_of(w->left) == RB_BLACK) {
					w->right->rb_color = RB_BLACK;
					w->rb_color = RB_RED;
					rotate_left(rq, w);
					w = xp->left;
				}
				w->rb_color = xp->rb_color;
				xp->rb_color = RB_BLACK;
				w->left->rb_color = RB_BLACK;
				rotate_right(rq, xp);
				x = rq->root;
				xp = 0;
			}
		}
	}
	if (x)
		x->rb_color = RB_BLACK;
}

void pt_edf_rq_remove(struct pt_edf_rq *rq, node_t *z)
{
	node_t *y = z, *x, *xp;
	int y_color = y->rb_color;

	if (rq->first == z)
		rq->first = pt_edf_rq_next(z);
	if (!z->left) {
		x = z->right;
		xp = z->parent;
		transplant(rq, z, z->right);
	} else if (!z->right) {
		x = z->left;
		xp = z->parent;
		transplant(rq, z, z->left);
	} else {
		y = minimum(z->right);
		y_color = y->rb_color;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			transplant(rq, y, y->right);
			y->right = z->right;
			y->right->parent = y;
		}
		transplant(rq, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->rb_color = z->rb_color;
	}
	if (y_color == RB_BLACK)
		remove_fixup(rq, x, xp);
	z->left = z->right = z->parent = 0;
	z->on_rq = 0;
	rq->count--;
}

int pt_edf_preempt_cpu(const struct pt_sched *s, const struct pt_sched_entity *e, bool honour_pin)
{
	uint32_t mask = s->cpu_mask & ((1u << PT_MAX_CPUS) - 1);
	int worst = -1;

	if (honour_pin && e->pinned_cpu >= 0) {
		if (e->pinned_cpu >= PT_MAX_CPUS)
			return -1;
		mask &= 1u << e->pinned_cpu;
	}
	for (int c = 0; c < PT_MAX_CPUS; c++)
		if ((mask >> c & 1) && !s->running[c])
			return c;
	for (int c = 0; c < PT_MAX_CPUS; c++) {
		if (!(mask >> c & 1))
			continue;
		/* strictly later only: on equal keys the lower index stays the choice */
		if (worst < 0 || pt_edf_key_cmp(s->running[c], s->running[worst]) > 0)
			worst = c;
	}
	if (worst >= 0 && e->abs_deadline < s->running[worst]->abs_deadline)
		return worst;
	return -1;
}
