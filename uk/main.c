/*
 * uk: the user-level kernel's main loop. Maps the guest RAM file, finds the mailbox at the
 * kernel ELF's symbol `pt_uk_area`, announces itself (a new epoch, state SERVING), and serves
 * each hart's request ring, answering on the same hart's reply ring. On SIGTERM / SIGINT it
 * sets the state back to ABSENT before leaving, so waiting PK threads fail with PT_UK_EDEAD
 * instead of waiting for their timeout.
 *
 *   uk --elf build/<cfg>/partita.elf --ram build/<cfg>/ram.bin --sandbox DIR
 *      [--poll busy|backoff] [--verbose]
 */
#define _GNU_SOURCE
#include "uk.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

uint64_t uk_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --times FILE: one line per answered request, written at exit (benchmarks) */
static struct timing {
	uint64_t recv_ns, reply_ns;
	uint32_t seq, tid;
	uint16_t op, part;
	int64_t result;
} *times;
static size_t ntimes, cap_times;
static const char *times_path;

void uk_timing(const struct pt_uk_req *q, uint64_t recv_ns, int64_t result)
{
	if (!times_path)
		return;
	if (ntimes == cap_times) {
		size_t cap = cap_times ? 2 * cap_times : 4096;
		struct timing *t = realloc(times, cap * sizeof(*t));
		if (!t)
			return;
		times = t, cap_times = cap;
	}
	times[ntimes++] = (struct timing){recv_ns, uk_now_ns(), q->seq, q->tid, q->op, q->part, result};
}

static void write_times(void)
{
	FILE *f = times_path ? fopen(times_path, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "op,part,tid,seq,recv_ns,reply_ns,result\n");
	for (size_t i = 0; i < ntimes; i++)
		fprintf(f, "%u,%u,%u,%u,%llu,%llu,%lld\n", times[i].op, times[i].part, times[i].tid,
			times[i].seq, (unsigned long long)times[i].recv_ns,
			(unsigned long long)times[i].reply_ns, (long long)times[i].result);
	fclose(f);
}
static void on_signal(int s) { (void)s; stop = 1; }

/* Replies that found their ring full wait here, per hart, in order. */
#define BACKLOG 256u
static struct {
	struct pt_uk_rep rep[BACKLOG];
	uint32_t head, tail;
} backlog[PT_UK_MAX_HARTS];

static int ring_put(uint32_t hart, const struct pt_uk_rep *rep)
{
	struct pt_uk_chan *c = &g.area->chan[hart];
	uint32_t head = c->rep_idx.head;
	if (head - __atomic_load_n(&c->rep_idx.tail, __ATOMIC_ACQUIRE) >= PT_UK_RING_SLOTS)
		return 0;
	c->rep[head % PT_UK_RING_SLOTS] = *rep;
	__atomic_store_n(&c->rep_idx.head, head + 1, __ATOMIC_RELEASE);
	return 1;
}

void uk_reply(uint32_t hart, const struct pt_uk_rep *rep)
{
	if (backlog[hart].head == backlog[hart].tail && ring_put(hart, rep))
		return;
	if (backlog[hart].head - backlog[hart].tail < BACKLOG)
		backlog[hart].rep[backlog[hart].head++ % BACKLOG] = *rep;
	else
		fprintf(stderr, "uk: hart %u: reply backlog full, reply to seq %u dropped\n", hart,
			rep->seq);
}

static int flush_backlog(uint32_t hart)
{
	int n = 0;
	while (backlog[hart].head != backlog[hart].tail &&
	       ring_put(hart, &backlog[hart].rep[backlog[hart].tail % BACKLOG]))
		backlog[hart].tail++, n++;
	return n;
}

