/*
 * Colored heaps end to end (heap.yaml, test_sys_heap.py):
 * OS-centric user threads, a user-centric user thread, an OS-centric kernel thread. Every
 * check prints one line "heap: ok NAME" or "heap: FAIL NAME got=X"; every block it keeps
 * prints "heap: blk part=P va=V color=C" so the host can walk the page tables to V and check
 * the physical page's color; every refusal the host also finds as a PT_EV_HEAP_ERROR record.
 */
#include <stdint.h>
#include <partita/api.h>
#include <partita/heap.h>

#include "lib/ufmt.h"

static void line3(const char *a, const char *b, int64_t v, int with_v)
{
	char buf[120];
	int n = 0;
	pt_ufmt_str(buf, &n, "heap: ");
	pt_ufmt_str(buf, &n, a);
	pt_ufmt_str(buf, &n, b);
	if (with_v) {
		pt_ufmt_str(buf, &n, " got=");
		pt_ufmt_i64(buf, &n, v);
	}
	buf[n++] = '\n';
	pt_console_write(buf, (size_t)n);
}

static void check(const char *name, int ok, int64_t got)
{
	line3(ok ? "ok " : "FAIL ", name, got, !ok);
}

static void blk(const char *part, const void *p)
{
	char buf[120];
	int n = 0;
	pt_ufmt_str(buf, &n, "heap: blk part=");
	pt_ufmt_str(buf, &n, part);
	pt_ufmt_str(buf, &n, " va=");
	pt_ufmt_u64(buf, &n, (uint64_t)(uintptr_t)p);
	pt_ufmt_str(buf, &n, " color=");
	pt_ufmt_i64(buf, &n, pt_heap_color_of(p));
	pt_ufmt_str(buf, &n, " tid=");
	pt_ufmt_i64(buf, &n, pt_thread_self());
	buf[n++] = '\n';
	pt_console_write(buf, (size_t)n);
}

static void fill(void *p, uint32_t n, uint8_t v)
{
	for (uint32_t i = 0; i < n; i++)
		((volatile uint8_t *)p)[i] = v;
}

static int filled(const void *p, uint32_t n, uint8_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (((const volatile uint8_t *)p)[i] != v)
			return 0;
	return 1;
}

/* Blocks of the common sizes and a 3-page run: all distinct, patterns intact, one color. */
static void os_round(const char *part, const char *tag)
{
	static const uint32_t sizes[] = { 16, 24, 64, 100, 256, 1000, 2048, 12000 };
	void *p[8];
	int ok = 1, color = -100;
	for (int i = 0; i < 8; i++) {
		p[i] = pt_malloc(sizes[i]);
		ok &= p[i] != 0;
		if (p[i]) {
			fill(p[i], sizes[i], (uint8_t)(i + 1));
			int c = pt_heap_color_of(p[i]);
			ok &= color == -100 || c == color; /* OS-centric: one color per thread */
			color = c;
			blk(part, p[i]);
		}
	}
	for (int i = 0; i < 8; i++)
		ok &= p[i] && filled(p[i], sizes[i], (uint8_t)(i + 1));
	check(tag, ok && color >= 0, color);
	int mode = pt_malloc_color(16, (unsigned)(color < 0 ? 0 : color)) == 0 &&
		   pt_heap_last_error() == PT_EHEAPMODE;
	check("os_refuses_malloc_color", mode, pt_heap_last_error());
	uint8_t *z = pt_calloc(100, 40);
	check("calloc_zeroed", z && filled(z, 4000, 0), pt_heap_last_error());
	check("calloc_overflow", pt_calloc((size_t)1 << 33, (size_t)1 << 33) == 0 &&
	      pt_heap_last_error() == PT_EOVERFLOW, pt_heap_last_error());
	for (int i = 0; i < 8; i++)
		ok &= pt_free(p[i]) == PT_OK;
	check("os_free_all", ok && pt_free(z) == PT_OK, pt_heap_last_error());
	/* kept: a block the host walks to after the run */
	void *keep = pt_malloc(300);
	if (keep)
		blk(part, keep);
}

void heap_os_user(void *arg)
{
	(void)arg;
	os_round("osp", "os_user_blocks");
}

void heap_os_kernel(void *arg)
{
	(void)arg;
	os_round("ksp", "os_kernel_blocks");
}

/* User-centric: colors by name, every refusal, exhaustion of one color, realloc. */
void heap_user(void *arg)
{
	(void)arg;
	/* colors 3..5 are this partition's (heap.yaml); 1 is another's; 99 does not exist */
	void *a = pt_malloc_color(100, 3), *b = pt_malloc_color(5000, 4);
	check("color_3", a && pt_heap_color_of(a) == 3, pt_heap_color_of(a));
	check("color_4", b && pt_heap_color_of(b) == 4, pt_heap_color_of(b));
	blk("usp", a);
	blk("usp", b);
	check("not_owned", !pt_malloc_color(10, 1) && pt_heap_last_error() == PT_ENOTOWNED,
	      pt_heap_last_error());
	check("bad_color", !pt_malloc_color(10, 99) && pt_heap_last_error() == PT_ECOLOR,
	      pt_heap_last_error());
	check("huge_color", !pt_malloc_color(10, 70000) && pt_heap_last_error() == PT_ECOLOR,
	      pt_heap_last_error());
	check("user_refuses_malloc", !pt_malloc(10) && pt_heap_last_error() == PT_EHEAPMODE,
	      pt_heap_last_error());
	/* color 5's heap holds heap.bytes = 64 KiB: 16 pages, then PT_ENOMEM, never color 3 */
	void *pages[20];
	int n = 0;
	while (n < 20 && (pages[n] = pt_malloc_color(4096, 5)) != 0)
		n++;
	check("exhausted_after_16", n == 16 && pt_heap_last_error() == PT_ENOMEM, n);
	blk("usp", pages[0]);
	blk("usp", pages[15]);
	check("free_page", pt_free(pages[3]) == PT_OK, pt_heap_last_error());
	check("double_free", pt_free(pages[3]) == PT_EDOUBLEFREE, pt_heap_last_error());
	check("inside_free", pt_free((char *)pages[4] + 16) == PT_EFOREIGN, pt_heap_last_error());
	int local;
	check("foreign_free", pt_free(&local) == PT_EFOREIGN, pt_heap_last_error());
	check("again_after_free", pt_malloc_color(4096, 5) == pages[3], pt_heap_last_error());
	/* realloc: keeps the color and the contents */
	fill(a, 100, 0x5a);
	void *r = pt_realloc(a, 3000);
	check("realloc", r && pt_heap_color_of(r) == 3 && filled(r, 100, 0x5a),
	      pt_heap_last_error());
	check("realloc_freed_old", pt_free(a) == PT_EDOUBLEFREE, pt_heap_last_error());
	check("last_error_ok", pt_free(r) == PT_OK && pt_heap_last_error() == PT_OK,
	      pt_heap_last_error());
	pt_usay("heap: user done\n");
}
