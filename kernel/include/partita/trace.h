/*
 * Trace record format, shared by the kernel (writer) and `partita trace` (reader).
 * This header is the contract: tools/partita/trace/format.py mirrors it field by field.
 *
 * Layout in guest RAM (the host maps the RAM file and finds `pt_trace_area` in the ELF):
 *   struct pt_trace_area { header; struct pt_trace_ring ring[PT_TRACE_MAX_CPUS];
 *                          kernel counters[PT_TRACE_MAX_THREADS]; ring directory }
 * With colored kernel data (kernel colors a proper subset of the colors) each online hart's
 * ring lives instead in pages of the kernel data colors, mapped at consecutive kernel virtual
 * addresses; the directory then lists the physical page of every 4 KiB of each ring (the ring
 * header first) and `rings_magic` says it is valid. The in-image rings are used before that
 * (and always with uncolored kernel data).
 * Each ring has exactly one producer (its hart) and is read by the host after the run
 * (or while it runs): the producer writes the record, then publishes it by a release
 * store of `head`. When a ring is full, new records are counted in `dropped` instead of
 * overwriting old ones, so a reader always knows what was lost.
 */
#ifndef PARTITA_TRACE_H
#define PARTITA_TRACE_H

#include <stdint.h>

#define PT_TRACE_MAGIC 0x5054524143453031ull /* "PTRACE01" */
#define PT_TRACE_MAX_CPUS 8
#define PT_TRACE_RING_RECORDS 32768u /* per hart; power of two */
/* The last PT_TRACE_RESERVE free slots of a ring take only critical records (DEADLINE_MISS,
 * OVERRUN, THREAD_STOP, FAULT, SHUTDOWN): a flood of ordinary records never hides a miss. */
#define PT_TRACE_RESERVE 256u

/* enum pt_trace_event (PT_EV_*): generated from kernel/trace/trace_events.yaml, the one
 * table the Python decoder is generated from too. */
#include <partita/trace_events.h>

struct pt_trace_rec {
	uint64_t ts_cycles; /* hal_cycles(): virtual time under icount, same base on all harts */
	uint16_t type;      /* enum pt_trace_event */
	uint16_t cpu;
	uint32_t tid;       /* 0 = kernel / idle */
	uint64_t arg0;
	uint64_t arg1;
};                          /* 32 bytes */

struct pt_trace_ring {
	volatile uint64_t head;    /* records written (monotonic); slot = head % RECORDS */
	volatile uint64_t dropped; /* records lost because the ring was full */
	volatile uint64_t tail;    /* records consumed by a live reader (host writes it; 0 if
				    * nobody does): the ring is full when head - tail == RECORDS */
	volatile uint64_t dropped_critical; /* critical records (DEADLINE_MISS, OVERRUN,
				    * THREAD_STOP, FAULT, SHUTDOWN) lost although the last
				    * PT_TRACE_RESERVE slots are kept for them (also in dropped) */
	uint64_t pad[4];
	struct pt_trace_rec rec[PT_TRACE_RING_RECORDS];
};

/* 4 KiB pages of one ring (64-byte header + records); a record never straddles a page */
#define PT_TRACE_RING_PAGES ((64u + PT_TRACE_RING_RECORDS * 32u + 4095u) / 4096u)
#define PT_RINGS_MAGIC 0x5054524e47504731ull /* "PTRNGPG1" */

#define PT_TRACE_MAX_THREADS 128 /* one counters entry per thread slot (PT_MAX_THREADS) */
#define PT_COUNTERS_MAGIC 0x5054434e54525331ull /* "PTCNTRS1" */
#define PT_COUNTERS_STOPPED 1u /* flags: the thread was stopped (fault, miss policy, deleted) */

/* Kernel-side job counters of one thread slot, updated by the kernel as events happen (not
 * through the rings, so a full ring can never hide them): the truth a report checks its
 * trace-derived figures against. tid 0 = slot never used. */
struct pt_thread_counters {
	uint32_t tid;
	uint16_t part;                 /* partition index */
	uint16_t flags;                /* PT_COUNTERS_* */
	uint64_t released, done, miss, overrun, budget;
	uint64_t max_response_cycles;
	uint64_t dropped_records;      /* its syscall records refused by its trace budget */
	char name[16];
};                                     /* 80 bytes */

struct pt_trace_area {
	uint64_t magic;           /* PT_TRACE_MAGIC once initialised */
	uint32_t ncpus;
	uint32_t rec_size;        /* sizeof(struct pt_trace_rec) */
	uint64_t cycles_per_sec;  /* timebase of ts_cycles */
	uint32_t records_per_ring;
	uint32_t exit_code;       /* written at shutdown: 0 = clean */
	uint64_t pad[4];
	struct pt_trace_ring ring[PT_TRACE_MAX_CPUS];
	uint64_t counters_magic;  /* PT_COUNTERS_MAGIC once the table is valid */
	uint32_t ncounters;       /* PT_TRACE_MAX_THREADS */
	uint32_t counter_size;    /* sizeof(struct pt_thread_counters) */
	struct pt_thread_counters counters[PT_TRACE_MAX_THREADS];
	uint64_t rings_magic;     /* PT_RINGS_MAGIC: ring c is at ring_pa[c][] (colored) */
	uint32_t ring_pages;      /* PT_TRACE_RING_PAGES */
	uint32_t ring_page_bytes; /* 4096 */
	uint64_t ring_pa[PT_TRACE_MAX_CPUS][PT_TRACE_RING_PAGES];
};

#endif
