/*
 * Automotive-style workload kernels, Partita's own (not derived from EEMBC or any suite).
 * Each app_X performs one job: (uintptr_t)arg iterations (0 counts as 1) of a fixed,
 * deterministic amount of work on generated inputs, then stores a checksum of everything it
 * computed into app_X_result, so the work cannot be optimised away and a run can be compared
 * with another.
 *
 * Freestanding C, integer and fixed-point only (Q15 / Q14 / Q16): no FPU state, no libc,
 * no globals outside apps/. Reentrant: all working data is on the caller's stack (at most
 * ~1.6 KiB, app_matmul), tables are const, so several threads may run the same app at once.
 * The results are shared sinks: with concurrent runs of one app the last writer wins.
 */
#ifndef PARTITA_APPS_AUTOMOTIVE_H
#define PARTITA_APPS_AUTOMOTIVE_H

#include <stdint.h>

/* 31-tap low-pass FIR, Q15, 64-sample block per iteration. */
void app_fir(void *arg);
/* 4th-order Butterworth low-pass as two biquads (Q14 coefficients), 64 samples/iteration. */
void app_iir(void *arg);
/* 16x16 Q15 matrix product per iteration. */
void app_matmul(void *arg);
/* 256-point radix-2 complex FFT, Q15 with per-stage scaling, per iteration. */
void app_fft(void *arg);
/* 64 bilinear lookups in a 16x16 engine map (rpm x load -> ignition advance) per iteration. */
void app_table_lookup(void *arg);
/* CRC-32 and CRC-16 of a 64-byte frame, bit counts, CAN-style signal packing per iteration. */
void app_bitmanip(void *arg);

extern volatile uint32_t app_fir_result;
extern volatile uint32_t app_iir_result;
extern volatile uint32_t app_matmul_result;
extern volatile uint32_t app_fft_result;
extern volatile uint32_t app_table_lookup_result;
extern volatile uint32_t app_bitmanip_result;

#endif
