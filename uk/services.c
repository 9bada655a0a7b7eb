/*
 * The UK's services: getpid, files confined to the sandbox directory, pipes.
 *
 * Confinement: a path is relative, at most PT_UK_PATH_MAX bytes, has no ".." component, and
 * is opened with openat2(sandbox, path, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): the kernel
 * refuses any resolution (symlinks included) that leaves the sandbox. Descriptors are per
 * process (partition index): a process names only its own. Every pointer is translated
 * through the caller's own page tables (guest.c); a bad one is PT_UK_EBADREQ.
 */
#define _GNU_SOURCE
#include "uk.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int uk_verbose;
static int sandbox_fd = -1;

enum { FD_FREE = 0, FD_FILE, FD_PIPE_R, FD_PIPE_W, FD_UDP };
struct ukfd {
	uint8_t kind;
	int host; /* FD_FILE: host descriptor; pipes: pipe index */
};
static struct ukfd fds[UK_MAX_PARTS][UK_MAX_FDS];

#define PIPES 16u
#define PIPE_BYTES 4096u
#define PARKED 64u
struct pipe {
	int used;
	char name[32]; /* "" anonymous */
	uint8_t buf[PIPE_BYTES];
	uint32_t head, tail; /* bytes in = head - tail */
	uint32_t readers, writers;
};
static struct pipe pipes[PIPES];

/* Requests waiting for a pipe (a read with no data, a write with no room). */
static struct parked {
	int used;
	uint32_t hart;
	uint64_t recv_ns;
	struct pt_uk_req q;
} parked[PARKED];

int uk_sandbox_open(const char *dir)
{
	sandbox_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return sandbox_fd < 0 ? -errno : 0;
}

static int64_t err(int e) { return PT_UK_ERRNO(e); }

/* The caller's path, checked: relative, no "..", NUL inside PT_UK_PATH_MAX. */
static int64_t get_path(const struct pt_uk_req *q, uint64_t va, char *path)
{
	int n = guest_string(q->as, va, path, PT_UK_PATH_MAX);
	if (n < 0)
		return PT_UK_EBADREQ;
	if (n == 0 || path[0] == '/')
		return err(EPERM);
	for (const char *c = path; *c;) {
		const char *e = strchr(c, '/');
		size_t len = e ? (size_t)(e - c) : strlen(c);
		if (len == 2 && c[0] == '.' && c[1] == '.')
			return err(EPERM);
		c += len + (e ? 1 : 0);
	}
	return 0;
}

static int open_beneath(const char *path, uint64_t flags, uint64_t mode)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode & 0777) : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, sandbox_fd, path, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

static int fd_alloc(uint32_t part)
{
	for (int i = 0; i < (int)UK_MAX_FDS; i++)
		if (fds[part][i].kind == FD_FREE)
			return i;
	return -1;
}

static struct ukfd *fd_get(uint32_t part, uint64_t fd)
{
	if (fd >= UK_MAX_FDS || fds[part][fd].kind == FD_FREE)
		return NULL;
	return &fds[part][fd];
}

