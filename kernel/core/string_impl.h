/* Included twice by string.c with SEC (section attribute) and NAME(x) (symbol name) set. */
SEC void *NAME(memset)(void *d, int c, size_t n)
{
	uint8_t *p = d;
	if (((uintptr_t)p & 7) == 0 && (n & 7) == 0) {
		uint64_t v = (uint8_t)c;
		/* the barrier keeps GCC from turning the shifts into a multiply by a constant
		 * loaded from .rodata, which the user window's copy cannot read (a U-mode
		 * memset of a multiple of 8 bytes faulted) */
		__asm__("" : "+r"(v));
		v |= v << 8;
		v |= v << 16;
		v |= v << 32;
		uint64_t *q = d;
		for (; n >= 32; n -= 32, q += 4) { /* unrolled: a thread control block is ~660 B */
			q[0] = v;
			q[1] = v;
			q[2] = v;
			q[3] = v;
		}
		for (; n; n -= 8)
			*q++ = v;
		return d;
	}
	while (n--)
		*p++ = (uint8_t)c;
	return d;
}

SEC void *NAME(memcpy)(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;
	if ((((uintptr_t)dp | (uintptr_t)sp | n) & 7) == 0) {
		uint64_t *dq = d;
		const uint64_t *sq = s;
		for (; n; n -= 8)
			*dq++ = *sq++;
		return d;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

SEC void *NAME(memmove)(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;
	if (dp < sp || dp >= sp + n) {
		while (n--)
			*dp++ = *sp++;
	} else {
		while (n--)
			dp[n] = sp[n];
	}
	return d;
}

SEC int NAME(memcmp)(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

SEC size_t NAME(strlen)(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}
