/*
 * Processes using the user-level kernel through the proxy kernel (test_sys_uk.py, uk.yaml):
 * uk_client checks getpid (local and delegated), files in the sandbox, hostile paths and
 * pointers, and writes into a named pipe that uk_reader (another partition, another hart)
 * reads; rt_task is the fixed real-time set, which never calls the UK. Every result is
 * printed (pt_printf, print.log) as `uk KEY VALUE` for the test to check.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/printf.h>
#include <partita/uk.h>

static char buf[512];
static const char msg[] = "written by a Partita process through the UK\n";

static long same(const char *a, const char *b, long n)
{
	for (long i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

void uk_client(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20 && uk_getpid() == PT_UK_ENOUK; i++)
		pt_sleep_ns(100000); /* a UK started with QEMU may need a moment to map the RAM */
	pt_printf("uk getpid_local %ld", uk_getpid_local());
	pt_printf("uk getpid %ld", uk_getpid());

	long fd = uk_open("out.txt", PT_UK_O_WRONLY | PT_UK_O_CREAT | PT_UK_O_TRUNC, 0644);
	pt_printf("uk open_out %ld", fd >= 0 ? 0L : fd);
	long total = 0;
	for (int i = 0; i < 3; i++)
		total += uk_write(fd, msg, sizeof(msg) - 1);
	pt_printf("uk write_total %ld", total);
	pt_printf("uk close %ld", uk_close(fd));

	fd = uk_open("out.txt", PT_UK_O_RDONLY, 0);
	long n = uk_read(fd, buf, sizeof(buf));
	pt_printf("uk read_back %ld %ld", n, n == 3 * (long)(sizeof(msg) - 1) ? same(buf, msg, sizeof(msg) - 1) : 0L);
	pt_printf("uk lseek %ld", uk_lseek(fd, 6, 0));
	n = uk_read(fd, buf, 4);
	pt_printf("uk read_at6 %ld %ld", n, same(buf, msg + 6, 4));
	pt_printf("uk close2 %ld", uk_close(fd));
	pt_printf("uk close_again %ld", uk_close(fd));

	struct pt_uk_stat st;
	long r = uk_stat("in.txt", &st);
	pt_printf("uk stat_in %ld %lu", r, (unsigned long)st.size_bytes);
	fd = uk_open("in.txt", PT_UK_O_RDONLY, 0);
	n = uk_read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	pt_printf("uk in_txt %s", buf);
	uk_close(fd);

	/* hostile: paths out of the sandbox, pointers outside the caller's memory */
	pt_printf("uk dotdot %ld", uk_open("../escape.txt", PT_UK_O_WRONLY | PT_UK_O_CREAT, 0644));
	pt_printf("uk absolute %ld", uk_open("/etc/passwd", PT_UK_O_RDONLY, 0));
	pt_printf("uk symlink %ld", uk_open("link/escape.txt", PT_UK_O_WRONLY | PT_UK_O_CREAT, 0644));
	pt_printf("uk symlink_file %ld", uk_open("filelink", PT_UK_O_RDONLY, 0));
	pt_printf("uk kernel_ptr %ld", uk_open((const char *)0x80000000ul, PT_UK_O_RDONLY, 0));
	fd = uk_open("in.txt", PT_UK_O_RDONLY, 0);
	pt_printf("uk read_to_text %ld", uk_read(fd, (void *)uk_client, 8)); /* read-only page */
	pt_printf("uk bad_fd %ld", uk_read(77, buf, 8));
	uk_close(fd);

	/* a named pipe to uk_reader, in another partition on another hart */
	int32_t fds[2] = {-1, -1};
	pt_printf("uk pipe_w %ld", uk_pipe("chan", fds));
	uk_close(fds[0]);
	for (int i = 0; i < 4; i++) {
		char m[8] = {'p', 'i', 'n', 'g', (char)('0' + i), 0};
		uk_write(fds[1], m, 5);
		pt_sleep_ns(200000);
	}
	uk_close(fds[1]); /* the reader then sees the end */

	/* a read nobody will ever answer: the configured timeout ends it, and the UK is told to
	 * forget it (a later writer's bytes must not go to a reader that left) */
	pt_printf("uk pipe_never %ld", uk_pipe("never", fds));
	long t0 = (long)(pt_time_cycles() << pt_time_shift());
	long r2 = uk_read(fds[0], buf, 8);
	pt_printf("uk timeout %ld %ld", r2, ((long)(pt_time_cycles() << pt_time_shift()) - t0) / 1000);
	pt_printf("uk after_timeout %ld", uk_getpid());
	pt_printf("uk client_done 1");
}

/* uk_kill.yaml: blocks in the UK until the UK is stopped, then calls it once more. */
void uk_blocker(void *arg)
{
	(void)arg;
	int32_t fds[2] = {-1, -1};
	long r = -1;
	for (int i = 0; i < 1000 && (r = uk_pipe("forever", fds)) == PT_UK_ENOUK; i++)
		pt_sleep_ns(1000000); /* the UK may come up after the guest */
	pt_printf("uk blocker_pipe %ld", r);
	pt_printf("uk blocker_read %ld", uk_read(fds[0], buf, 8));
	pt_printf("uk blocker_after %ld", uk_getpid());
}

void uk_reader(void *arg)
{
	(void)arg;
	int32_t fds[2] = {-1, -1};
	for (int i = 0; i < 20 && uk_getpid() == PT_UK_ENOUK; i++)
		pt_sleep_ns(100000);
	pt_printf("uk pipe_r %ld", uk_pipe("chan", fds));
	uk_close(fds[1]);
	long got = 0, n;
	char all[64];
	/* until the writer has joined, the pipe has no write end open and reads see its end:
	 * wait for the 20 bytes, then for the end the writer's close makes */
	for (int tries = 0; tries < 200; tries++) {
		n = uk_read(fds[0], all + got, sizeof(all) - 1 - got);
		if (n < 0 || (n == 0 && got >= 20))
			break;
		if (n == 0)
			pt_sleep_ns(100000);
		got += n > 0 ? n : 0;
	}
	all[got] = 0;
	pt_printf("uk pipe_data %s %ld", all, n);
	uk_close(fds[0]);
}

void uk_rt_task(void *arg)
{
	volatile uint64_t n = (uint64_t)arg;
	while (n)
		n--;
}
