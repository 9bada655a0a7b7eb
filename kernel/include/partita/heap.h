/*
 * Colored heaps (docs/memory.md, Heaps). Each partition with `heap:` in its configuration has
 * one heap per cache color it owns; every heap grows by pages of its own color, mapped at
 * contiguous virtual addresses of the partition. The same calls serve kernel threads (a
 * direct call) and user threads (a system call; every pointer is looked up in the caller's
 * own partition's heaps only).
 *
 *   mode os   (OS-centric):   pt_malloc / pt_calloc take the heap of color
 *                             colors[thread id mod ncolors] of the caller's partition;
 *   mode user (user-centric): pt_malloc_color names the color.
 * The call of the other mode is refused (PT_EHEAPMODE). pt_free and pt_realloc find the heap
 * of a block from its address. Small requests (<= 2048 B) take constant time.
 *
 * A failing call returns NULL (pt_free: the error code), records the error for
 * pt_heap_last_error() and writes a PT_EV_HEAP_ERROR trace record; nothing falls back to
 * another color and nothing is changed.
 */
#ifndef PARTITA_HEAP_H
#define PARTITA_HEAP_H

#include <stddef.h>
#include <stdint.h>

#define PT_ECOLOR (-20)      /* color outside 0 .. configured colors - 1 */
#define PT_ENOTOWNED (-21)   /* a color the caller's partition does not own */
#define PT_ENOMEM (-22)      /* the color is exhausted: its heap reached heap.bytes, or no
			      * free page of the color is left */
#define PT_EFOREIGN (-23)    /* not the start of a block of the caller's partition */
#define PT_EDOUBLEFREE (-24) /* the block is already free */
#define PT_EOVERFLOW (-25)   /* n * size overflows, or no block is that large */
#define PT_ENOHEAP (-26)     /* the caller's partition has no colored heaps */
#define PT_EHEAPMODE (-27)   /* pt_malloc in a user-centric partition, or pt_malloc_color in
			      * an OS-centric one */

void *pt_malloc(size_t bytes);
void *pt_malloc_color(size_t bytes, unsigned color);
void *pt_calloc(size_t n, size_t size);       /* zeroed; OS-centric like pt_malloc */
void *pt_realloc(void *p, size_t bytes);      /* same color as p; NULL p: pt_malloc */
int pt_free(void *p);                         /* PT_OK or the error; NULL is PT_OK */
int pt_heap_last_error(void);                 /* the calling thread's last heap call's result */
int pt_heap_color_of(const void *p);          /* color of the heap holding block p, or error */

#endif
