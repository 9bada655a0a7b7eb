/*
 * The proxy-kernel / user-level-kernel request ABI (brief 3, docs/proxy-kernel.md).
 *
 * One header for both sides: the PK (subsys/uk, freestanding, in the guest) and the UK (uk/,
 * a Linux process that maps the guest RAM file). It uses <stdint.h> only, fixed-width fields
 * and explicit padding, so both compilers lay the records out identically (checked by
 * _Static_assert below on both sides).
 *
 * Transport (b), the shared-memory mailbox: `struct pt_uk_area` lives in the PK's .data at the
 * ELF symbol `pt_uk_area` (guest physical = kernel virtual; file offset = address - RAM base).
 * Per PK hart one channel: a request ring (producer: that hart, with interrupts masked, so one
 * producer at a time; consumer: the UK) and a reply ring (producer: the UK; consumer: any PK
 * hart holding the channel's `rep_lock`). Ring indices only grow (mod 2^32), 0 <= head - tail
 * <= PT_UK_RING_SLOTS; a record is written before the release store of `head` and read before
 * the release store of `tail`.
 *
 * Everything the UK reads from a request is untrusted except what the PK writes itself
 * (`part`, `tid`, `as`, `seq`, `op`): user pointers in `arg` are checked by walking the
 * caller's own Sv39 tables (`as`) for user-accessible, readable / writable pages inside RAM.
 */
#ifndef PARTITA_UK_ABI_H
#define PARTITA_UK_ABI_H

#include <stdint.h>

#define PT_UK_MAGIC 0x314b55617469747aull /* "zitatUK1" little-endian: the area is present */
#define PT_UK_ABI_VERSION 1u
#define PT_UK_MAX_HARTS 8u
#define PT_UK_RING_SLOTS 16u /* a power of two */
#define PT_UK_PATH_MAX 256u  /* bytes of a path, NUL included */
#define PT_UK_IO_MAX 65536u  /* bytes one read / write moves */

/* Operations (req.op). Arguments a0..a4 as listed; result >= 0 or a PT_UK_E* / -errno code. */
enum pt_uk_op {
	PT_UK_OP_GETPID = 1, /* -> the caller's pid (its partition index) */
	PT_UK_OP_OPEN,       /* a0 = path, a1 = PT_UK_O_* flags, a2 = mode -> fd */
	PT_UK_OP_READ,       /* a0 = fd, a1 = buffer, a2 = bytes -> bytes read (0: end) */
	PT_UK_OP_WRITE,      /* a0 = fd, a1 = buffer, a2 = bytes -> bytes written */
	PT_UK_OP_CLOSE,      /* a0 = fd */
	PT_UK_OP_LSEEK,      /* a0 = fd, a1 = offset (signed), a2 = whence 0/1/2 -> offset */
	PT_UK_OP_STAT,       /* a0 = path, a1 = struct pt_uk_stat * */
	PT_UK_OP_PIPE,       /* a0 = name (NULL: anonymous), a1 = int32_t fds[2] -> 0 */
	PT_UK_OP_UNLINK,     /* a0 = path */
	PT_UK_OP_CANCEL,     /* sent by the PK: a0 = seq of a request whose waiter gave up */
	PT_UK_OP_SOCKET,     /* -> fd of a UDP socket on the host's loopback */
	PT_UK_OP_BIND,       /* a0 = fd, a1 = port (0: any) -> the bound port, on 127.0.0.1 */
	PT_UK_OP_SENDTO,     /* a0 = fd, a1 = buffer, a2 = bytes, a3 = port on 127.0.0.1 */
	PT_UK_OP_RECVFROM,   /* a0 = fd, a1 = buffer, a2 = bytes, a3 = uint32_t *port or 0 */
	PT_UK_OP_COUNT,
};

/* open flags (the UK maps them to the host's) */
#define PT_UK_O_RDONLY 0x0u
#define PT_UK_O_WRONLY 0x1u
#define PT_UK_O_RDWR 0x2u
#define PT_UK_O_CREAT 0x100u
#define PT_UK_O_TRUNC 0x200u
#define PT_UK_O_APPEND 0x400u
#define PT_UK_O_EXCL 0x800u

