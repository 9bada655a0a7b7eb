/*
 * Interrupt overhead (`make bench`, docs/interrupts.md): the paper's Table II (RT-SHADOWS, the
 * time from a device interrupt to the first instruction of its service routine), with and
 * without the dedicated interrupt context (irq_context in apps/bench/configs/bench-irq-*.yaml).
 * The device interrupt is the UART's "transmitter empty", raised by pt_console_irq at a known
 * cycle (pt_console_irq_cycles: the instant it can be taken). One hart, icount shift 0
 * (cycles = instructions), kernel threads, tracing on. Console lines, one per sample:
 *   BENCH-IRQ <isr|thread|trap|notrap> <cycles>
 * isr:    interrupt -> first instruction of the kernel ISR of the source (after the claim);
 * thread: interrupt -> first instruction of the handler thread, which preempts the
 *         interrupted thread (`irqb_low`);
 * trap / notrap: the interrupted thread (`irqb_high`, above the handler, threshold off) from
 *         the instant the interrupt can be taken to its next instruction, with and without the
 *         interrupt: the difference is the whole trap that only wakes a lower handler.
 */
#include <stdint.h>
#include <stdbool.h>
#include <partita/api.h>
#include <partita/irq.h>

#include "../lib/ufmt.h"

#define IRQB_N 64
#define IRQB_WARMUP 2
#define IRQB_HANDLER_PRIO 100
#define IRQB_HIGH_PRIO 50

static uint64_t s_isr[IRQB_N], s_thread[IRQB_N];
static volatile uint32_t n_preempt;
static volatile uint32_t phase; /* 0: handler preempts; 1: handler below the interrupted */

/* The handler thread of `irq: uart0`. */
void irqb_handler(void *arg)
{
	(void)arg;
	for (;;) {
		pt_irq_wait();
		uint64_t t1 = pt_time_cycles(); /* the handler thread's first instruction */
		uint64_t t0 = pt_console_irq_cycles();
		uint64_t isr = pt_irq_isr_cycles();
		pt_console_irq(PT_CONSOLE_IRQ_TX, false);
		if (phase == 0 && n_preempt < IRQB_N) {
			s_isr[n_preempt] = isr - t0;
			s_thread[n_preempt] = t1 - t0;
			n_preempt++;
		}
	}
}

static void out(const char *what, uint64_t v)
{
	char b[64];
	int n = 0;
	pt_ufmt_str(b, &n, "BENCH-IRQ ");
	pt_ufmt_str(b, &n, what);
	pt_ufmt_str(b, &n, " ");
	pt_ufmt_u64(b, &n, v);
	pt_ufmt_str(b, &n, "\n");
	pt_console_write(b, (size_t)n);
}

/* Below the handler: raises the interrupt, the handler preempts it (phase 0); then, raised
 * above the handler, measures the trap that only wakes it (phase 1). */
void irqb_low(void *arg)
{
	(void)arg;
	while (n_preempt < IRQB_N) {
		pt_console_irq(PT_CONSOLE_IRQ_TX, true); /* the handler preempts right here */
		for (volatile uint32_t i = 0; i < 1000; i++)
			;
	}
	phase = 1;
	pt_thread_set_priority(pt_thread_self(), IRQB_HIGH_PRIO);
	uint64_t trap[IRQB_N], notrap[IRQB_N];
	for (uint32_t k = 0; k < IRQB_N + IRQB_WARMUP; k++) {
		/* without an interrupt: the same call turns the interrupt off */
		pt_console_irq(PT_CONSOLE_IRQ_TX, false);
		uint64_t t = pt_time_cycles();
		uint64_t a = t - pt_console_irq_cycles();
		/* with: the trap wakes the handler, which cannot preempt; back here at once */
		pt_console_irq(PT_CONSOLE_IRQ_TX, true);
		t = pt_time_cycles();
		uint64_t b = t - pt_console_irq_cycles();
		if (k >= IRQB_WARMUP) {
			notrap[k - IRQB_WARMUP] = a;
			trap[k - IRQB_WARMUP] = b;
		}
		pt_sleep_ns(20000); /* the handler runs, turns the interrupt off, completes */
	}
	for (uint32_t i = IRQB_WARMUP; i < IRQB_N; i++) {
		out("isr", s_isr[i]);
		out("thread", s_thread[i]);
	}
	for (uint32_t i = 0; i < IRQB_N; i++) {
		out("trap", trap[i]);
		out("notrap", notrap[i]);
	}
	pt_console_write("BENCH-END\n", 10);
	for (;;)
		;
}
