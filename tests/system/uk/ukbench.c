/*
 * The proxy kernel's Table I micro-benchmarks (ukbench.yaml, partita.subsys.uk.bench):
 * getpid served by the PK, getpid delegated to the UK, and a pipe ping-pong between two
 * processes (uk_pong echoes every byte uk_ping sends). Each sample is one call (one round
 * trip) in guest cycles, kept in memory during the loop and printed after it, so that
 * consecutive requests reach the UK back to back (their host inter-arrival time is the
 * host-side round trip).
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>
#include <partita/uk.h>

#define SAMPLES 200
static uint64_t t[SAMPLES];

static long bad; /* calls that did not return what they should: the run is not valid */

static void report(const char *name)
{
	for (int i = 0; i < SAMPLES; i++)
		pt_printf("ukb %s %lu", name, (unsigned long)t[i]);
}

void ukb_ping(void *arg)
{
	(void)arg;
	int32_t to[2], from[2];
	for (int i = 0; i < 1000 && uk_getpid() == PT_UK_ENOUK; i++)
		pt_sleep_ns(100000); /* the UK may come up after the guest */
	/* the pipes first: uk_pong's first read then waits in the UK, not in a sleep loop */
	bad += uk_pipe("ping", to) != 0;
	bad += uk_pipe("pong", from) != 0;
	long pid = uk_getpid_local();
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t a = pt_time_cycles();
		bad += uk_getpid_local() != pid;
		t[i] = pt_time_cycles() - a;
	}
	report("getpid_local");
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t a = pt_time_cycles();
		bad += uk_getpid() != pid;
		t[i] = pt_time_cycles() - a;
	}
	report("getpid_delegated");
	char c = 'x';
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t a = pt_time_cycles();
		bad += uk_write(to[1], &c, 1) != 1;
		bad += uk_read(from[0], &c, 1) != 1;
		t[i] = pt_time_cycles() - a;
	}
	report("pipe_pingpong");
	uk_close(to[1]);
	pt_printf("ukb bad %ld", bad);
	pt_printf("ukb done 1");
}

void ukb_pong(void *arg)
{
	(void)arg;
	int32_t to[2], from[2];
	for (int i = 0; i < 1000 && uk_getpid() == PT_UK_ENOUK; i++)
		pt_sleep_ns(100000);
	uk_pipe("ping", to);
	uk_pipe("pong", from);
	uk_close(to[1]); /* the ping side's close then ends the loop */
	char c;
	long n;
	while ((n = uk_read(to[0], &c, 1)) >= 0) {
		if (n == 0) {
			pt_sleep_ns(20000); /* the pipe's end until ping has joined it */
			continue;
		}
		uk_write(from[1], &c, 1);
	}
}
