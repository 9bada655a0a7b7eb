/*
 * Example for docs/user-guide.md ("Use a semaphore or a queue"): a periodic producer sends a
 * sequence number through a message queue to an aperiodic consumer, which prints what it
 * receives; a semaphore counts the messages the consumer has handled so that the producer
 * can tell how far behind it is. Both threads are in one partition: objects created by a
 * user thread belong to its partition, and so does the global holding their ids.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>
#include <partita/sync.h>

/* Created by the producer's first job; volatile: the consumer polls them from another hart. */
static volatile int queue = -1, handled = -1;

void example_producer(void *arg)
{
	static uint32_t seq;
	(void)arg;
	if (queue < 0) {
		handled = pt_sem_create(0, 1000);
		queue = pt_mq_create(sizeof(uint32_t), 4);
	}
	seq++;
	/* never block a periodic job on a full queue: drop the sample and say so */
	if (pt_mq_send(queue, &seq, PT_NO_WAIT) != PT_OK)
		pt_printf("producer: queue full, sample %u dropped\n", (unsigned)seq);
	if (seq % 4 == 0) {
		int n = 0;
		while (pt_sem_take(handled, PT_NO_WAIT) == PT_OK)
			n++;
		pt_printf("producer: consumer handled %d of the last 4\n", n);
	}
}

void example_consumer(void *arg)
{
	(void)arg;
	while (queue < 0)
		pt_sleep_ns(1000000);
	for (;;) {
		uint32_t v;
		if (pt_mq_recv(queue, &v, PT_WAIT_FOREVER) != PT_OK)
			return;
		pt_printf("consumer: got %u\n", (unsigned)v);
		pt_sem_give(handled);
	}
}
