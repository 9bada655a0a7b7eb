/*
 * The user side of the proxy kernel's delegated services (subsys/uk, docs/proxy-kernel.md):
 * POSIX-like names over the system calls PT_SYS_UK_FIRST + op of <partita/uk_abi.h>, for
 * threads of user partitions. A process is a user partition; its pid is the partition index.
 * Results: >= 0, or a negative PT_UK_E* code (PT_UK_ERRNO(e) for a host errno e).
 */
#ifndef PARTITA_UK_H
#define PARTITA_UK_H

#include <stdint.h>
#include <partita/uk_abi.h>
#include <partita/syscall.h>

/* What the configuration's `uk:` section gives the PK (generated pt_uk_config.c). */
struct pt_uk_cfg {
	uint64_t timeout_ns; /* a delegated call fails with PT_UK_ETIMEOUT after this long */
	uint64_t poll_ns;    /* a waiter looks at the reply rings at least this often */
};
extern const struct pt_uk_cfg pt_uk_cfg;

#if defined(__riscv)
static inline long uk_call(unsigned op, long a0, long a1, long a2)
{
	return pt_syscall6((long)(PT_SYS_UK_FIRST + op), a0, a1, a2, 0, 0, 0);
}

/* getpid served by the PK alone (no request leaves the hart) */
static inline long uk_getpid_local(void)
{
	return pt_syscall6((long)PT_SYS_UK_GETPID_LOCAL, 0, 0, 0, 0, 0, 0);
}
static inline long uk_getpid(void) { return uk_call(PT_UK_OP_GETPID, 0, 0, 0); }
static inline long uk_open(const char *path, unsigned flags, unsigned mode)
{
	return uk_call(PT_UK_OP_OPEN, (long)path, (long)flags, (long)mode);
}
static inline long uk_read(long fd, void *buf, unsigned long n)
{
	return uk_call(PT_UK_OP_READ, fd, (long)buf, (long)n);
}
static inline long uk_write(long fd, const void *buf, unsigned long n)
{
	return uk_call(PT_UK_OP_WRITE, fd, (long)buf, (long)n);
}
static inline long uk_close(long fd) { return uk_call(PT_UK_OP_CLOSE, fd, 0, 0); }
static inline long uk_lseek(long fd, long off, int whence)
{
	return uk_call(PT_UK_OP_LSEEK, fd, off, whence);
}
static inline long uk_stat(const char *path, struct pt_uk_stat *st)
{
	return uk_call(PT_UK_OP_STAT, (long)path, (long)st, 0);
}
/* A pipe: anonymous (name NULL, both ends to the caller) or named, which another process
 * joins by the same name (its ends in the caller's descriptor table). */
static inline long uk_pipe(const char *name, int32_t fds[2])
{
	return uk_call(PT_UK_OP_PIPE, (long)name, (long)fds, 0);
}
static inline long uk_unlink(const char *path) { return uk_call(PT_UK_OP_UNLINK, (long)path, 0, 0); }

/* UDP on the host's loopback (127.0.0.1 only); close with uk_close. */
static inline long uk_socket(void) { return uk_call(PT_UK_OP_SOCKET, 0, 0, 0); }
static inline long uk_bind(long fd, unsigned port) { return uk_call(PT_UK_OP_BIND, fd, (long)port, 0); }
static inline long uk_sendto(long fd, const void *buf, unsigned long n, unsigned port)
{
	return pt_syscall6((long)(PT_SYS_UK_FIRST + PT_UK_OP_SENDTO), fd, (long)buf, (long)n,
			   (long)port, 0, 0);
}
/* blocks until a datagram arrives; *port (if not NULL) = the sender's port */
static inline long uk_recvfrom(long fd, void *buf, unsigned long n, uint32_t *port)
{
	return pt_syscall6((long)(PT_SYS_UK_FIRST + PT_UK_OP_RECVFROM), fd, (long)buf, (long)n,
			   (long)port, 0, 0);
}
#endif

#endif