/* Results: >= 0 success; PT_UK_ENOUK.. are the PK's own; host errors are PT_UK_ERRNO(e). */
#define PT_UK_ENOUK (-32)   /* no UK serves the mailbox (PT_ENOSYS-like): never a hang */
#define PT_UK_EDEAD (-33)   /* the UK went away while the request was pending */
#define PT_UK_EFULL (-34)   /* the hart's request ring is full */
#define PT_UK_ETIMEOUT (-35) /* no reply within the configured timeout */
#define PT_UK_EBADREQ (-36) /* the UK refused the record (bad op, id, pointer, length) */
#define PT_UK_ERRNO_BASE (-1000)
#define PT_UK_ERRNO(e) (PT_UK_ERRNO_BASE - (int64_t)(e)) /* a host errno e, e.g. ENOENT */

struct pt_uk_stat {
	uint64_t size_bytes;
	uint32_t mode; /* host st_mode: file type and permission bits */
	uint32_t pad;
	uint64_t mtime_ns;
};

struct pt_uk_req { /* 64 bytes */
	uint32_t seq;  /* nonzero; the reply carries it back */
	uint16_t op;   /* enum pt_uk_op */
	uint16_t part; /* caller's partition index (its pid) */
	uint32_t tid;
	uint32_t epoch; /* area.uk_epoch when sent: a reply from a later UK is not ours */
	uint64_t as;    /* caller's address space: Sv39 satp value (PPN in bits 0..43, ASID) */
	uint64_t arg[5];
};

struct pt_uk_rep { /* 32 bytes */
	uint32_t seq;
	uint16_t op;
	uint16_t part;
	uint32_t tid;
	uint32_t pad;
	int64_t result;
	uint64_t val; /* second result word, op-specific (unused: 0) */
};

struct pt_uk_idx { /* a ring's indices, each on its own 64-byte line */
	volatile uint32_t head;
	uint32_t pad0[15];
	volatile uint32_t tail;
	uint32_t pad1[15];
};

struct pt_uk_chan {
	struct pt_uk_idx req_idx;
	struct pt_uk_req req[PT_UK_RING_SLOTS];
	struct pt_uk_idx rep_idx;
	struct pt_uk_rep rep[PT_UK_RING_SLOTS];
	volatile uint32_t rep_lock; /* PK side only: which hart drains the reply ring */
	uint32_t pad[15];
};

/* UK states (uk_state) */
enum { PT_UK_ABSENT = 0, PT_UK_SERVING = 1 };

struct pt_uk_area {
	uint64_t magic;   /* PT_UK_MAGIC, in .data: present as soon as QEMU loads the image */
	uint32_t version; /* PT_UK_ABI_VERSION */
	uint32_t nharts;  /* channels in use */
	uint64_t reserved[2];
	/* written by the UK */
	volatile uint32_t uk_state; /* PT_UK_ABSENT / PT_UK_SERVING */
	volatile uint32_t uk_epoch; /* +1 at every UK start: requests of an earlier UK die */
	volatile uint64_t uk_heartbeat; /* +1 per UK loop pass (liveness, for the host) */
	volatile uint64_t uk_served, uk_refused; /* requests answered / answered with EBADREQ */
	/* written by the PK */
	volatile uint64_t pk_sent, pk_replied, pk_failed; /* failed: ENOUK / EDEAD / timeout */
	uint64_t pad[5];
	struct pt_uk_chan chan[PT_UK_MAX_HARTS];
};

_Static_assert(sizeof(struct pt_uk_req) == 64, "request record is 64 bytes");
_Static_assert(sizeof(struct pt_uk_rep) == 32, "reply record is 32 bytes");
_Static_assert(sizeof(struct pt_uk_idx) == 128, "indices on their own lines");
_Static_assert(sizeof(struct pt_uk_stat) == 24, "stat record");
_Static_assert((PT_UK_RING_SLOTS & (PT_UK_RING_SLOTS - 1)) == 0, "ring size a power of two");
_Static_assert(sizeof(struct pt_uk_area) % 64 == 0, "area in whole lines");

/* The delegated system calls of subsys/uk: PT_SYS_UK_FIRST + op (op = enum pt_uk_op), and
 * PT_SYS_UK_GETPID_LOCAL, getpid served by the PK alone. Numbers 80..111 belong to uk. */
#define PT_SYS_UK_FIRST 80u
#define PT_SYS_UK_GETPID_LOCAL (PT_SYS_UK_FIRST + 31u)
#define PT_SYS_UK_COUNT 32u

#endif