/* Serve what hart h has queued; the number of requests taken. */
static int serve_hart(uint32_t h, uint32_t epoch)
{
	struct pt_uk_chan *c = &g.area->chan[h];
	uint32_t head = __atomic_load_n(&c->req_idx.head, __ATOMIC_ACQUIRE);
	uint32_t tail = c->req_idx.tail;
	int n = 0;
	if (head - tail > PT_UK_RING_SLOTS) {
		fprintf(stderr, "uk: hart %u: request ring indices broken (head %u tail %u)\n", h,
			head, tail);
		tail = head; /* drop everything: the PK's waiters time out */
	}
	for (; tail != head; tail++, n++) {
		struct pt_uk_req q = c->req[tail % PT_UK_RING_SLOTS]; /* one copy: no re-reads */
		struct pt_uk_rep rep;
		if (q.epoch != epoch)
			continue; /* sent to an earlier UK: its waiter has given up */
		uint64_t recv_ns = times_path ? uk_now_ns() : 0;
		if (uk_serve(&q, h, &rep)) {
			uk_reply(h, &rep);
			uk_timing(&q, recv_ns, rep.result);
		}
		__atomic_fetch_add(&g.area->uk_served, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&c->req_idx.tail, tail, __ATOMIC_RELEASE);
	return n;
}

static void usage(void)
{
	fprintf(stderr, "usage: uk (--elf KERNEL.elf | --area ADDR) --ram RAM_FILE --sandbox DIR "
			"[--poll busy|backoff] [--times CSV] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *ram = NULL, *sandbox = NULL, *area = NULL;
	int busy = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else if (!strcmp(argv[i], "--area") && i + 1 < argc)
			area = argv[++i]; /* the mailbox's guest address instead of --elf (test rigs) */
		else if (!strcmp(argv[i], "--ram") && i + 1 < argc)
			ram = argv[++i];
		else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc)
			sandbox = argv[++i];
		else if (!strcmp(argv[i], "--poll") && i + 1 < argc) {
			const char *m = argv[++i];
			if (strcmp(m, "busy") && strcmp(m, "backoff"))
				usage();
			busy = !strcmp(m, "busy");
		} else if (!strcmp(argv[i], "--times") && i + 1 < argc)
			times_path = argv[++i];
		else if (!strcmp(argv[i], "--verbose"))
			uk_verbose = 1;
		else
			usage();
	}
	if ((!elf == !area) || !ram || !sandbox)
		usage();
	uint64_t addr = 0;
	int rc = 0;
	if (area) {
		char *end;
		addr = strtoull(area, &end, 0);
		if (*end)
			usage();
	} else {
		rc = guest_symbol(elf, "pt_uk_area", &addr);
	}
	if (rc) {
		fprintf(stderr, "uk: %s: no symbol pt_uk_area (%s): is the uk subsystem linked "
				"(a `uk:` section in the configuration)?\n", elf, strerror(-rc));
		return 1;
	}
	if ((rc = uk_sandbox_open(sandbox))) {
		fprintf(stderr, "uk: sandbox %s: %s\n", sandbox, strerror(-rc));
		return 1;
	}
	/* the RAM file appears when QEMU (or partita run) creates it: wait a little */
	for (int tries = 0; (rc = guest_map(ram, addr)); tries++) {
		if (tries == 1000) {
			fprintf(stderr, "uk: %s: %s\n", ram, strerror(-rc));
			return 1;
		}
		usleep(5000);
	}
	for (int tries = 0; g.area->magic != PT_UK_MAGIC; tries++) {
		if (tries == 2000) {
			fprintf(stderr, "uk: %s: no mailbox at 0x%llx (magic 0x%llx): not this "
					"image's RAM, or the guest has not been loaded\n", ram,
				(unsigned long long)addr, (unsigned long long)g.area->magic);
			return 1;
		}
		usleep(5000);
	}
	if (g.area->version != PT_UK_ABI_VERSION || g.area->nharts > PT_UK_MAX_HARTS) {
		fprintf(stderr, "uk: mailbox ABI version %u (nharts %u), this UK speaks %u\n",
			g.area->version, g.area->nharts, PT_UK_ABI_VERSION);
		return 1;
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	uint32_t epoch = g.area->uk_epoch + 1;
	/* requests left from an earlier UK are skipped by their epoch */
	__atomic_store_n(&g.area->uk_epoch, epoch, __ATOMIC_RELEASE);
	__atomic_store_n(&g.area->uk_state, PT_UK_SERVING, __ATOMIC_RELEASE);
	fprintf(stderr, "uk: serving %s (mailbox 0x%llx, %u harts, epoch %u, %s polling)\n", ram,
		(unsigned long long)addr, g.area->nharts, epoch, busy ? "busy" : "back-off");
	unsigned idle = 0;
	time_t last_check = 0;
	uint64_t passes = 0;
	while (!stop) {
		int work = 0;
		for (uint32_t h = 0; h < g.area->nharts && h < PT_UK_MAX_HARTS; h++) {
			work += flush_backlog(h);
			work += serve_hart(h, epoch);
		}
		work += uk_poll_parked();
		g.area->uk_heartbeat++;
		/* every 4096 passes (clock_gettime in every pass was 34% of a busy UK's time, perf):
		 * once a second, has a new boot replaced the RAM file? then ours is dead */
		struct timespec now = {0, 0};
		if ((++passes & 4095) == 0)
			clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec && now.tv_sec != last_check) {
			struct stat st;
			last_check = now.tv_sec;
			if (stat(ram, &st) || st.st_ino != g.ram_ino) {
				fprintf(stderr, "uk: %s was replaced (the guest is gone): exiting\n", ram);
				break;
			}
		}
		if (work) {
			idle = 0;
		} else if (!busy) { /* back-off: 1 us doubling to 64 us while idle */
			struct timespec ts = {0, 1000L << (idle < 6 ? idle : 6)};
			idle++;
			nanosleep(&ts, NULL);
		}
	}
	__atomic_store_n(&g.area->uk_state, PT_UK_ABSENT, __ATOMIC_RELEASE);
	write_times();
	fprintf(stderr, "uk: stopped after %llu requests (%llu refused)\n",
		(unsigned long long)g.area->uk_served, (unsigned long long)g.area->uk_refused);
	return 0;
}
