/*
 * The harness that runs FreeRTOS's own Demo/Common/Minimal kernel test files, compiled
 * unchanged, on Partita (test_freertos_demo.py links them from PT_FREERTOS_DEMO_DIR; they are
 * not part of this repository). main() starts every demo's tasks as FreeRTOS's own demo
 * applications do, the tick hook calls their interrupt entry points, and a check task asks
 * each demo "still running?" every 2 s and prints "demo: ok NAME" / "demo: FAIL NAME".
 * DEMO_HAVE_<name> (from the build) says which demos are linked.
 */
#include <partita/api.h>
#include "FreeRTOS.h"
#include "task.h"
#include "demo_list.h"
#include "lib/ufmt.h"

static void say(const char *a, const char *b)
{
	char buf[96];
	int k = 0;
	while (*a && k < 40)
		buf[k++] = *a++;
	while (*b && k < 90)
		buf[k++] = *b++;
	buf[k++] = '\n';
	pt_console_write(buf, (size_t)k);
}

static volatile unsigned long idle_count;
void vApplicationIdleHook(void)
{
	idle_count++;
}

void vApplicationMallocFailedHook(void)
{
	say("demo: FAIL ", "malloc_failed_hook");
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
	(void)xTask;
	say("demo: FAIL stack_overflow ", pcTaskName);
}

static StaticTask_t idle_tcb, timer_tcb;
static StackType_t idle_stack[configMINIMAL_STACK_SIZE];
static StackType_t timer_stack[configTIMER_TASK_STACK_DEPTH];

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack,
				   configSTACK_DEPTH_TYPE *depth)
{
	*tcb = &idle_tcb, *stack = idle_stack, *depth = configMINIMAL_STACK_SIZE;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **tcb, StackType_t **stack,
				    configSTACK_DEPTH_TYPE *depth)
{
	*tcb = &timer_tcb, *stack = timer_stack, *depth = configTIMER_TASK_STACK_DEPTH;
}

void vApplicationTickHook(void)
{
	DEMO_TICK_HOOKS
}

#define CHECK_PERIOD pdMS_TO_TICKS(2000)

static void check_task(void *arg)
{
	(void)arg;
	TickType_t last = xTaskGetTickCount();
	for (int round = 1; round <= DEMO_ROUNDS; round++) {
		vTaskDelayUntil(&last, CHECK_PERIOD);
		int fail = 0;
		DEMO_CHECKS
		char b[64];
		int k = 0;
		const char *p = "demo: round ";
		while (*p)
			b[k++] = *p++;
		pt_ufmt_i64(b, &k, round);
		p = fail ? " fail=" : " ok fail=";
		while (*p)
			b[k++] = *p++;
		pt_ufmt_i64(b, &k, fail);
		b[k++] = '\n';
		pt_console_write(b, (size_t)k);
	}
	say("demo: done", "");
	vTaskDelete(NULL);
}

int main(void)
{
	DEMO_STARTS
	xTaskCreate(check_task, "Check", configMINIMAL_STACK_SIZE, NULL, configMAX_PRIORITIES - 1,
		    NULL);
	vTaskStartScheduler();
	return 0;
}
