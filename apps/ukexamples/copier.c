/*
 * Example of a process using the user-level kernel (docs/proxy-kernel.md): copy the sandbox
 * file "in.bin" to "copy.bin" through the UK, 1 KiB at a time, and print how many bytes were
 * copied (or the first error). Runs in a user partition of a configuration with a `uk:`
 * section (tests/system/uk/uk.yaml runs it).
 */
#include <stdint.h>
#include <partita/printf.h>
#include <partita/uk.h>

static char chunk[1024];

void uk_copier(void *arg)
{
	(void)arg;
	long in = uk_open("in.bin", PT_UK_O_RDONLY, 0);
	long out = uk_open("copy.bin", PT_UK_O_WRONLY | PT_UK_O_CREAT | PT_UK_O_TRUNC, 0644);
	long total = 0, n = 0;
	if (in < 0 || out < 0) {
		pt_printf("ukcopy error %ld", in < 0 ? in : out);
		return;
	}
	while ((n = uk_read(in, chunk, sizeof(chunk))) > 0) {
		long w = uk_write(out, chunk, (unsigned long)n);
		if (w != n) {
			n = w < 0 ? w : -1;
			break;
		}
		total += n;
	}
	uk_close(in);
	uk_close(out);
	pt_printf("ukcopy bytes %ld %ld", total, n);
}
