/*
 * Kernel data coloring (docs/memory.md, "Kernel data"): the kernel's own data draws from the
 * kernel data colors, pt_config.kdata_colors (the configured kernel_colors; empty = every
 * color with `kernel_data: uncolored` or when no kernel colors are listed):
 *   - the kernel data window: variables marked PT_KDATA (thread control blocks, per-cpu data,
 *     scheduler instances, the sync object pools, the heaps' bookkeeping) are linked into
 *     .kdata at HAL_KDATA_VA and mapped here, page by page, to zeroed pages of those colors:
 *     static allocation with fixed addresses, carved from colored pages at boot;
 *   - page-table pages (hal_mmu_init's table_page is pt_kdata_page; see below);
 *   - kernel stacks of user threads and idle threads (thread.c), the system heap (heaps.c).
 *   - the trace rings (pt_kdata_trace_rings), when the kernel data colors are a proper
 *     subset: the host finds their pages in the trace area's directory.
 * What stays in the kernel image, in the colors of its physical addresses: text, rodata, the
 * page allocator's own metadata (needed before any page can be mapped), the boot stacks, the
 * partition table and the trace area's header, counters and directory (found by the host in
 * the RAM file by its ELF symbol).
 */
#include "kernel.h"

extern char __kdata_start[], __kdata_end[];

uintptr_t pt_kdata_page(void)
{
	uintptr_t pa = pt_page_alloc_in(pt_config.kdata_colors);
	if (pa)
		memset((void *)pa, 0, HAL_PAGE_SIZE);
	return pa;
}

/*
 * Page tables come from the kernel data colors when those are a proper subset of the colors.
 * When kernel data may use every color (`kernel_data: uncolored`, no kernel_colors, one color)
 * the HAL's static pool in the image serves: its 160 consecutive pages span every color just
 * as well. Reason: with the tables in pool pages, the SPM soundness test (tests/system/
 * test_spm.py, one color) saw 1..7 first jobs run past their declared platform wcet (0 with
 * the image pool, same kernel otherwise); the cause, some host-time effect on QEMU's icount
 * turns, is not understood (docs/memory.md, "Kernel data").
 */
bool pt_kdata_tables_colored(void)
{
	uint32_t n = pt_mem_colors(), owned = 0;
	for (uint32_t c = 0; c < n; c++)
		owned += (uint32_t)((pt_config.kdata_colors[c / 64] >> (c % 64)) & 1);
	return owned && owned < n;
}

void pt_kdata_init(void)
{
	uintptr_t lo = (uintptr_t)__kdata_start, hi = (uintptr_t)__kdata_end;
	if (lo != HAL_KDATA_VA || hi > HAL_KTRACE_VA)
		pt_panic("kdata: window %lx..%lx, expected at %lx (kernel.ld vs HAL_KDATA_VA)",
			 (uint64_t)lo, (uint64_t)hi, (uint64_t)HAL_KDATA_VA);
	for (uintptr_t va = lo; va < hi; va += HAL_PAGE_SIZE) {
		uintptr_t pa = pt_kdata_page();
		if (!pa || hal_as_map(0, va, pa, HAL_PAGE_SIZE, HAL_MAP_R | HAL_MAP_W))
			pt_panic("kdata: no page of the kernel data colors for %lx", (uint64_t)va);
	}
	pt_printk("kdata: %lu pages at %lx\n", (uint64_t)(hi - lo) / HAL_PAGE_SIZE, (uint64_t)lo);
}

static int map_kernel_rw(uintptr_t va, uintptr_t pa)
{
	return hal_as_map(0, va, pa, HAL_PAGE_SIZE, HAL_MAP_R | HAL_MAP_W);
}

void pt_kdata_trace_rings(void)
{
	/* same rule as the page tables: with every color allowed, the image's rings (which span
	 * every color) serve as well, and the host reads them in one piece */
	if (!pt_kdata_tables_colored())
		return;
	_Static_assert(HAL_KTRACE_VA + (uintptr_t)PT_TRACE_MAX_CPUS * PT_TRACE_RING_PAGES *
				       HAL_PAGE_SIZE <= HAL_KDATA_VA_END,
		       "the trace rings fit in the top of the kernel data window");
	if (pt_trace_place_rings(HAL_KTRACE_VA, pt_kdata_page, map_kernel_rw))
		pt_panic("kdata: not enough pages of the kernel data colors for the trace rings "
			 "(%u KiB per hart): give the kernel more colors or use kernel_data: "
			 "uncolored", PT_TRACE_RING_PAGES * 4u);
	pt_printk("kdata: trace rings in %u pages per hart at %lx\n", PT_TRACE_RING_PAGES,
		  (uint64_t)HAL_KTRACE_VA);
}
