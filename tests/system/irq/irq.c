/*
 * Interrupt handler threads in the unified priority space (test_irq.py, docs/interrupts.md).
 *
 * The device interrupt is mostly the console UART's "transmitter empty": raised for as long as it is
 * enabled (pt_console_irq), so a thread raises it at an exact instant under icount, and its
 * handler turns it off again. Three programs:
 * - flood: the device is the RTC's alarm instead, re-armed by its handler irq_flood_handler
 *   every few microseconds of virtual time; the handler sits BELOW the periodic irq_flood_high,
 *   which counts the external-interrupt traps its hart takes during its jobs; its response
 *   times come from the trace.
 * - latency: irq_lat_low (low priority) raises it on its own hart; the high-priority handler
 *   irq_lat_handler records the cycles from the instant the interrupt could be taken to the
 *   kernel ISR's first instruction and to the handler thread's first instruction.
 * - receive: irq_rx_handler echoes console input lines, read under the receive interrupt.
 */
#include <stdint.h>
#include <stdbool.h>
#include <partita/api.h>
#include <partita/irq.h>
#include <partita/printf.h>

/* ---- flood ---- */
static volatile uint64_t flood_jobs, flood_traps_in_jobs, flood_handled;
#define FLOOD_JOBS 10
static uint64_t flood_span[FLOOD_JOBS]; /* cycles from a job's first to its last instruction */

/* Below irq_flood_high: the handler of the RTC alarm, which it re-arms `arg` ns after each
 * interrupt (arg 0: never armed, the quiet baseline). */
void irq_flood_handler(void *arg)
{
	uint64_t ns = (uint64_t)(uintptr_t)arg;
	if (ns)
		pt_rtc_alarm_in_ns(ns);
	for (;;) {
		pt_irq_wait();
		pt_rtc_ack();
		flood_handled++;
		pt_rtc_alarm_in_ns(ns);
	}
}

/* high priority, periodic: `arg` loop iterations per job */
void irq_flood_high(void *arg)
{
	for (;;) {
		uint64_t t0 = pt_time_cycles();
		uint64_t traps = pt_irq_traps(0);
		for (volatile uintptr_t i = 0; i < (uintptr_t)arg; i++)
			;
		flood_traps_in_jobs += pt_irq_traps(0) - traps;
		if (flood_jobs < FLOOD_JOBS)
			flood_span[flood_jobs] = pt_time_cycles() - t0;
		flood_jobs++;
		pt_wait_next_period();
	}
}

/* lowest priority: always ready (so every release preempts a thread, never idle);
 * reports once `arg` jobs of irq_flood_high are done (right after one, far from the next) */
void irq_flood_bg(void *arg)
{
	bool said = false;
	for (;;) {
		if (!said && flood_jobs >= (uint64_t)arg) {
			said = true;
			pt_printf("irq-flood: jobs %lu traps_in_jobs %lu handled %lu\n",
				  (unsigned long)flood_jobs, (unsigned long)flood_traps_in_jobs,
				  (unsigned long)flood_handled);
			for (uint32_t i = 0; i < FLOOD_JOBS; i++)
				pt_printf("irq-flood-span: %lu\n", (unsigned long)flood_span[i]);
		}
	}
}

/* ---- latency (Table II) ---- */
#define LAT_N 40
static uint64_t lat_isr[LAT_N], lat_thread[LAT_N];
static volatile uint32_t lat_n;

void irq_lat_handler(void *arg)
{
	(void)arg;
	for (;;) {
		pt_irq_wait();
		uint64_t t1 = pt_time_cycles(); /* the handler thread's first instruction */
		uint64_t t0 = pt_console_irq_cycles();
		uint64_t isr = pt_irq_isr_cycles();
		pt_console_irq(PT_CONSOLE_IRQ_TX, false);
		if (lat_n < LAT_N) {
			lat_isr[lat_n] = isr - t0;
			lat_thread[lat_n] = t1 - t0;
			lat_n++;
		}
	}
}

static void print_samples(const char *what, const uint64_t *v)
{
	for (uint32_t i = 0; i < LAT_N; i += 10)
		pt_printf("irq-lat %s %u: %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu\n", what, i,
			  (unsigned long)v[i], (unsigned long)v[i + 1], (unsigned long)v[i + 2],
			  (unsigned long)v[i + 3], (unsigned long)v[i + 4], (unsigned long)v[i + 5],
			  (unsigned long)v[i + 6], (unsigned long)v[i + 7], (unsigned long)v[i + 8],
			  (unsigned long)v[i + 9]);
}

void irq_lat_low(void *arg)
{
	(void)arg;
	while (lat_n < LAT_N) {
		pt_console_irq(PT_CONSOLE_IRQ_TX, true); /* the handler preempts right here */
		for (volatile uint32_t i = 0; i < 2000; i++)
			;
	}
	print_samples("isr", lat_isr);
	print_samples("thread", lat_thread);
	pt_printf("irq-lat: done\n");
	for (;;)
		;
}

/* ---- receive ---- */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[96];
	va_list ap;
	va_start(ap, fmt);
	int n = pt_vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pt_console_write(buf, (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf - 1));
}

void irq_rx_handler(void *arg)
{
	(void)arg;
	char line[64];
	uint32_t n = 0, wakes = 0;
	say("irq-rx: ready\n");
	for (;;) {
		pt_irq_wait();
		wakes++;
		for (int c; (c = pt_console_getc()) >= 0;) {
			if (c == '\r' || c == '\n') {
				line[n] = 0;
				if (n)
					say("irq-rx: got '%s' after %u interrupts\n", line, wakes);
				n = 0;
			} else if (n < sizeof line - 1) {
				line[n++] = (char)c;
			}
		}
	}
}

void irq_rx_spin(void *arg)
{
	(void)arg;
	for (;;)
		;
}

/* ---- interrupt-driven virtio-net receive ---- */
#include <partita/hal_net.h>

/* The handler of `irq: net0`: acknowledges the device, then drains its receive ring and
 * echoes every payload to its sender. Nothing polls the device. */
void irq_net_handler(void *arg)
{
	(void)arg;
	uint32_t wakes = 0;
	uint64_t echoed = 0;
	if (hal_net_init()) {
		say("irq-net: no network device\n");
		for (;;)
			pt_irq_wait();
	}
	say("irq-net: ready\n");
	for (;;) {
		pt_irq_wait();
		wakes++;
		hal_net_irq_ack();
		uint32_t len;
		for (const uint8_t *p; (p = hal_net_rx(&len)) != 0;) {
			static uint8_t copy[1500];
			uint32_t n = len < sizeof copy ? len : (uint32_t)sizeof copy;
			for (uint32_t i = 0; i < n; i++)
				copy[i] = p[i];
			hal_net_rx_release();
			if (hal_net_tx(copy, n))
				echoed++;
		}
		if (echoed && echoed % 10 == 0)
			say("irq-net: echoed %lu after %u interrupts\n", (unsigned long)echoed, wakes);
	}
}
