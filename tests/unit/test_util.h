/* Shared helpers for the unit tests: cmocka includes and a seeded PRNG (splitmix64). */
#ifndef PARTITA_TESTS_UTIL_H
#define PARTITA_TESTS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint64_t rng_below(struct rng *r, uint64_t n) { return rng_next(r) % n; }

static inline unsigned log2_ceil(uint64_t n)
{
	unsigned k = 0;

	while ((1ull << k) < n)
		k++;
	return k;
}

#endif
