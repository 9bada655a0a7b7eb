/*
 * Trace record format, shared by the kernel (writer) and `partita trace` (reader).
 * This header is the contract: tools/partita/tracefmt.py mirrors it field by field.
 *
 * Layout in guest RAM (the host maps the RAM file and finds `pt_trace_area` in the ELF):
 *   struct pt_trace_area { header; struct pt_trace_ring ring[PT_TRACE_MAX_CPUS];
 *                          kernel counters[PT_TRACE_MAX_THREADS] }
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

enum pt_trace_event {
	PT_EV_BOOT = 1,        /* arg0 = number of harts online */
	PT_EV_THREAD_INFO = 2, /* tid names itself: arg0..arg1 = 16 bytes of name; once per thread */
	PT_EV_RELEASE = 3,     /* job released: arg0 = job number, arg1 = absolute deadline (cycles) */
	PT_EV_DISPATCH = 4,    /* tid starts running on cpu */
	PT_EV_PREEMPT = 5,     /* tid stops running, still ready: arg0 = tid that preempts it */
	PT_EV_COMPLETE = 6,    /* job completed: arg0 = job number, arg1 = response time (cycles) */
	PT_EV_DEADLINE_MISS = 7, /* arg0 = job number, arg1 = absolute deadline (cycles) */
	PT_EV_OVERRUN = 8,     /* job still running at its next release: arg0 = job number */
	PT_EV_MIGRATE = 9,     /* arg0 = from cpu, arg1 = to cpu */
	PT_EV_BLOCK = 10,      /* arg0 = object kind (enum pt_obj_kind), arg1 = object id */
	PT_EV_UNBLOCK = 11,    /* arg0 = reason (0 = given, 1 = timeout) */
	PT_EV_IRQ_ENTER = 12,  /* arg0 = cause */
	PT_EV_IRQ_EXIT = 13,
	PT_EV_SYSCALL = 14,    /* arg0 = syscall number, arg1 = result */
	PT_EV_FAULT = 15,      /* arg0 = scause, arg1 = faulting address (stval) */
	PT_EV_THREAD_STOP = 16,/* thread stopped by the kernel: arg0 = reason */
	PT_EV_IDLE = 17,       /* cpu goes idle */
	PT_EV_MARK = 18,       /* user mark: arg0, arg1 free (benchmarks, tests) */
	PT_EV_SHUTDOWN = 19,
	PT_EV_HEAP_ERROR = 20, /* a refused heap call: arg0 = -error | op << 8 | color << 16
				* (color 0xffff: none), arg1 = bytes or pointer */
	/* 32..63 reserved for subsystems (SPM load/unload/slots, I/O, ...) */
	PT_EV_SUBSYS_FIRST = 32,
	PT_EV_SUBSYS_LAST = 63,   /* each subsystem declares its range (<partita/subsys.h>) */
};

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
};

#endif
