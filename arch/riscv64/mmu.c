/*
 * Sv39 page tables. Root slots (1 GiB each):
 *   [0]  0x00000000  devices (UART, CLINT, PLIC, test): S read/write, every table
 *   [2]  0x80000000  RAM, identity: the kernel table maps it S RWX as one gigapage; the
 *                    user tables share one "user view" of it where only the user window
 *                    [__user_start, __user_end) has U set (text R-X, data RW-)
 *   [3]  0xC0000000  kernel stacks, 4 KiB pages with an unmapped guard page below each;
 *                    one level-1 table shared by every root, so a new stack appears in all
 *   [4]  0x100000000 the partition's private user region (its own level-1 table)
 * A user partition's root gets its own copy of the user view's level-1 table and of the
 * level-0 tables around the user window's data, whose pages point at the partition's own
 * copies of the application globals (hal_as_private_data); the PT_SHARED pages at the start
 * of the data window stay common to all partitions.
 * Page-table pages: PT_PGTABLE_PAGES pages carved at boot from the core's `table_page` (pages
 * of the kernel data colors), or the image's static pool when there is none; tables are only
 * ever extended, never torn down.
 */
#include <partita/hal.h>
#include <partita/hal_cpu.h>
#include <partita/config.h>
#include "csr.h"

#define PTE_V 0x001ul
#define PTE_R 0x002ul
#define PTE_W 0x004ul
#define PTE_X 0x008ul
#define PTE_U 0x010ul
#define PTE_A 0x040ul
#define PTE_D 0x080ul
#define PTE_LEAF (PTE_R | PTE_W | PTE_X)
#define PT_POOL_PAGES PT_PGTABLE_PAGES /* <partita/limits.h>: partita config checks it */

typedef uint64_t pte_t;

static pte_t *pt_pool[PT_POOL_PAGES]; /* carved at boot from the core's table_page */
/* the pool when the core gives no table_page (kernel data on every color): pages of the image */
static pte_t pt_image_pool[PT_POOL_PAGES][512] __attribute__((aligned(4096)));
static uint32_t pt_pool_used;
static volatile uint32_t mmu_lock_next, mmu_lock_owner;
static pte_t *kroot, *uram_l1, *kstack_l1;
static uint64_t ksatp;

extern char __user_start[], __user_data_start[], __user_private_start[], __user_end[];

static pte_t *pt_alloc(void)
{
	if (pt_pool_used >= PT_POOL_PAGES)
		return 0;
	pte_t *p = pt_pool[pt_pool_used++];
	for (int i = 0; i < 512; i++)
		p[i] = 0;
	return p;
}

static inline pte_t pte_table(pte_t *t) { return (((uint64_t)t >> 12) << 10) | PTE_V; }
static inline pte_t pte_leaf(uint64_t pa, uint64_t fl) { return ((pa >> 12) << 10) | fl | PTE_V | PTE_A | PTE_D; }
static inline pte_t *pte_next(pte_t e) { return (pte_t *)((e >> 10) << 12); }

static uint64_t hal_flags(unsigned f)
{
	return ((f & HAL_MAP_R) ? PTE_R : 0) | ((f & HAL_MAP_W) ? PTE_W : 0) |
	       ((f & HAL_MAP_X) ? PTE_X : 0) | ((f & HAL_MAP_U) ? PTE_U : 0);
}

static void lock(void)
{
	uint32_t me = __atomic_fetch_add(&mmu_lock_next, 1, __ATOMIC_RELAXED);
	/* pause as the kernel's ticket lock does (hal_spin_pause): under icount a spinning
	 * waiter keeps its turn and the holder would not run */
	for (uint32_t n = 1; __atomic_load_n(&mmu_lock_owner, __ATOMIC_ACQUIRE) != me; n++)
		if (n % 64u == 0)
			hal_spin_pause();
}
static void unlock(void) { __atomic_store_n(&mmu_lock_owner, mmu_lock_owner + 1, __ATOMIC_RELEASE); }

