/*
 * Counting semaphores (in the style of FreeRTOS's countsem.c): one semaphore created full
 * and one empty; each task takes its semaphore down to 0 and gives it back up to its maximum,
 * checking every result and uxSemaphoreGetCount, then delays. A binary semaphore's take
 * times out after exactly its block time.
 */
#include "frtest.h"
#include "semphr.h"

#define MAX_COUNT 7

static SemaphoreHandle_t sems[2];
static volatile unsigned long cycles, sem_errors;
static unsigned long last_cycles;
static StaticSemaphore_t static_sem;

static void take_all(SemaphoreHandle_t s)
{
	for (UBaseType_t i = MAX_COUNT; i > 0; i--) {
		if (uxSemaphoreGetCount(s) != i || xSemaphoreTake(s, 0) != pdPASS)
			sem_errors++;
	}
	if (uxSemaphoreGetCount(s) != 0 || xSemaphoreTake(s, 0) != pdFAIL)
		sem_errors++;
}

static void give_all(SemaphoreHandle_t s)
{
	for (UBaseType_t i = 0; i < MAX_COUNT; i++) {
		if (uxSemaphoreGetCount(s) != i || xSemaphoreGive(s) != pdPASS)
			sem_errors++;
	}
	if (uxSemaphoreGetCount(s) != MAX_COUNT || xSemaphoreGive(s) != pdFAIL)
		sem_errors++;
}

static void count_task(void *arg)
{
	SemaphoreHandle_t s = sems[(uintptr_t)arg];
	if ((uintptr_t)arg == 1)
		give_all(s); /* created empty */
	for (;;) {
		take_all(s);
		give_all(s);
		cycles++;
		vTaskDelay(1);
	}
}

static void binary_timeout_task(void *arg)
{
	(void)arg;
	SemaphoreHandle_t b = xSemaphoreCreateBinaryStatic(&static_sem);
	frt_check("sem_binary_starts_empty", b && xSemaphoreTake(b, 0) == pdFAIL, 0);
	vTaskDelay(1);
	TickType_t t0 = xTaskGetTickCount();
	BaseType_t r = xSemaphoreTake(b, 5);
	TickType_t dt = xTaskGetTickCount() - t0;
	frt_check("sem_take_times_out_after_block_time", r == pdFAIL && dt == 5, (long)dt);
	frt_check("sem_binary_give_take", xSemaphoreGive(b) == pdPASS && xSemaphoreGive(b) == pdFAIL &&
					  xSemaphoreTake(b, 0) == pdPASS, 0);
	vSemaphoreDelete(b);
	vTaskDelete(NULL);
}

void vStartCountingSemaphoreTasks(UBaseType_t prio)
{
	sems[0] = xSemaphoreCreateCounting(MAX_COUNT, MAX_COUNT);
	sems[1] = xSemaphoreCreateCounting(MAX_COUNT, 0);
	xTaskCreate(count_task, "CNT1", configMINIMAL_STACK_SIZE, (void *)0, prio, NULL);
	xTaskCreate(count_task, "CNT2", configMINIMAL_STACK_SIZE, (void *)1, prio, NULL);
	xTaskCreate(binary_timeout_task, "BinTO", configMINIMAL_STACK_SIZE, NULL, prio + 1, NULL);
}

BaseType_t xAreCountingSemaphoreTasksStillRunning(void)
{
	BaseType_t ok = !sem_errors && cycles > last_cycles && cycles >= 100;
	frt_check("countsem_cycles", ok, (long)(sem_errors * 1000000 + cycles));
	last_cycles = cycles;
	return ok;
}
