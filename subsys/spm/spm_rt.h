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


/* Shared state (spm_rt.c), used by the I/O core loop. */
extern struct pt_spm_system pt_spm_sys;
void pt_spm_lock(struct pt_spm_core *c);
void pt_spm_unlock(struct pt_spm_core *c);
uint64_t pt_spm_ns_to_cycles(uint64_t ns);
_Noreturn void pt_io_core_main(void);
/* Sleep until `deadline_cycles` (UINT64_MAX: until an IPI), or less (wait_riscv64.c). */
void pt_spm_wait(uint64_t deadline_cycles);
/* Run one job on an application core with its heartbeat deadline armed (wait_riscv64.c). */
struct pt_spm_ctx;
void pt_spm_run_job(uintptr_t entry, struct pt_spm_ctx *ctx);
/* Wake an application hart (CLINT msip, wait_riscv64.c). */
void pt_spm_ipi(uint32_t hart);
/* Give the other harts a turn (QEMU icount round-robin; see wait_riscv64.c). */
void pt_spm_yield(void);

/* Console rings: application cores queue lines (their jobs' ctx->puts), the I/O core writes
 * them to the UART. Take the next complete line of application core `core` into `out`
 * (NUL-terminated, no newline); returns its length, 0 if none. */
uint32_t pt_spm_con_take(uint32_t core, char *out, uint32_t max);
extern volatile uint32_t pt_spm_con_drops;

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
