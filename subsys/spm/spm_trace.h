/*
 * SPM and I/O trace events, in the subsystem range of <partita/trace.h> (32..63); the numbers
 * live in kernel/trace/trace_events.yaml (tools/partita/subsys/spm/events.py decodes them).
 * For every SPM event `tid` is the SPM task id + 1 (0 = none) and arg0 packs
 * (application core << 8) | partition (0xff = none).
 */
#ifndef PARTITA_SUBSYS_SPM_TRACE_H
#define PARTITA_SUBSYS_SPM_TRACE_H

#include <partita/trace.h>

/* enum pt_spm_trace_event (PT_EV_SPM_*) and enum pt_io_trace_event (PT_EV_IO_*), with their
 * ranges: generated from kernel/trace/trace_events.yaml. */
#include "spm_trace_events.h"
#include "../io/io_trace_events.h"

#define PT_SPM_TID_BASE 1000u /* trace tid of SPM task i is BASE + i */
#define PT_SPM_TRACE_WHERE(core, part) (((uint64_t)(core) << 8) | ((uint64_t)(part) & 0xff))

#endif