int hal_mmu_init(uintptr_t (*table_page)(void))
{
	/* The whole pool at once: no page allocation under the mmu lock later, and the tables'
	 * pages are fixed at boot (physical, used through the identity map of RAM, slot 2). */
	for (uint32_t i = 0; i < PT_POOL_PAGES; i++)
		if (!(pt_pool[i] = table_page ? (pte_t *)table_page() : pt_image_pool[i]))
			return -1;
	kroot = pt_alloc();
	kstack_l1 = pt_alloc();
	uram_l1 = pt_alloc();
	if (!kroot || !kstack_l1 || !uram_l1)
		return -1;
	kroot[0] = pte_leaf(0, PTE_R | PTE_W);
	kroot[2] = pte_leaf(0x80000000ul, PTE_LEAF);
	kroot[3] = pte_table(kstack_l1);

	/* user view of RAM: megapages S RWX, split into 4 KiB pages around the user window */
	uint64_t ulo = (uint64_t)__user_start, udata = (uint64_t)__user_data_start;
	uint64_t uhi = (uint64_t)__user_end;
	for (uint64_t i = 0; i < 512; i++) {
		uint64_t base = 0x80000000ul + (i << 21);
		if (base + (1ul << 21) <= ulo || base >= uhi) {
			uram_l1[i] = pte_leaf(base, PTE_LEAF);
			continue;
		}
		pte_t *l0 = pt_alloc();
		if (!l0)
			return -1;
		for (uint64_t j = 0; j < 512; j++) {
			uint64_t pa = base + (j << 12);
			uint64_t fl = PTE_LEAF;
			if (pa >= ulo && pa < udata)
				fl = PTE_R | PTE_X | PTE_U;
			else if (pa >= udata && pa < uhi)
				fl = PTE_R | PTE_W | PTE_U;
			l0[j] = pte_leaf(pa, fl);
		}
		uram_l1[i] = pte_table(l0);
	}
	ksatp = (8ul << 60) | ((uint64_t)kroot >> 12);
	return 0;
}

void hal_mmu_enable(void)
{
	csr_write(satp, ksatp);
	__asm__ volatile("sfence.vma" ::: "memory");
}

hal_as_t hal_as_create(uint16_t asid)
{
	lock();
	pte_t *root = pt_alloc();
	if (root) {
		root[0] = kroot[0];
		root[2] = pte_table(uram_l1);
		root[3] = kroot[3];
	}
	unlock();
	if (!root)
		return 0;
	return (8ul << 60) | ((uint64_t)asid << 44) | ((uint64_t)root >> 12);
}

static pte_t *as_root(hal_as_t as) { return (pte_t *)((as & ((1ul << 44) - 1)) << 12); }

int hal_as_private_data(hal_as_t as, uintptr_t (*page)(void *ctx), void *ctx)
{
	uint64_t udata = (uint64_t)__user_private_start, uhi = (uint64_t)__user_end;
	pte_t *root = as_root(as);
	if (!as || pte_next(root[2]) != uram_l1)
		return -1; /* not a fresh user space, or already private */
	lock();
	pte_t *l1 = pt_alloc();
	if (l1) {
		for (int i = 0; i < 512; i++)
			l1[i] = uram_l1[i];
		/* the user window was split into 4 KiB pages by hal_mmu_init: copy those tables */
		for (uint64_t i = (udata - 0x80000000ul) >> 21; l1 && i <= (uhi - 1 - 0x80000000ul) >> 21; i++) {
			pte_t *l0 = pt_alloc();
			if (!l0) {
				l1 = 0;
				break;
			}
			pte_t *src = pte_next(uram_l1[i]);
			for (int j = 0; j < 512; j++)
				l0[j] = src[j];
			l1[i] = pte_table(l0);
		}
	}
	unlock();
	if (!l1)
		return -1;
	for (uint64_t va = udata; va < uhi; va += HAL_PAGE_SIZE) {
		uintptr_t pa = page(ctx);
		if (!pa)
			return -1;
		const uint64_t *from = (const uint64_t *)va;
		uint64_t *to = (uint64_t *)pa;
		for (int k = 0; k < (int)(HAL_PAGE_SIZE / 8); k++)
			to[k] = from[k];
		pte_t *l0 = pte_next(l1[(va - 0x80000000ul) >> 21]);
		l0[(va >> 12) & 0x1ff] = pte_leaf(pa, PTE_R | PTE_W | PTE_U);
	}
	root[2] = pte_table(l1); /* publish last: the space never sees half-made tables */
	__asm__ volatile("sfence.vma" ::: "memory");
	return 0;
}

