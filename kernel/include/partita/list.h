/* Intrusive doubly linked circular lists. Every operation is O(1). */
#ifndef PARTITA_LIST_H
#define PARTITA_LIST_H

#include <stddef.h>
#include <stdbool.h>

struct pt_list {
	struct pt_list *next, *prev;
};

#define PT_LIST_INIT(name) { &(name), &(name) }
#define pt_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void pt_list_init(struct pt_list *l) { l->next = l->prev = l; }
static inline bool pt_list_empty(const struct pt_list *l) { return l->next == l; }
/* A node that is not on any list points to itself (after pt_list_init/pt_list_del). */
static inline bool pt_list_linked(const struct pt_list *n) { return n->next != n; }

static inline void pt_list_insert_between(struct pt_list *n, struct pt_list *prev,
					  struct pt_list *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}
static inline void pt_list_add_tail(struct pt_list *head, struct pt_list *n)
{
	pt_list_insert_between(n, head->prev, head);
}
static inline void pt_list_add_head(struct pt_list *head, struct pt_list *n)
{
	pt_list_insert_between(n, head, head->next);
}
static inline void pt_list_del(struct pt_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}
#define pt_list_first(head, type, member) \
	(pt_list_empty(head) ? (type *)0 : pt_container_of((head)->next, type, member))
#define pt_list_for_each(pos, head) \
	for (struct pt_list *pos = (head)->next; pos != (head); pos = pos->next)

#endif
