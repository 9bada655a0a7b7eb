/*
 * The contract between an SPM task image and the kernel (brief 0).
 *
 * A task image is position-independent: it is linked at address 0 (apps/spm/image.ld), every
 * reference inside it is PC-relative, and tools/partita/subsys/spm/reloc.py fails the build if any
 * absolute relocation remains. The kernel copies the whole image into whichever scratchpad
 * partition is free and calls the entry at partition base + entry_off; the same bytes work in
 * either partition.
 *
 * The image starts with `struct pt_spm_image_hdr`, filled in by the linker script with
 * link-time constants (differences of addresses, so no relocation is involved).
 * Everything from data_off to the end of the image is persistent data: it is copied back to
 * main memory at unload, so the next job sees it.
 */
#ifndef PARTITA_SPM_TASK_H
#define PARTITA_SPM_TASK_H

#include <stdint.h>

#define PT_SPM_IMAGE_MAGIC 0x4d505350u /* "PSPM" */

struct pt_spm_image_hdr {
	uint32_t magic;
	uint32_t entry_off;   /* entry function, relative to the image start */
	uint32_t data_off;    /* start of persistent data (.data + .bss), 8-byte aligned */
	uint32_t image_bytes; /* whole image, .bss included (zero-filled in the file) */
};

struct pt_io_mbuf;

/* What a job receives: pointers into its own partition. */
struct pt_spm_ctx {
	uint64_t arg;                 /* scales the work of one job */
	uint64_t job;                 /* job number, 1-based */
	struct pt_io_mbuf *in;        /* input mirror (NULL if the task has none) */
	struct pt_io_mbuf *out;       /* output mirror (NULL if none); count starts at 0 */
	/* Console output: the line (NUL-terminated, no newline needed) is queued in the core's
	 * console ring and written to the UART by the I/O core, which owns it. */
	void (*puts)(const char *line);
};

typedef void (*pt_spm_entry_fn)(struct pt_spm_ctx *ctx);

/* Mark the one entry function of an image. */
#define PT_SPM_ENTRY __attribute__((section(".text.entry"), used))

#endif