static int64_t op_open(const struct pt_uk_req *q)
{
	char path[PT_UK_PATH_MAX];
	int64_t r = get_path(q, q->arg[0], path);
	if (r)
		return r;
	uint64_t f = q->arg[1];
	if (f & ~(uint64_t)(3u | PT_UK_O_CREAT | PT_UK_O_TRUNC | PT_UK_O_APPEND | PT_UK_O_EXCL) ||
	    (f & 3u) == 3u)
		return err(EINVAL);
	int flags = ((f & 3u) == PT_UK_O_WRONLY ? O_WRONLY : (f & 3u) == PT_UK_O_RDWR ? O_RDWR : O_RDONLY) |
		    (f & PT_UK_O_CREAT ? O_CREAT : 0) | (f & PT_UK_O_TRUNC ? O_TRUNC : 0) |
		    (f & PT_UK_O_APPEND ? O_APPEND : 0) | (f & PT_UK_O_EXCL ? O_EXCL : 0) | O_NOCTTY;
	int slot = fd_alloc(q->part);
	if (slot < 0)
		return err(EMFILE);
	/* O_NONBLOCK: opening a fifo that sits in the sandbox must not block the UK */
	int h = open_beneath(path, (uint64_t)flags | O_NONBLOCK, q->arg[2]);
	if (h < 0)
		return err(-h);
	struct stat st;
	if (fstat(h, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		close(h); /* no fifos, devices or sockets that happen to sit in the sandbox */
		return err(EPERM);
	}
	fcntl(h, F_SETFL, fcntl(h, F_GETFL) & ~O_NONBLOCK);
	fds[q->part][slot] = (struct ukfd){FD_FILE, h};
	return slot;
}

static int64_t op_stat(const struct pt_uk_req *q)
{
	char path[PT_UK_PATH_MAX];
	int64_t r = get_path(q, q->arg[0], path);
	if (r)
		return r;
	int h = open_beneath(path, O_PATH, 0);
	if (h < 0)
		return err(-h);
	struct stat st;
	int rc = fstat(h, &st);
	close(h);
	if (rc)
		return err(errno);
	struct pt_uk_stat out = {(uint64_t)st.st_size, st.st_mode, 0,
				 (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec};
	return guest_copy_out(q->as, q->arg[1], &out, sizeof(out)) ? PT_UK_EBADREQ : 0;
}

static int64_t op_unlink(const struct pt_uk_req *q)
{
	char path[PT_UK_PATH_MAX];
	int64_t r = get_path(q, q->arg[0], path);
	if (r)
		return r;
	char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || !strcmp(base, "."))
		return err(EINVAL);
	int dir = sandbox_fd, own = 0;
	if (slash) {
		*slash = 0;
		dir = open_beneath(path, O_PATH | O_DIRECTORY, 0);
		if (dir < 0)
			return err(-dir);
		own = 1;
	}
	int rc = unlinkat(dir, base, 0);
	int e = errno;
	if (own)
		close(dir);
	return rc ? err(e) : 0;
}

/* Read into a user buffer, one page-bounded piece at a time (no bounce copy). */
static int64_t file_read(const struct pt_uk_req *q, int h)
{
	uint64_t va = q->arg[1], n = q->arg[2], done = 0;
	if (n > PT_UK_IO_MAX)
		n = PT_UK_IO_MAX;
	/* check the whole buffer first: a bad one is refused before any byte moves */
	for (uint64_t off = 0, c; off < n; off += c)
		if (!guest_user(q->as, va + off, n - off, 1, &c))
			return PT_UK_EBADREQ;
	while (done < n) {
		uint64_t c;
		uint8_t *p = guest_user(q->as, va + done, n - done, 1, &c);
		ssize_t k = read(h, p, c);
		if (k < 0)
			return done ? (int64_t)done : err(errno);
		done += (uint64_t)k;
		if ((uint64_t)k < c)
			break;
	}
	return (int64_t)done;
}

static int64_t do_write_file(const struct pt_uk_req *q, int h)
{
	uint64_t va = q->arg[1], n = q->arg[2], done = 0;
	if (n > PT_UK_IO_MAX)
		n = PT_UK_IO_MAX;
	for (uint64_t off = 0, c; off < n; off += c)
		if (!guest_user(q->as, va + off, n - off, 0, &c))
			return PT_UK_EBADREQ;
	while (done < n) {
		uint64_t c;
		uint8_t *p = guest_user(q->as, va + done, n - done, 0, &c);
		ssize_t k = write(h, p, c);
		if (k < 0)
			return done ? (int64_t)done : err(errno);
		done += (uint64_t)k;
		if ((uint64_t)k < c)
			break;
	}
	return (int64_t)done;
}

/* Pipe transfer; -EAGAIN-like 1 in *park when it must wait. */
static int64_t pipe_io(const struct pt_uk_req *q, struct pipe *p, int write, int *park)
{
	uint64_t va = q->arg[1], n = q->arg[2];
	if (n > PT_UK_IO_MAX)
		n = PT_UK_IO_MAX;
	for (uint64_t off = 0, c; off < n; off += c)
		if (!guest_user(q->as, va + off, n - off, !write, &c))
			return PT_UK_EBADREQ;
	uint32_t have = p->head - p->tail;
	if (n == 0)
		return 0;
	if (write) {
		if (!p->readers)
			return err(EPIPE);
		if (have == PIPE_BYTES) {
			*park = 1;
			return 0;
		}
		uint64_t k = n < PIPE_BYTES - have ? n : PIPE_BYTES - have;
		for (uint64_t i = 0; i < k;) {
			uint64_t c;
			uint8_t *s = guest_user(q->as, va + i, k - i, 0, &c);
			for (uint64_t j = 0; j < c; j++)
				p->buf[(p->head + j) % PIPE_BYTES] = s[j];
			p->head += (uint32_t)c, i += c;
		}
		return (int64_t)k;
	}
	if (!have) {
		if (p->writers)
			*park = 1;
		return 0; /* end of data once every write end is closed */
	}
	uint64_t k = n < have ? n : have;
	for (uint64_t i = 0; i < k;) {
		uint64_t c;
		uint8_t *d = guest_user(q->as, va + i, k - i, 1, &c);
		for (uint64_t j = 0; j < c; j++)
			d[j] = p->buf[(p->tail + j) % PIPE_BYTES];
		p->tail += (uint32_t)c, i += c;
	}
	return (int64_t)k;
}

static int64_t op_pipe(const struct pt_uk_req *q)
{
	char name[32] = "";
	if (q->arg[0]) {
		int n = guest_string(q->as, q->arg[0], name, sizeof(name));
		if (n <= 0)
			return n < 0 ? PT_UK_EBADREQ : err(EINVAL);
	}
	int32_t out[2];
	int idx = -1;
	for (int i = 0; i < (int)PIPES && name[0]; i++)
		if (pipes[i].used && !strcmp(pipes[i].name, name))
			idx = i;
	if (idx < 0)
		for (int i = 0; i < (int)PIPES; i++)
			if (!pipes[i].used) {
				idx = i;
				memset(&pipes[i], 0, sizeof(pipes[i]));
				pipes[i].used = 1;
				memcpy(pipes[i].name, name, sizeof(name));
				break;
			}
	if (idx < 0)
		return err(ENFILE);
	int r = fd_alloc(q->part);
	if (r < 0)
		return err(EMFILE);
	fds[q->part][r].kind = FD_PIPE_R;
	int w = fd_alloc(q->part);
	if (w < 0) {
		fds[q->part][r].kind = FD_FREE;
		return err(EMFILE);
	}
	fds[q->part][r].host = idx;
	fds[q->part][w] = (struct ukfd){FD_PIPE_W, idx};
	pipes[idx].readers++, pipes[idx].writers++;
	out[0] = r, out[1] = w;
	if (guest_copy_out(q->as, q->arg[1], out, sizeof(out))) {
		fds[q->part][r].kind = fds[q->part][w].kind = FD_FREE;
		pipes[idx].readers--, pipes[idx].writers--;
		return PT_UK_EBADREQ;
	}
	return 0;
}

static void wake_parked(int pipe_idx);

static int64_t op_close(const struct pt_uk_req *q)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f)
		return err(EBADF);
	int kind = f->kind, h = f->host;
	f->kind = FD_FREE;
	if (kind == FD_FILE || kind == FD_UDP) {
		int rc = close(h) ? err(errno) : 0;
		if (kind == FD_UDP)
			uk_poll_parked(); /* a receive parked on it now fails with EBADF */
		return rc;
	}
	struct pipe *p = &pipes[h];
	if (kind == FD_PIPE_R)
		p->readers--;
	else
		p->writers--;
	if (!p->readers && !p->writers && !p->name[0])
		p->used = 0; /* anonymous: gone with its last end; named ones persist */
	wake_parked(h);
	return 0;
}

