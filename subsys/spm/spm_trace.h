/*
 * SPM and I/O trace events, in the subsystem range of <partita/trace.h> (32..63).
 * tools/partita/spm/events.py mirrors these numbers. For every SPM event `tid` is the SPM task
 * id + 1 (0 = none) and arg0 packs (application core << 8) | partition (0xff = none).
 */
#ifndef PARTITA_SUBSYS_SPM_TRACE_H
#define PARTITA_SUBSYS_SPM_TRACE_H

#include <partita/trace.h>

enum pt_spm_trace_event {
	PT_EV_SPM_SLOT = PT_EV_SUBSYS_FIRST + 0,        /* slot begins; arg1 = slot number */
	PT_EV_SPM_LOAD_BEGIN = PT_EV_SUBSYS_FIRST + 1,  /* arg1 = bytes (image + input mirror) */
	PT_EV_SPM_LOAD_END = PT_EV_SUBSYS_FIRST + 2,    /* arg1 = job number */
	PT_EV_SPM_UNLOAD_BEGIN = PT_EV_SUBSYS_FIRST + 3,/* arg1 = bytes (data + output mirror) */
	PT_EV_SPM_UNLOAD_END = PT_EV_SUBSYS_FIRST + 4,  /* arg1 = job number */
	PT_EV_SPM_IDLE_SLOT = PT_EV_SUBSYS_FIRST + 5,   /* arg1 = enum pt_spm_idle_reason */
	PT_EV_SPM_EXEC_BEGIN = PT_EV_SUBSYS_FIRST + 6,  /* on the app core; arg1 = job number */
	PT_EV_SPM_EXEC_END = PT_EV_SUBSYS_FIRST + 7,    /* arg1 = job number; arg0 bits 16..
							 * = completion time (cycles) the I/O
							 * core's Rule 2 compares with a slot */
	PT_EV_SPM_RELEASE = PT_EV_SUBSYS_FIRST + 8,     /* arg1 = job number (0 = pending) */
	PT_EV_SPM_JOB_DONE = PT_EV_SUBSYS_FIRST + 9,    /* unload finished; arg1 = response
							 * time in cycles (release -> unload end) */
	PT_EV_SPM_CALIB = PT_EV_SUBSYS_FIRST + 10,      /* arg0 = 0 load, 1 unload, 2 dma setup
							 * (arg1 = cycles), 3 bytes copied */
	PT_EV_SPM_PHASE = PT_EV_SUBSYS_FIRST + 11,      /* a phase starts: arg0 = phase, arg1 =
							 * its time origin (cycles, a slot of core 0) */
	PT_EV_IO_RX = PT_EV_SUBSYS_FIRST + 16,          /* tid = tasks reached; arg0 = flow, arg1 = bytes */
	PT_EV_IO_TX = PT_EV_SUBSYS_FIRST + 17,          /* arg0 = flow id, arg1 = bytes */
	PT_EV_IO_DROP = PT_EV_SUBSYS_FIRST + 18,        /* arg0 = flow id, arg1 = reason */
	PT_EV_IO_MIRROR_IN = PT_EV_SUBSYS_FIRST + 19,   /* tid = task; arg1 = bytes delivered */
	PT_EV_IO_MIRROR_OUT = PT_EV_SUBSYS_FIRST + 20,  /* tid = task; arg1 = bytes collected */
	PT_EV_IO_CONSOLE = PT_EV_SUBSYS_FIRST + 21,     /* I/O core wrote a console line of an
							 * application core: arg0 = core << 8,
							 * arg1 = bytes */
};

#define PT_SPM_TID_BASE 1000u /* trace tid of SPM task i is BASE + i */
#define PT_SPM_TRACE_WHERE(core, part) (((uint64_t)(core) << 8) | ((uint64_t)(part) & 0xff))

#endif
