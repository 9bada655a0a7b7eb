/*
 * Table I of the scheduler-offload paper for the FreeRTOS API on Partita (`make bench`,
 * docs/compat.md "Cost"): the same operations and method as apps/bench/bench_ops.c (a cycle
 * reading just before the call, the next at the first instruction of the thread that runs
 * afterwards, minus the reading's own cost), made with FreeRTOS calls by FreeRTOS tasks, with
 * 1, 8, 32 and 64 threads present (apps/bench's native fillers, below the world). Lines are
 * "BENCH <op> freertos threads=N ...", parsed by tools/partita/bench/bench.py.
 */
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "semphr.h"
#include "bench/bench.h" /* apps/ is on every application's include path */

#define REPS (BENCH_WARMUP + BENCH_REPS)
#define P_LOW 1
#define P_DRIVER 3
#define P_HIGH 5

static SemaphoreHandle_t sem;
static QueueHandle_t mq;
static TaskHandle_t driver;

static void park(void *arg)
{
	(void)arg;
	for (;;)
		vTaskSuspend(NULL);
}

static void yield_peer(void *arg)
{
	(void)arg;
	bench_stop(OP_YIELD);
	for (;;) {
		bench_start();
		taskYIELD();
		bench_stop(OP_YIELD);
	}
}

static void created_high(void *arg)
{
	(void)arg;
	bench_stop(OP_CREATE_D);
	bench_start();
	vTaskDelete(NULL);
}

/* resumed / raised above the driver: samples at its first instruction, then steps back */
static void high_peer(void *arg)
{
	enum bench_op op = (enum bench_op)(uintptr_t)arg;
	for (;;) {
		vTaskSuspend(NULL);
		bench_stop(op);
	}
}

static void setprio_peer(void *arg)
{
	(void)arg;
	for (;;) {
		bench_stop(OP_SETPRIO_D);
		vTaskPrioritySet(NULL, P_LOW); /* back below the driver */
	}
}

/* runs when the driver suspends itself: samples, resumes the driver */
static void low_resumer(void *arg)
{
	(void)arg;
	for (;;) {
		bench_stop(OP_SUSPEND_D);
		vTaskResume(driver);
	}
}

static void sem_waiter(void *arg)
{
	(void)arg;
	for (;;) {
		xSemaphoreTake(sem, portMAX_DELAY);
		bench_stop(OP_SEM_D);
	}
}

static void mq_waiter(void *arg)
{
	(void)arg;
	uint64_t v;
	for (;;) {
		xQueueReceive(mq, &v, portMAX_DELAY);
		bench_stop(OP_MQ_D);
	}
}

static void run_ops(void)
{
	TaskHandle_t h;
	/* yield */
	xTaskCreate(yield_peer, "y", configMINIMAL_STACK_SIZE, NULL, P_DRIVER, &h);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		taskYIELD();
		bench_stop(OP_YIELD);
	}
	vTaskDelete(h);
	/* create / delete, no dispatch */
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		xTaskCreate(park, "n", configMINIMAL_STACK_SIZE, NULL, P_LOW, &h);
		bench_stop(OP_CREATE);
		bench_settle();
		bench_start();
		vTaskDelete(h);
		bench_stop(OP_DELETE);
	}
	/* create with dispatch; the new task deletes itself (delete with dispatch) */
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		xTaskCreate(created_high, "h", configMINIMAL_STACK_SIZE, NULL, P_HIGH, NULL);
		bench_stop(OP_DELETE_D);
	}
	/* suspend / resume of a lower-priority task, no dispatch */
	xTaskCreate(park, "l", configMINIMAL_STACK_SIZE, NULL, P_LOW, &h);
	vTaskResume(h);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		vTaskSuspend(h);
		bench_stop(OP_SUSPEND);
		bench_settle();
		bench_start();
		vTaskResume(h);
		bench_stop(OP_RESUME);
	}
	/* set priority, no dispatch: the low task between two low levels */
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		vTaskPrioritySet(h, (i & 1) ? P_LOW : P_LOW + 1);
		bench_stop(OP_SETPRIO);
	}
	vTaskDelete(h);
	/* resume with dispatch: a suspended higher-priority task */
	xTaskCreate(high_peer, "r", configMINIMAL_STACK_SIZE, (void *)(uintptr_t)OP_RESUME_D,
		    P_HIGH, &h);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		vTaskResume(h);
	}
	vTaskDelete(h);
	/* set priority with dispatch: a low task raised above the driver */
	/* (it first runs when first raised: that sample, its entry, is a warm-up one; it never
	 * runs at P_LOW, as the driver never blocks while it exists) */
	xTaskCreate(setprio_peer, "p", configMINIMAL_STACK_SIZE, NULL, P_LOW, &h);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		vTaskPrioritySet(h, P_HIGH);
	}
	vTaskDelete(h);
	/* suspend with dispatch: the driver suspends itself, a lower task runs */
	xTaskCreate(low_resumer, "s", configMINIMAL_STACK_SIZE, NULL, P_LOW, &h);
	vTaskSuspend(h);
	for (int i = 0; i < REPS; i++) {
		vTaskResume(h);
		bench_settle();
		bench_start();
		vTaskSuspend(NULL);
		vTaskSuspend(h);
	}
	vTaskDelete(h);
	/* semaphore give and queue send waking a higher-priority waiter */
	xTaskCreate(sem_waiter, "w", configMINIMAL_STACK_SIZE, NULL, P_HIGH, &h);
	for (int i = 0; i < REPS; i++) {
		bench_settle();
		bench_start();
		xSemaphoreGive(sem);
	}
	vTaskDelete(h);
	xTaskCreate(mq_waiter, "q", configMINIMAL_STACK_SIZE, NULL, P_HIGH, &h);
	for (int i = 0; i < REPS; i++) {
		uint64_t v = (uint64_t)i;
		bench_settle();
		bench_start();
		xQueueSend(mq, &v, 0);
	}
	vTaskDelete(h);
}

static const enum bench_op ops[] = {
	OP_YIELD, OP_CREATE, OP_CREATE_D, OP_DELETE, OP_DELETE_D, OP_SUSPEND, OP_SUSPEND_D,
	OP_RESUME, OP_RESUME_D, OP_SETPRIO, OP_SETPRIO_D, OP_SEM_D, OP_MQ_D,
};

static void driver_task(void *arg)
{
	(void)arg;
	bench.variant_user = 2; /* "freertos" in the report lines */
	bench_measure_overhead();
	for (unsigned i = 0; i < BENCH_NCOUNTS; i++) {
		bench_fillers_grow(bench_thread_counts[i], -1, -1);
		bench_reset();
		run_ops();
		for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++)
			bench_report(ops[k], bench_thread_counts[i]);
	}
	bench_fillers_clear();
	pt_usay("BENCH-END\n");
	vTaskSuspend(NULL);
}

int main(void)
{
	sem = xSemaphoreCreateBinary();
	mq = xQueueCreate(4, sizeof(uint64_t));
	xTaskCreate(driver_task, "bench", configMINIMAL_STACK_SIZE, NULL, P_DRIVER, &driver);
	vTaskStartScheduler();
	return 0;
}