static int64_t op_rw(const struct pt_uk_req *q, int write, int *park)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f)
		return err(EBADF);
	if (f->kind == FD_FILE)
		return write ? do_write_file(q, f->host) : file_read(q, f->host);
	if (f->kind != (write ? FD_PIPE_W : FD_PIPE_R))
		return err(EBADF);
	int64_t r = pipe_io(q, &pipes[f->host], write, park);
	if (r > 0)
		wake_parked(f->host);
	return r;
}

static int64_t op_lseek(const struct pt_uk_req *q)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f || f->kind != FD_FILE)
		return err(f ? ESPIPE : EBADF);
	if (q->arg[2] > 2)
		return err(EINVAL);
	off_t o = lseek(f->host, (off_t)q->arg[1], (int)q->arg[2]);
	return o < 0 ? err(errno) : (int64_t)o;
}

/* UDP on the loopback only: sockets bind to and send to 127.0.0.1, never elsewhere. */
static int64_t op_socket(const struct pt_uk_req *q)
{
	int slot = fd_alloc(q->part);
	if (slot < 0)
		return err(EMFILE);
	int h = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h < 0)
		return err(errno);
	fds[q->part][slot] = (struct ukfd){FD_UDP, h};
	return slot;
}

static struct sockaddr_in loopback(uint64_t port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int64_t op_bind(const struct pt_uk_req *q)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f || f->kind != FD_UDP)
		return err(f ? ENOTSOCK : EBADF);
	if (q->arg[1] > 65535)
		return err(EINVAL);
	struct sockaddr_in a = loopback(q->arg[1]);
	if (bind(f->host, (struct sockaddr *)&a, sizeof(a)))
		return err(errno);
	socklen_t len = sizeof(a);
	if (getsockname(f->host, (struct sockaddr *)&a, &len))
		return err(errno);
	return ntohs(a.sin_port);
}

