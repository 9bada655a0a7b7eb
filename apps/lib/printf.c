/*
 * pt_printf through the trace (partita/printf.h explains why not the console). Lives in the
 * user window (apps/), so user and kernel threads share it; it allocates nothing and keeps
 * no state: every call is independent and reentrant.
 */
#include <partita/api.h>
#include <partita/printf.h>

struct out {
	char *b;
	size_t n, cap; /* invariant: n <= cap; b[cap] is reserved for the NUL */
};

static void put(struct out *o, char c)
{
	if (o->n < o->cap)
		o->b[o->n++] = c;
}

static void put_num(struct out *o, uint64_t v, unsigned base, int upper, int neg, int width,
		    char pad)
{
	char t[24];
	int i = 0;
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	do {
		t[i++] = dig[v % base];
		v /= base;
	} while (v);
	int len = i + neg;
	if (neg && pad == '0')
		put(o, '-');
	for (; width > len; width--)
		put(o, pad);
	if (neg && pad != '0')
		put(o, '-');
	while (i)
		put(o, t[--i]);
}

int pt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	if (size == 0)
		return 0;
	struct out o = { buf, 0, size - 1 };
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		p++;
		char pad = ' ';
		int width = 0, lng = 0;
		if (*p == '0') {
			pad = '0';
			p++;
		}
		while (*p >= '0' && *p <= '9')
			width = width * 10 + (*p++ - '0');
		while (*p == 'l' || *p == 'z') {
			lng++;
			p++;
		}
		switch (*p) {
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
			/* negate in unsigned arithmetic: INT64_MIN has no positive counterpart */
			uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			put_num(&o, u, 10, 0, v < 0, width, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned);
			put_num(&o, v, *p == 'u' ? 10 : 16, *p == 'X', 0, width, pad);
			break;
		}
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), 16, 0, 0, width, pad);
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			while (*s)
				put(&o, *s++);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		case '\0':
			p--; /* a lone '%' at the end: stop at the NUL */
			break;
		default: /* unknown conversion: shown as written, so the mistake is visible */
			put(&o, '%');
			put(&o, *p);
			break;
		}
	}
	buf[o.n] = '\0';
	return (int)o.n;
}

int pt_printf(const char *fmt, ...)
{
	char b[PT_PRINTF_MAX + 1 + 15]; /* + NUL + padding to whole records */
	va_list ap;
	va_start(ap, fmt);
	int n = pt_vsnprintf(b, PT_PRINTF_MAX + 1, fmt, ap);
	va_end(ap);
	for (int i = n; i < n + 15; i++)
		b[i] = '\0';
	/* 15 bytes per record, the last one holds at least one NUL (the end of the line) */
	for (int i = 0; i <= n; i += 15) {
		uint64_t a0 = (uint64_t)PT_PRINTF_TAG << 56, a1 = 0;
		for (int k = 0; k < 7; k++)
			a0 |= (uint64_t)(uint8_t)b[i + k] << (8 * k);
		for (int k = 0; k < 8; k++)
			a1 |= (uint64_t)(uint8_t)b[i + 7 + k] << (8 * k);
		pt_trace_mark(a0, a1);
	}
	return n;
}
