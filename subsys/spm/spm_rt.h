/*
 * The SPM subsystem's runtime. It registers itself with the kernel (<partita/subsys.h>,
 * spm_rt.c): its boot hook builds the SPM tables on hart 0 after the static threads exist and
 * before the other harts start; its per-hart entry returns at once on a hart the SPM
 * configuration does not own and never returns on the I/O core or an SPM application core.
 */
#ifndef PARTITA_SUBSYS_SPM_RT_H
#define PARTITA_SUBSYS_SPM_RT_H

#include <stdint.h>
#include <stdbool.h>
#include "spm.h"


/* Shared state (spm_rt.c), used by the I/O core (subsys/io). The SPM harts run on the
 * service-hart runtime (<partita/svc.h>): core locks are pt_svc_lock, waits pt_svc_wait_until,
 * wake-ups pt_svc_kick. */
extern struct pt_spm_system pt_spm_sys;
/* Spin (politely) until the boot hook has built the tables; true if SPM is enabled. */
bool pt_spm_wait_ready(void);
/* Ask every application-core service to stop and wait until deadline_cycles for them; returns
 * how many stopped. */
uint32_t pt_spm_stop_apps(uint64_t deadline_cycles);

/* Console rings: application cores queue lines (their jobs' ctx->puts), the I/O core writes
 * them to the UART; one pt_svc_con per application core. */
struct pt_svc_con *pt_spm_con(uint32_t core);

/* Layout of a task inside its partition: [image | input mirror | output mirror]. */
uint32_t pt_spm_in_off(uint32_t id);
uint32_t pt_spm_out_off(uint32_t id);
struct pt_io_mbuf *pt_spm_in_mirror(uint32_t id);  /* I/O core's copy */
struct pt_io_mbuf *pt_spm_out_mirror(uint32_t id);

/* Kernel symbols used by the subsystem (kernel/core); declared here rather than including the
 * kernel's private header. */
extern uint64_t pt_epoch;
int pt_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