static int64_t op_sendto(const struct pt_uk_req *q)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f || f->kind != FD_UDP)
		return err(f ? ENOTSOCK : EBADF);
	if (q->arg[3] == 0 || q->arg[3] > 65535 || q->arg[2] > 65507)
		return err(EINVAL);
	static uint8_t dgram[65536];
	if (guest_copy_in(q->as, dgram, q->arg[1], q->arg[2]))
		return PT_UK_EBADREQ;
	struct sockaddr_in a = loopback(q->arg[3]);
	ssize_t n = sendto(f->host, dgram, q->arg[2], 0, (struct sockaddr *)&a, sizeof(a));
	return n < 0 ? err(errno) : n;
}

/* *park = 1 when nothing has arrived yet (retried by uk_poll_parked). */
static int64_t op_recvfrom(const struct pt_uk_req *q, int *must_park)
{
	struct ukfd *f = fd_get(q->part, q->arg[0]);
	if (!f || f->kind != FD_UDP)
		return err(f ? ENOTSOCK : EBADF);
	uint64_t n = q->arg[2] < 65536 ? q->arg[2] : 65536;
	uint64_t c;
	for (uint64_t off = 0; off < n; off += c) /* the whole buffer, before anything arrives */
		if (!guest_user(q->as, q->arg[1] + off, n - off, 1, &c))
			return PT_UK_EBADREQ;
	if (q->arg[3] && (!guest_user(q->as, q->arg[3], 4, 1, &c) || c < 4))
		return PT_UK_EBADREQ;
	static uint8_t dgram[65536];
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	ssize_t k = recvfrom(f->host, dgram, n, 0, (struct sockaddr *)&a, &len);
	if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		*must_park = 1;
		return 0;
	}
	if (k < 0)
		return err(errno);
	uint32_t port = ntohs(a.sin_port);
	if (guest_copy_out(q->as, q->arg[1], dgram, (uint64_t)k) ||
	    (q->arg[3] && guest_copy_out(q->as, q->arg[3], &port, 4)))
		return PT_UK_EBADREQ;
	return k;
}

static int park(const struct pt_uk_req *q, uint32_t hart)
{
	for (unsigned i = 0; i < PARKED; i++)
		if (!parked[i].used) {
			parked[i] = (struct parked){1, hart, uk_now_ns(), *q};
			return 1;
		}
	return 0;
}

