/*
 * Tiny formatting helpers for application and test threads (kernel or user mode): they append
 * to a caller's buffer and never allocate, so they are safe in any thread. `*n` is the write
 * index; the caller sizes the buffer (a u64 needs at most 20 characters, an i64 21).
 */
#ifndef PARTITA_APPS_UFMT_H
#define PARTITA_APPS_UFMT_H

#include <stdint.h>

void pt_ufmt_str(char *b, int *n, const char *s);
void pt_ufmt_u64(char *b, int *n, uint64_t v);
void pt_ufmt_i64(char *b, int *n, int64_t v);
/* Write a NUL-terminated string to the console. */
void pt_usay(const char *s);

#endif
