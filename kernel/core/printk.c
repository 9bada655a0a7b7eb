/* Kernel console formatting: each call prints one piece atomically (hal_console_write). */
#include <stdarg.h>
#include "kernel.h"

struct buf {
	char b[256];
	size_t n;
};

static void put(struct buf *o, char c)
{
	if (o->n < sizeof(o->b))
		o->b[o->n++] = c;
}

static void put_u(struct buf *o, uint64_t v, unsigned base, int width, char pad)
{
	char tmp[24];
	int i = 0;
	do {
		tmp[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (i < width--)
		put(o, pad);
	while (i)
		put(o, tmp[--i]);
}

static int vfmt(struct buf *o, const char *f, va_list ap)
{
	for (; *f; f++) {
		if (*f != '%') {
			put(o, *f);
			continue;
		}
		f++;
		char pad = ' ';
		int width = 0, lng = 0;
		if (*f == '0')
			pad = '0', f++;
		while (*f >= '0' && *f <= '9')
			width = width * 10 + (*f++ - '0');
		while (*f == 'l')
			lng++, f++;
		switch (*f) {
		case 'd': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
			if (v < 0) {
				put(o, '-');
				v = -v;
			}
			put_u(o, (uint64_t)v, 10, width, pad);
			break;
		}
		case 'u':
			put_u(o, lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned), 10, width, pad);
			break;
		case 'x':
			put_u(o, lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned), 16, width, pad);
			break;
		case 'p':
			put(o, '0');
			put(o, 'x');
			put_u(o, (uintptr_t)va_arg(ap, void *), 16, 0, '0');
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			while (*s)
				put(o, *s++);
			break;
		}
		case 'c':
			put(o, (char)va_arg(ap, int));
			break;
		case '%':
			put(o, '%');
			break;
		default:
			put(o, '?');
		}
	}
	return (int)o->n;
}

int pt_printk(const char *fmt, ...)
{
	struct buf o = { .n = 0 };
	va_list ap;
	va_start(ap, fmt);
	vfmt(&o, fmt, ap);
	va_end(ap);
	hal_console_write(o.b, o.n);
	return (int)o.n;
}

_Noreturn void pt_panic(const char *fmt, ...)
{
	struct buf o = { .n = 0 };
	const char *p = "PANIC: ";
	while (*p)
		put(&o, *p++);
	va_list ap;
	va_start(ap, fmt);
	vfmt(&o, fmt, ap);
	va_end(ap);
	put(&o, '\n');
	hal_console_write(o.b, o.n);
	pt_trace_emit(PT_EV_SHUTDOWN, 0, PT_EXIT_PANIC, 0);
	pt_trace_set_exit_code(PT_EXIT_PANIC); /* the report must never say "exit code: 0" after a panic */
	hal_poweroff(PT_EXIT_PANIC);
}

_Noreturn void pt_assert_fail(const char *cond, const char *file, int line)
{
	pt_panic("assertion failed: %s (%s:%d)", cond, file, line);
}
