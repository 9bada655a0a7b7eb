/*
 * Workload of the kernel-data coloring test (test_sys_kdata.py): periodic jobs that use their
 * stack and a semaphore, so thread control blocks, kernel stacks, the sync pools and the
 * per-cpu data are all in use while the host later checks where they lie.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>
#include <partita/sync.h>

volatile uint64_t kd_sink;

void kd_job(void *arg)
{
	static int sem; /* per partition: each user partition has its own copy of the globals */
	volatile uint32_t buf[256];
	(void)arg;
	if (!sem)
		sem = pt_sem_create(1, 1);
	if (sem > 0 && pt_sem_take(sem, 0) == PT_OK)
		pt_sem_give(sem);
	for (uint32_t i = 0; i < 256; i++)
		buf[i] = i * 3u;
	uint64_t sum = 0;
	for (uint32_t i = 0; i < 256; i++)
		sum += buf[i];
	kd_sink += sum;
}
