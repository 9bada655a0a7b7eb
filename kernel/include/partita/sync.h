/*
 * Semaphores, mutexes with priority inheritance, message queues. Objects are named by small
 * integer ids. Kernel code may place them statically (PT_*_DEFINE + pt_*_init, no pool);
 * everyone may create them from static pools (pt_*_create). Waiters are queued by
 * priority, FIFO among equals; timeouts are relative, in ns (PT_WAIT_FOREVER, PT_NO_WAIT).
 */
#ifndef PARTITA_SYNC_H
#define PARTITA_SYNC_H

#include <stdint.h>
#include <partita/list.h>
#include <partita/api.h>
#include <partita/limits.h> /* PT_MAX_SEMS, PT_MAX_MUTEXES, PT_MAX_MQS, PT_MQ_POOL_BYTES */

enum pt_obj_kind { PT_OBJ_SEM = 1, PT_OBJ_MUTEX = 2, PT_OBJ_MQ = 3, PT_OBJ_SLEEP = 4 };

struct pt_waitq {
	struct pt_list head; /* struct pt_thread.wait_node, by priority then FIFO */
};

struct pt_sem {
	struct pt_waitq wq;
	uint32_t count, max;
	int32_t id;          /* slot | generation (never reused: kernel/sync/objects.h) */
	uint16_t owner_part; /* creating partition (user objects are private to it) */
};

struct pt_mutex {
	struct pt_waitq wq;
	struct pt_thread *owner;
	struct pt_list owned_node; /* in owner's list of held mutexes */
	uint32_t depth;            /* recursive locks by the owner */
	int32_t id;          /* slot | generation (never reused: kernel/sync/objects.h) */
	uint16_t owner_part;
	uint8_t owner_died; /* freed by a cut-off owner: the next lock returns PT_EOWNERDEAD */
};

struct pt_mq {
	struct pt_waitq senders, receivers;
	uint8_t *buf;
	uint32_t msg_bytes, capacity, head, count;
	int32_t id;          /* slot | generation (never reused: kernel/sync/objects.h) */
	uint16_t owner_part;
};

#define PT_SEM_DEFINE(name) struct pt_sem name
#define PT_MUTEX_DEFINE(name) struct pt_mutex name
#define PT_MQ_DEFINE(name, msg_bytes, capacity) \
	static uint8_t name##_buf[(msg_bytes) * (capacity)]; struct pt_mq name

/* Kernel-only: register statically allocated objects; return their id. */
int pt_sem_init(struct pt_sem *s, uint32_t initial, uint32_t max);
int pt_mutex_init(struct pt_mutex *m);
int pt_mq_init(struct pt_mq *q, void *buf, uint32_t msg_bytes, uint32_t capacity);

int pt_sem_create(uint32_t initial, uint32_t max);
int pt_sem_take(int id, uint64_t timeout_ns);
int pt_sem_give(int id);
/* Delete: every waiter returns PT_EDELETED; the id is then invalid (PT_EINVAL) until a later
 * create reuses it. Only the creating partition may delete (PT_EPERM; kernel objects, usable
 * by every partition, only kernel threads). A locked mutex is not deleted
 * (PT_ESTATE). A deleted queue's storage is kept for the next queue that fits in it. */
int pt_sem_delete(int id);
/* The count now (0 while threads wait on it). */
int pt_sem_count(int id);

int pt_mutex_create(void);
int pt_mutex_lock(int id, uint64_t timeout_ns);
int pt_mutex_unlock(int id);
int pt_mutex_delete(int id);

int pt_mq_create(uint32_t msg_bytes, uint32_t capacity);
int pt_mq_send(int id, const void *msg, uint64_t timeout_ns);
int pt_mq_recv(int id, void *msg, uint64_t timeout_ns);
int pt_mq_delete(int id);
/* The other ends of a queue: send to the head (received next, ahead of every waiting
 * message), copy the head out without removing it, overwrite the one message of a queue of
 * capacity 1 (or send when it is empty; never waits: PT_EINVAL for a larger queue), and the
 * number of messages it holds. */
int pt_mq_send_front(int id, const void *msg, uint64_t timeout_ns);
int pt_mq_peek(int id, void *msg, uint64_t timeout_ns);
int pt_mq_overwrite(int id, const void *msg);
int pt_mq_count(int id);

#endif
