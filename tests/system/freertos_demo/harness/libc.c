/* strcmp, rand and a sprintf of the formats the demo files use (%d, %lu), for the harness. */
#include <stdarg.h>
#include <stdint.h>
#include "stdio.h"
#include "stdlib.h"
#include "string.h"

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

static uint32_t seed = 12345;
int rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return (int)((seed >> 16) & 0x7fff);
}

int sprintf(char *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *o = s;
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			*o++ = *fmt;
			continue;
		}
		fmt++;
		int is_long = 0;
		while (*fmt == 'l')
			is_long = 1, fmt++;
		uint64_t v;
		int neg = 0;
		if (*fmt == 'd') {
			int64_t x = is_long ? va_arg(ap, long) : va_arg(ap, int);
			neg = x < 0;
			v = neg ? (uint64_t)-x : (uint64_t)x;
		} else if (*fmt == 'u') {
			v = is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
		} else {
			*o++ = *fmt; /* not used by the demos */
			continue;
		}
		char t[24];
		int k = 0;
		do
			t[k++] = (char)('0' + v % 10);
		while (v /= 10);
		if (neg)
			*o++ = '-';
		while (k)
			*o++ = t[--k];
	}
	*o = 0;
	va_end(ap);
	return (int)(o - s);
}