/* Retry every parked request on pipe `pipe_idx` (data, room or an end changed). */
static void wake_parked(int pipe_idx)
{
	for (int again = 1; again;) {
		again = 0;
		for (unsigned i = 0; i < PARKED; i++) {
			if (!parked[i].used)
				continue;
			struct ukfd *f = fd_get(parked[i].q.part, parked[i].q.arg[0]);
			if (f && (f->kind == FD_UDP || (f->kind != FD_FILE && f->host != pipe_idx)))
				continue;
			struct parked pk = parked[i];
			parked[i].used = 0;
			struct pt_uk_rep rep;
			if (uk_serve(&pk.q, pk.hart, &rep)) {
				uk_reply(pk.hart, &rep);
				uk_timing(&pk.q, pk.recv_ns, rep.result);
				again = 1;
			} else {
				parked[i].recv_ns = pk.recv_ns; /* parked again: keep its arrival */
			}
		}
	}
}

static void cancel(const struct pt_uk_req *q)
{
	for (unsigned i = 0; i < PARKED; i++)
		if (parked[i].used && parked[i].q.seq == q->arg[0] && parked[i].q.tid == q->tid)
			parked[i].used = 0;
}

/* Retry the parked receives on UDP sockets (every polling pass); the number answered. */
int uk_poll_parked(void)
{
	int n = 0;
	for (unsigned i = 0; i < PARKED; i++) {
		if (!parked[i].used || parked[i].q.op != PT_UK_OP_RECVFROM)
			continue;
		struct parked pk = parked[i];
		parked[i].used = 0;
		struct pt_uk_rep rep;
		if (uk_serve(&pk.q, pk.hart, &rep)) {
			uk_reply(pk.hart, &rep);
			uk_timing(&pk.q, pk.recv_ns, rep.result);
			n++;
		} else {
			/* parked again, maybe in another slot: keep its arrival time */
			for (unsigned j = 0; j < PARKED; j++)
				if (parked[j].used && parked[j].q.seq == pk.q.seq && parked[j].q.tid == pk.q.tid)
					parked[j].recv_ns = pk.recv_ns;
		}
	}
	return n;
}

int uk_serve(const struct pt_uk_req *q, uint32_t hart, struct pt_uk_rep *rep)
{
	*rep = (struct pt_uk_rep){.seq = q->seq, .op = q->op, .part = q->part, .tid = q->tid};
	int64_t r;
	int must_park = 0;
	if (q->part >= UK_MAX_PARTS || !q->as || q->op == 0 || q->op >= PT_UK_OP_COUNT) {
		r = PT_UK_EBADREQ;
	} else {
		switch (q->op) {
		case PT_UK_OP_GETPID: r = q->part; break;
		case PT_UK_OP_OPEN: r = op_open(q); break;
		case PT_UK_OP_READ: r = op_rw(q, 0, &must_park); break;
		case PT_UK_OP_WRITE: r = op_rw(q, 1, &must_park); break;
		case PT_UK_OP_CLOSE: r = op_close(q); break;
		case PT_UK_OP_LSEEK: r = op_lseek(q); break;
		case PT_UK_OP_STAT: r = op_stat(q); break;
		case PT_UK_OP_PIPE: r = op_pipe(q); break;
		case PT_UK_OP_UNLINK: r = op_unlink(q); break;
		case PT_UK_OP_CANCEL: cancel(q); return 0; /* no reply: its waiter is gone */
		case PT_UK_OP_SOCKET: r = op_socket(q); break;
		case PT_UK_OP_BIND: r = op_bind(q); break;
		case PT_UK_OP_SENDTO: r = op_sendto(q); break;
		case PT_UK_OP_RECVFROM: r = op_recvfrom(q, &must_park); break;
		default: r = PT_UK_EBADREQ;
		}
	}
	if (must_park) {
		if (park(q, hart))
			return 0;
		r = err(EAGAIN);
	}
	rep->result = r;
	if (r == PT_UK_EBADREQ)
		__atomic_fetch_add(&g.area->uk_refused, 1, __ATOMIC_RELAXED);
	if (uk_verbose)
		fprintf(stderr, "uk: part %u tid %u op %u -> %lld\n", q->part, q->tid, q->op,
			(long long)r);
	return 1;
}