static pte_t *walk(pte_t *root, uint64_t va, bool create)
{
	pte_t *t = root;
	for (int level = 2; level > 0; level--) {
		pte_t *e = &t[(va >> (12 + 9 * level)) & 0x1ff];
		if (!(*e & PTE_V)) {
			if (!create)
				return 0;
			pte_t *n = pt_alloc();
			if (!n)
				return 0;
			*e = pte_table(n);
		} else if (*e & PTE_LEAF) {
			return 0; /* inside a superpage: not remappable here */
		}
		t = pte_next(*e);
	}
	return &t[(va >> 12) & 0x1ff];
}

int hal_as_map(hal_as_t as, uintptr_t va, uintptr_t pa, size_t bytes, unsigned flags)
{
	pte_t *root = kroot;
	if (va >= HAL_USER_VA && va < HAL_USER_VA_END) {
		if (!as)
			return -1;
		root = as_root(as);
	} else if (!(va >= HAL_KSTACK_VA && va < HAL_KSTACK_VA_END)) {
		return -1;
	}
	int rc = 0;
	lock();
	for (size_t off = 0; off < bytes; off += HAL_PAGE_SIZE) {
		pte_t *e = walk(root, va + off, true);
		if (!e) {
			rc = -1;
			break;
		}
		*e = pte_leaf(pa + off, hal_flags(flags));
	}
	unlock();
	__asm__ volatile("sfence.vma" ::: "memory");
	return rc;
}

void hal_as_switch(hal_as_t as)
{
	csr_write(satp, as ? as : ksatp);
}

/* Leaf PTE for va (any level), 0 if unmapped. */
static pte_t lookup(pte_t *root, uint64_t va)
{
	pte_t *t = root;
	for (int level = 2; level >= 0; level--) {
		pte_t e = t[(va >> (12 + 9 * level)) & 0x1ff];
		if (!(e & PTE_V))
			return 0;
		if (e & PTE_LEAF)
			return e;
		t = pte_next(e);
	}
	return 0;
}

bool hal_as_check(hal_as_t as, uintptr_t va, size_t n, bool write)
{
	if (!as || va + n < va || va + n > (1ul << 38))
		return false;
	pte_t *root = as_root(as);
	uintptr_t end = va + n;
	for (uintptr_t p = va & ~0xffful; p < end; p += HAL_PAGE_SIZE) {
		pte_t e = lookup(root, p);
		if (!(e & PTE_U) || !(e & PTE_R) || (write && !(e & PTE_W)))
			return false;
	}
	return true;
}

extern char __kernel_end[];
void hal_ram_range(uintptr_t *lo, uintptr_t *hi)
{
	*lo = ((uintptr_t)__kernel_end + 0xffful) & ~0xffful;
	/* the configured RAM (QEMU gets -m ram_mb), at most PT_MAX_POOL_PAGES pages of pool */
	uint64_t top = 0x80000000ul + pt_config.ram_bytes;
	uint64_t cap = *lo + (uint64_t)PT_MAX_POOL_PAGES * HAL_PAGE_SIZE;
	*hi = top < cap ? top : cap;
	if (*hi < *lo)
		*hi = *lo;
}
