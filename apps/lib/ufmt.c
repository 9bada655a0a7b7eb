#include "ufmt.h"

#include <partita/api.h>

void pt_ufmt_str(char *b, int *n, const char *s)
{
	while (*s)
		b[(*n)++] = *s++;
}

void pt_ufmt_u64(char *b, int *n, uint64_t v)
{
	char t[20];
	int i = 0;
	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		b[(*n)++] = t[--i];
}

void pt_ufmt_i64(char *b, int *n, int64_t v)
{
	/* negate in unsigned arithmetic: INT64_MIN has no positive int64 counterpart */
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		b[(*n)++] = '-';
		u = 0 - u;
	}
	pt_ufmt_u64(b, n, u);
}

void pt_usay(const char *s)
{
	size_t len = 0;
	while (s[len])
		len++;
	pt_console_write(s, len);
}
