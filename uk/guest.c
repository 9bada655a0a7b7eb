/*
 * The UK's view of guest memory: the guest RAM file mapped shared, the mailbox found through
 * the kernel ELF's symbol table, and user pointers translated by walking the caller's own
 * Sv39 tables. Nothing read from guest RAM is trusted: every table address must lie in RAM,
 * every leaf must be valid, user-accessible and readable (writable for a write), and the
 * walk is bounded (three levels).
 */
#include "uk.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct guest g;

int guest_symbol(const char *elf_path, const char *name, uint64_t *addr)
{
	int fd = open(elf_path, O_RDONLY);
	if (fd < 0)
		return -errno;
	struct stat st;
	int rc = -ENOENT;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -EINVAL;
	}
	uint8_t *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	size_t size = (size_t)st.st_size;
	const Elf64_Ehdr *eh = (const void *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff >= size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr)) {
		rc = -EINVAL;
		goto out;
	}
	const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		const Elf64_Shdr *strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
		    strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
			break;
		const Elf64_Sym *sym = (const void *)(m + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
		for (size_t k = 0; k < n; k++) {
			if (sym[k].st_name >= strs->sh_size)
				continue;
			const char *s = (const char *)m + strs->sh_offset + sym[k].st_name;
			if (strnlen(s, strs->sh_size - sym[k].st_name) < strs->sh_size - sym[k].st_name &&
			    !strcmp(s, name)) {
				*addr = sym[k].st_value;
				rc = 0;
				goto out;
			}
		}
	}
out:
	munmap(m, size);
	return rc;
}

int guest_map(const char *ram_path, uint64_t area_addr)
{
	int fd = open(ram_path, O_RDWR);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	if (area_addr < UK_RAM_BASE || area_addr - UK_RAM_BASE + sizeof(struct pt_uk_area) >
					      (uint64_t)st.st_size) {
		close(fd);
		return -ERANGE;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		int e = errno;
		close(fd);
		return -e;
	}
	g.ram = m;
	g.ram_bytes = (uint64_t)st.st_size;
	g.ram_fd = fd;
	g.ram_ino = st.st_ino;
	g.area = (struct pt_uk_area *)(g.ram + (area_addr - UK_RAM_BASE));
	return 0;
}

/* A guest physical range inside RAM, as a host pointer; NULL if any byte lies outside. */
static uint8_t *phys(uint64_t pa, uint64_t n)
{
	if (pa < UK_RAM_BASE || n > g.ram_bytes || pa - UK_RAM_BASE > g.ram_bytes - n)
		return NULL;
	return g.ram + (pa - UK_RAM_BASE);
}

#define PTE_V 0x1u
#define PTE_R 0x2u
#define PTE_W 0x4u
#define PTE_X 0x8u
#define PTE_U 0x10u

/* Translate user va in address space `as` (an Sv39 satp value); the physical address, or 0
 * when the page is not mapped for the user with the access asked for. */
static uint64_t translate(uint64_t as, uint64_t va, int write)
{
	int64_t sva = (int64_t)(va << 25) >> 25; /* Sv39: bits 63..39 copy bit 38 */
	if ((uint64_t)sva != va || (as >> 60) != 8) /* mode 8 = Sv39 */
		return 0;
	uint64_t table = (as & ((1ull << 44) - 1)) << 12;
	for (int level = 2; level >= 0; level--) {
		uint64_t idx = (va >> (12 + 9 * level)) & 0x1ff;
		const uint8_t *p = phys(table + idx * 8, 8);
		if (!p)
			return 0;
		uint64_t pte;
		memcpy(&pte, p, 8);
		if (!(pte & PTE_V) || ((pte & PTE_W) && !(pte & PTE_R)))
			return 0;
		uint64_t ppn = (pte >> 10) & ((1ull << 44) - 1);
		if (pte & (PTE_R | PTE_X)) { /* a leaf */
			if (!(pte & PTE_U) || !(pte & PTE_R) || (write && !(pte & PTE_W)))
				return 0;
			uint64_t span = 1ull << (12 + 9 * level);
			if (level && (ppn & ((span >> 12) - 1)))
				return 0; /* misaligned superpage: invalid */
			return (ppn << 12) + (va & (span - 1));
		}
		table = ppn << 12;
	}
	return 0;
}

uint8_t *guest_user(uint64_t as, uint64_t va, uint64_t n, int write, uint64_t *chunk)
{
	uint64_t pa = translate(as, va, write);
	if (!pa)
		return NULL;
	uint64_t room = 4096 - (va & 4095);
	*chunk = n < room ? n : room;
	return phys(pa, *chunk);
}

int guest_copy_in(uint64_t as, void *dst, uint64_t va, uint64_t n)
{
	uint8_t *d = dst;
	while (n) {
		uint64_t c;
		uint8_t *p = guest_user(as, va, n, 0, &c);
		if (!p || va + c < va)
			return -1;
		memcpy(d, p, c);
		d += c, va += c, n -= c;
	}
	return 0;
}

int guest_copy_out(uint64_t as, uint64_t va, const void *src, uint64_t n)
{
	const uint8_t *s = src;
	/* check the whole range first: a failed write leaves the caller's memory untouched */
	for (uint64_t off = 0; off < n;) {
		uint64_t c;
		if (!guest_user(as, va + off, n - off, 1, &c) || va + off + c < va)
			return -1;
		off += c;
	}
	while (n) {
		uint64_t c;
		uint8_t *p = guest_user(as, va, n, 1, &c);
		memcpy(p, s, c);
		s += c, va += c, n -= c;
	}
	return 0;
}

int guest_string(uint64_t as, uint64_t va, char *out, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		uint64_t c;
		uint8_t *p = guest_user(as, va + i, 1, 0, &c);
		if (!p)
			return -1;
		out[i] = (char)*p;
		if (!out[i])
			return (int)i;
	}
	return -1; /* no NUL within max bytes */
}
