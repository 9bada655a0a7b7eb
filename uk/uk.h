/* The user-level kernel (brief 3, docs/proxy-kernel.md): a Linux process that maps the guest
 * RAM file and serves the proxy kernel's mailbox (<partita/uk_abi.h>). */
#ifndef UK_H
#define UK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <partita/uk_abi.h>

#define UK_RAM_BASE 0x80000000ull /* guest physical address of the RAM file's offset 0 */
#define UK_MAX_PARTS 64u          /* pids (partition indices) the UK keeps state for */
#define UK_MAX_FDS 32u            /* descriptors per process */

struct guest {
	uint8_t *ram;
	uint64_t ram_bytes;
	int ram_fd;
	ino_t ram_ino;
	struct pt_uk_area *area;
};
extern struct guest g;

/* guest.c */
int guest_symbol(const char *elf_path, const char *name, uint64_t *addr);
int guest_map(const char *ram_path, uint64_t area_addr);
uint8_t *guest_user(uint64_t as, uint64_t va, uint64_t n, int write, uint64_t *chunk);
int guest_copy_in(uint64_t as, void *dst, uint64_t va, uint64_t n);
int guest_copy_out(uint64_t as, uint64_t va, const void *src, uint64_t n);
int guest_string(uint64_t as, uint64_t va, char *out, size_t max);

/* services.c: serve one request; returns 1 if a reply is ready in *rep, 0 if the request
 * is parked (a pipe read with no data) and will be answered by uk_reply later. */
int uk_sandbox_open(const char *dir);
int uk_serve(const struct pt_uk_req *q, uint32_t hart, struct pt_uk_rep *rep);
void uk_reply(uint32_t hart, const struct pt_uk_rep *rep);
int uk_poll_parked(void);
extern int uk_verbose;

/* main.c: host time (CLOCK_MONOTONIC ns) and the optional per-request timing log (--times) */
uint64_t uk_now_ns(void);
void uk_timing(const struct pt_uk_req *q, uint64_t recv_ns, int64_t result);

#endif
