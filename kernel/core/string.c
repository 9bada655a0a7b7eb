/*
 * Memory and string helpers, built twice from one definition (string_impl.h): the kernel's
 * copies (memset, memcpy, ...) in kernel text, and the applications' copies (pt_u_memset, ...)
 * in the user window. Application objects get their references renamed to the pt_u_ copies
 * when they are built (mk/kernel.mk, objcopy --redefine-sym), because S-mode may not execute
 * U pages: the kernel, running a system call in a user address space, must never call into
 * the user window.
 */
#include <stddef.h>
#include <stdint.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
void *pt_u_memset(void *d, int c, size_t n);
void *pt_u_memcpy(void *d, const void *s, size_t n);
void *pt_u_memmove(void *d, const void *s, size_t n);
int pt_u_memcmp(const void *a, const void *b, size_t n);
size_t pt_u_strlen(const char *s);

#define SEC
#define NAME(x) x
#include "string_impl.h"
#undef SEC
#undef NAME

#define SEC __attribute__((section(".utext")))
#define NAME(x) pt_u_##x
#include "string_impl.h"
