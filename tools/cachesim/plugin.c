/*
 * QEMU TCG plugin: the Partita memory-hierarchy timing model (SPDX-License-Identifier: MIT).
 *
 * Feeds cache_model.c with every instruction fetch (one access per cache line a translation
 * block's instructions cover, each time the block runs) and every data access (physical
 * address from qemu_plugin_get_hwaddr; device accesses are skipped), and adds the results up
 * per (thread, job). Which thread runs on a hart, and which of its jobs, the plugin reads from
 * the kernel's `pt_cachemodel_area` (subsys/cachemodel) through its own mapping of the guest
 * RAM file. Under icount QEMU runs every hart on one host thread, so callbacks arrive one at a
 * time in a fixed order: no locks, and the figures are identical from run to run.
 *
 * Arguments (-plugin build/cachesim/libcachesim.so,key=value,...), every number decimal or 0x:
 *   out=FILE            JSON written at exit (required)
 *   ram=FILE            the guest RAM file (memory-backend-file mem-path; required)
 *   ram_base=ADDR       guest physical address of the file's first byte (0x80000000)
 *   area=ADDR           physical address of pt_cachemodel_area (0: per hart only)
 *   harts=N             harts (default: QEMU's smp count)
 *   llc_size, llc_ways, line       shared LLC geometry (bytes, ways, line bytes; required)
 *   l1i_size, l1i_ways, l1d_size, l1d_ways   private L1s (size 0: none; default none)
 *   l1_hit, llc_hit, mem, bus, bus_window     cycles (see cache_model.h)
 *   max_records=N       (thread, job) records kept; later jobs are added to job 0 of their
 *                       thread (default 200000)
 *   feedback=0|1        stall feedback (needs area=): add every stall of a hart to the area's
 *                       stall_owed[hart], which the kernel pays back by executing that many
 *                       instructions in its pay loop (subsys/cachemodel/cachemodel.c)
 *   pay_begin, pay_end  physical addresses of that loop: its instructions and fetches are
 *                       not counted (they stand for stalls already counted)
 *   spm_lo, spm_hi      a scratchpad: physical range [spm_lo, spm_hi) of on-chip SRAM (the
 *                       SPM subsystem's pool, docs/spm.md). Fetches, loads and stores there
 *                       are counted but stall nobody and touch neither the caches nor the
 *                       bus: a scratchpad access takes one cycle whatever the other harts do
 *   spm_tid_lo, spm_tid_hi   the SPM tasks' tids [lo, hi): while one of them is cur_tid, only
 *                       blocks that start in the scratchpad count for it (its job); the
 *                       rest of its hart's work goes to tid 0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_model.h"
#include "qemu_plugin_api.h"

CACHESIM_PLUGIN_EXPORT int qemu_plugin_version = CACHESIM_QEMU_PLUGIN_VERSION;

/* subsys/cachemodel/cachemodel.h, struct pt_cachemodel_area: the layout both sides agree on */
#define AREA_MAGIC 0x4c444d43u /* "CMDL" */
#define AREA_CUR_TID_OFF 8u

struct rec {
	uint32_t tid;
	uint64_t job;
	struct cm_counts n;
};

static struct {
	struct cm_hier h;
	char out[PATH_MAX], ram[PATH_MAX];
	uint64_t ram_base, area_pa, max_records;
	const uint8_t *ram_map; /* our mapping of the RAM file */
	size_t ram_bytes;
	/* QEMU's own mapping of the same file, for instruction fetches (host address of the
	 * translated code -> guest physical address) */
	uintptr_t qemu_ram_start, qemu_ram_end;
	uint64_t qemu_ram_file_off;
	int qemu_ram_looked_up;
	uint64_t ifetch_unmapped; /* blocks whose code is not in RAM (boot ROM) */
	struct rec *recs;
	size_t nrecs, cap;
	uint32_t *index; /* open-addressing hash (tid, job) -> rec + 1 */
	size_t index_cap;
	struct rec *cur[CM_MAX_HARTS]; /* the hart's current (thread, job) */
	uint32_t cur_tid[CM_MAX_HARTS];
	uint64_t cur_job[CM_MAX_HARTS];
	int area_state; /* 0: not checked yet, 1: valid, -1: absent or invalid */
	uint64_t feedback, pay_begin, pay_end;
	uint64_t spm_lo, spm_hi;     /* scratchpad range (empty: none) */
	uint64_t spm_tid_lo, spm_tid_hi; /* SPM tasks' tids: only their scratchpad blocks count */
	uint64_t owed[CM_MAX_HARTS]; /* stalls fed back so far, per hart */
	uint64_t owed_off;           /* offset of stall_owed[0] in the area */
	double cpu0;
} S;

/* A translated block: its instruction count and the physical lines its code covers. */
struct tb_info {
	uint32_t ninsns, nlines;
	uint32_t in_spm;  /* the block's first instruction is in the scratchpad range */
	uint64_t lines[];
};

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t hash(uint32_t tid, uint64_t job)
{
	uint64_t x = ((uint64_t)tid << 40) ^ job;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

static void index_put(size_t i)
{
	size_t m = S.index_cap - 1, k = hash(S.recs[i].tid, S.recs[i].job) & m;
	while (S.index[k])
		k = (k + 1) & m;
	S.index[k] = (uint32_t)(i + 1);
}

static struct rec *lookup(uint32_t tid, uint64_t job)
{
	if (S.nrecs >= S.max_records)
		job = 0; /* out of records: the thread's later jobs share job 0 */
	size_t m = S.index_cap - 1;
	for (size_t k = hash(tid, job) & m; S.index[k]; k = (k + 1) & m) {
		struct rec *r = &S.recs[S.index[k] - 1];
		if (r->tid == tid && r->job == job)
			return r;
	}
	if (S.nrecs == S.cap) {
		S.cap *= 2;
		S.recs = realloc(S.recs, S.cap * sizeof(*S.recs));
	}
	if (2 * (S.nrecs + 1) > S.index_cap) {
		free(S.index);
		S.index_cap *= 2;
		S.index = calloc(S.index_cap, sizeof(*S.index));
		for (size_t i = 0; i < S.nrecs; i++)
			index_put(i);
	}
	if (!S.recs || !S.index) {
		fprintf(stderr, "cachesim: out of host memory\n");
		abort();
	}
	memset(&S.recs[S.nrecs], 0, sizeof(*S.recs));
	S.recs[S.nrecs].tid = tid;
	S.recs[S.nrecs].job = job;
	index_put(S.nrecs);
	return &S.recs[S.nrecs++];
}

static uint64_t ram_u64(uint64_t pa, unsigned bytes)
{
	uint64_t off = pa - S.ram_base, v = 0;
	if (pa < S.ram_base || off + bytes > S.ram_bytes)
		return 0;
	memcpy(&v, S.ram_map + off, bytes); /* little-endian host and guest */
	return v;
}

/* Feedback: publish hart's stalls so far (a plain 8-byte store into guest RAM; under icount
 * no hart runs while a callback does, so the kernel sees whole values). */
static void feed(unsigned hart, uint64_t stall)
{
	if (!stall || !S.feedback || S.area_state <= 0 || hart >= CM_MAX_HARTS)
		return;
	S.owed[hart] += stall;
	memcpy((uint8_t *)S.ram_map + (S.area_pa - S.ram_base) + S.owed_off + 8ull * hart,
	       &S.owed[hart], 8);
}

/* The area is in the kernel image's .data, which QEMU loads into RAM after installing the
 * plugin: checked at the first executed block. */
static void check_area(void)
{
	S.area_state = -1;
	if (!S.area_pa)
		return;
	if (ram_u64(S.area_pa, 4) != AREA_MAGIC || ram_u64(S.area_pa + 4, 2) < S.h.p.nharts ||
	    ram_u64(S.area_pa + 6, 2) == 0) {
		fprintf(stderr, "cachesim: area=0x%" PRIx64 " holds no pt_cachemodel_area (wrong "
			"address, or the image was not built with cache_model:): counting per hart "
			"only\n", S.area_pa);
		return;
	}
	S.area_state = 1;
	S.owed_off = AREA_CUR_TID_OFF + 4ull * ram_u64(S.area_pa + 4, 2) +
		     8ull * ram_u64(S.area_pa + 6, 2);
	if (S.feedback && S.area_pa - S.ram_base + S.owed_off + 8ull * S.h.p.nharts > S.ram_bytes) {
		fprintf(stderr, "cachesim: the area's stall_owed lies outside the RAM file: no "
			"feedback\n");
		S.feedback = 0;
	}
}

/* Re-read which thread and job run on `hart` (once per executed block: a switch takes
 * effect at the next block). */
static struct rec *current(unsigned hart)
{
	uint32_t tid = 0;
	uint64_t job = 0;
	if (S.area_state == 0)
		check_area();
	if (S.area_state > 0) {
		uint32_t nthreads = (uint32_t)ram_u64(S.area_pa + 6, 2);
		uint32_t ncpus = (uint32_t)ram_u64(S.area_pa + 4, 2);
		tid = (uint32_t)ram_u64(S.area_pa + AREA_CUR_TID_OFF + 4ull * hart, 4);
		job = ram_u64(S.area_pa + AREA_CUR_TID_OFF + 4ull * ncpus + 8ull * (tid % nthreads), 8) + 1;
	}
	if (!S.cur[hart] || tid != S.cur_tid[hart] || job != S.cur_job[hart]) {
		S.cur[hart] = lookup(tid, job);
		S.cur_tid[hart] = tid;
		S.cur_job[hart] = job;
	}
	return S.cur[hart];
}

/* One access: a scratchpad access costs its cycle only (counted, no stall, no cache, no
 * bus), anything else goes through the hierarchy. */
static uint64_t access_pa(unsigned int vcpu, uint64_t pa, enum cm_kind kind, struct cm_counts *n)
{
	if (pa >= S.spm_lo && pa < S.spm_hi) {
		if (kind == CM_IFETCH)
			n->ifetches++;
		else if (kind == CM_STORE)
			n->stores++;
		else
			n->loads++;
		return 0;
	}
	return cm_access(&S.h, vcpu, pa, kind, n);
}

static void on_tb_exec(unsigned int vcpu, void *udata)
{
	const struct tb_info *tb = udata;
	struct rec *r = current(vcpu);
	if (!tb->in_spm && S.cur_tid[vcpu] >= S.spm_tid_lo && S.cur_tid[vcpu] < S.spm_tid_hi) {
		/* an SPM task's job is what executes from its partition: the service code around
		 * the call (and the block that switches cur_tid, seen one block late) goes to
		 * tid 0, so the record is exactly the job's own execution; the next block
		 * re-reads cur_tid */
		r = lookup(0, 1);
		S.cur[vcpu] = r;
		S.cur_tid[vcpu] = 0;
		S.cur_job[vcpu] = 1;
	}
	cm_insns(&S.h, vcpu, tb->ninsns, &r->n);
	uint64_t stall = 0;
	for (uint32_t i = 0; i < tb->nlines; i++)
		stall += access_pa(vcpu, tb->lines[i], CM_IFETCH, &r->n);
	feed(vcpu, stall);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)udata;
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return; /* devices are not cached */
	uint64_t pa = qemu_plugin_hwaddr_phys_addr(hw);
	struct rec *r = S.cur[vcpu] ? S.cur[vcpu] : current(vcpu);
	feed(vcpu, access_pa(vcpu, pa, qemu_plugin_mem_is_store(info) ? CM_STORE : CM_LOAD,
			     &r->n));
}

/* QEMU's mapping of the RAM file, from /proc/self/maps (looked up at the first translation:
 * the memory backend is created after the plugin is installed). */
static void find_qemu_ram(void)
{
	S.qemu_ram_looked_up = 1;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 256];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		int path_at = 0;
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &off, &path_at) < 3 || !path_at)
			continue;
		char *path = line + path_at;
		path[strcspn(path, "\n")] = 0;
		if (lo == (uintptr_t)S.ram_map)
			continue; /* our own mapping */
		if (strcmp(path, S.ram) == 0 && hi - lo > S.qemu_ram_end - S.qemu_ram_start) {
			S.qemu_ram_start = lo;
			S.qemu_ram_end = hi;
			S.qemu_ram_file_off = off;
		}
	}
	if (f)
		fclose(f);
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	if (!S.qemu_ram_looked_up)
		find_qemu_ram();
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct tb_info *ti = calloc(1, sizeof(*ti) + (2 * n + 1) * sizeof(uint64_t));
	if (!ti)
		abort();
	uint32_t shift = S.h.has_l1 ? S.h.l1i[0].line_shift : S.h.llc.line_shift;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		uintptr_t ha = (uintptr_t)qemu_plugin_insn_haddr(insn);
		size_t sz = qemu_plugin_insn_size(insn);
		if (ha < S.qemu_ram_start || ha + sz > S.qemu_ram_end) {
			S.ifetch_unmapped++;
			ti->ninsns++;
			continue;
		}
		uint64_t pa = S.ram_base + S.qemu_ram_file_off + (ha - S.qemu_ram_start);
		if (i == 0)
			ti->in_spm = pa >= S.spm_lo && pa < S.spm_hi;
		if (pa >= S.pay_begin && pa < S.pay_end)
			continue; /* the kernel paying stalls back: neither counted nor fetched */
		ti->ninsns++;
		/* an instruction may straddle two lines (compressed code): both are fetched */
		for (uint64_t l = pa >> shift; l <= (pa + sz - 1) >> shift; l++)
			if (ti->nlines == 0 || ti->lines[ti->nlines - 1] != l << shift)
				ti->lines[ti->nlines++] = l << shift;
	}
	/* the block info lives as long as QEMU may run the block: never freed (a few MB) */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, ti);
}

static void counts_json(FILE *f, const struct cm_counts *n)
{
	fprintf(f,
		"\"instructions\": %" PRIu64 ", \"ifetches\": %" PRIu64 ", \"loads\": %" PRIu64
		", \"stores\": %" PRIu64 ", \"l1i_hits\": %" PRIu64 ", \"l1i_misses\": %" PRIu64
		", \"l1d_hits\": %" PRIu64 ", \"l1d_misses\": %" PRIu64 ", \"llc_hits\": %" PRIu64
		", \"llc_misses\": %" PRIu64 ", \"l1_writebacks\": %" PRIu64
		", \"mem_writebacks\": %" PRIu64 ", \"stall_cycles\": %" PRIu64
		", \"bus_wait_cycles\": %" PRIu64,
		n->insns, n->ifetches, n->loads, n->stores, n->l1i_hits, n->l1i_misses, n->l1d_hits,
		n->l1d_misses, n->llc_hits, n->llc_misses, n->l1_writebacks, n->mem_writebacks,
		n->stall_cycles, n->bus_wait_cycles);
}

static void geom_json(FILE *f, const char *name, const struct cm_cache_geom *g, const char *sep)
{
	fprintf(f, "\"%s\": {\"size_bytes\": %" PRIu64 ", \"ways\": %u, \"line_bytes\": %u}%s", name,
		g->size_bytes, g->ways, g->line_bytes, sep);
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
	(void)id, (void)udata;
	FILE *f = fopen(S.out, "w");
	if (!f) {
		fprintf(stderr, "cachesim: cannot write %s: %s\n", S.out, strerror(errno));
		return;
	}
	const struct cm_params *p = &S.h.p;
	fprintf(f, "{\"version\": 1,\n \"params\": {");
	geom_json(f, "l1i", &p->l1i, ", ");
	geom_json(f, "l1d", &p->l1d, ", ");
	geom_json(f, "llc", &p->llc, ", ");
	fprintf(f,
		"\"l1_hit_cycles\": %u, \"llc_hit_cycles\": %u, \"mem_cycles\": %u, "
		"\"bus_cycles\": %u, \"bus_window_cycles\": %u, \"harts\": %u},\n",
		p->l1_hit_cycles, p->llc_hit_cycles, p->mem_cycles, p->bus_cycles,
		p->bus_window_cycles, p->nharts);
	fprintf(f, " \"stalls_fed_back\": %s,", S.feedback && S.area_state > 0 ? "true" : "false");
	fprintf(f, " \"per_thread\": %s, \"ifetch_unmapped_insns\": %" PRIu64
		", \"host_cpu_s\": %.3f,\n", S.area_state > 0 ? "true" : "false", S.ifetch_unmapped,
		cpu_seconds() - S.cpu0);
	fprintf(f, " \"harts\": [");
	for (uint32_t i = 0; i < p->nharts; i++)
		fprintf(f, "%s{\"hart\": %u, \"modeled_cycles\": %" PRIu64 "}", i ? ", " : "", i,
			S.h.cycles[i]);
	fprintf(f, "],\n \"records\": [");
	for (size_t i = 0; i < S.nrecs; i++) {
		fprintf(f, "%s\n  {\"tid\": %u, \"job\": %" PRIu64 ", ", i ? "," : "", S.recs[i].tid,
			S.recs[i].job);
		counts_json(f, &S.recs[i].n);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
	fclose(f);
}

static int parse_u64(const char *key, const char *val, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 0);
	if (errno || end == val || *end) {
		fprintf(stderr, "cachesim: argument %s=%s is not a number\n", key, val);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct cm_params *p)
{
	static const struct {
		const char *key;
		size_t off;
		int bytes;
	} nums[] = {
#define F(k, field) {k, offsetof(struct cm_params, field), (int)sizeof(((struct cm_params *)0)->field)}
		F("llc_size", llc.size_bytes), F("llc_ways", llc.ways), F("line", llc.line_bytes),
		F("l1i_size", l1i.size_bytes), F("l1i_ways", l1i.ways),
		F("l1d_size", l1d.size_bytes), F("l1d_ways", l1d.ways),
		F("l1_hit", l1_hit_cycles), F("llc_hit", llc_hit_cycles), F("mem", mem_cycles),
		F("bus", bus_cycles), F("bus_window", bus_window_cycles), F("harts", nharts),
#undef F
	};
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "cachesim: argument '%s' is not key=value\n", argv[i]);
			return -1;
		}
		*eq = 0;
		const char *key = argv[i], *val = eq + 1;
		uint64_t v;
		if (!strcmp(key, "out") || !strcmp(key, "ram")) {
			char *dst = key[0] == 'o' ? S.out : S.ram;
			if (strlen(val) >= PATH_MAX)
				return -1;
			strcpy(dst, val);
			continue;
		}
		if (parse_u64(key, val, &v))
			return -1;
		if (!strcmp(key, "ram_base")) {
			S.ram_base = v;
			continue;
		}
		if (!strcmp(key, "area")) {
			S.area_pa = v;
			continue;
		}
		if (!strcmp(key, "feedback")) {
			S.feedback = v;
			continue;
		}
		if (!strcmp(key, "pay_begin") || !strcmp(key, "pay_end")) {
			*(key[4] == 'b' ? &S.pay_begin : &S.pay_end) = v;
			continue;
		}
		if (!strcmp(key, "spm_tid_lo") || !strcmp(key, "spm_tid_hi")) {
			*(key[8] == 'l' ? &S.spm_tid_lo : &S.spm_tid_hi) = v;
			continue;
		}
		if (!strcmp(key, "spm_lo") || !strcmp(key, "spm_hi")) {
			*(key[4] == 'l' ? &S.spm_lo : &S.spm_hi) = v;
			continue;
		}
		if (!strcmp(key, "max_records")) {
			S.max_records = v;
			continue;
		}
		size_t k = 0;
		while (k < sizeof(nums) / sizeof(nums[0]) && strcmp(nums[k].key, key))
			k++;
		if (k == sizeof(nums) / sizeof(nums[0])) {
			fprintf(stderr, "cachesim: unknown argument %s\n", key);
			return -1;
		}
		if (nums[k].bytes == 4) {
			if (v > UINT32_MAX) {
				fprintf(stderr, "cachesim: %s=%s too large\n", key, val);
				return -1;
			}
			uint32_t v32 = (uint32_t)v;
			memcpy((char *)p + nums[k].off, &v32, 4);
		} else {
			memcpy((char *)p + nums[k].off, &v, 8);
		}
	}
	/* one line size for the whole hierarchy */
	p->l1i.line_bytes = p->l1d.line_bytes = p->llc.line_bytes;
	return 0;
}

static int map_ram(void)
{
	char real[PATH_MAX];
	if (!realpath(S.ram, real)) {
		fprintf(stderr, "cachesim: ram=%s: %s\n", S.ram, strerror(errno));
		return -1;
	}
	strcpy(S.ram, real); /* /proc/self/maps shows the resolved path */
	int fd = open(S.ram, S.feedback ? O_RDWR : O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "cachesim: ram=%s: %s\n", S.ram, strerror(errno));
		return -1;
	}
	S.ram_bytes = (size_t)st.st_size;
	void *m = mmap(NULL, S.ram_bytes, PROT_READ | (S.feedback ? PROT_WRITE : 0), MAP_SHARED,
		       fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		fprintf(stderr, "cachesim: cannot map %s: %s\n", S.ram, strerror(errno));
		return -1;
	}
	S.ram_map = m;
	return 0;
}

CACHESIM_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					       int argc, char **argv)
{
	S.cpu0 = cpu_seconds();
	if (info->version.cur < CACHESIM_QEMU_PLUGIN_VERSION ||
	    info->version.min > CACHESIM_QEMU_PLUGIN_VERSION || !info->system_emulation) {
		fprintf(stderr, "cachesim: needs plugin API version 1 and system emulation\n");
		return -1;
	}
	struct cm_params p = {.llc = {0, 16, 64}, .l1i = {0, 8, 64}, .l1d = {0, 8, 64},
			      .llc_hit_cycles = 30, .mem_cycles = 200, .bus_cycles = 20,
			      .nharts = (uint32_t)info->system.smp_vcpus};
	S.ram_base = 0x80000000u;
	S.max_records = 200000;
	if (parse_args(argc, argv, &p))
		return -1;
	if (!S.out[0] || !S.ram[0]) {
		fprintf(stderr, "cachesim: out= and ram= are required\n");
		return -1;
	}
	const char *why = "";
	if (cm_hier_init(&S.h, &p, &why)) {
		fprintf(stderr, "cachesim: bad model parameters: %s\n", why);
		return -1;
	}
	if (S.feedback && (!S.area_pa || S.pay_begin >= S.pay_end)) {
		fprintf(stderr, "cachesim: feedback=1 needs area= and pay_begin < pay_end\n");
		return -1;
	}
	if (map_ram())
		return -1;
	S.cap = 1024;
	S.index_cap = 4096;
	S.recs = malloc(S.cap * sizeof(*S.recs));
	S.index = calloc(S.index_cap, sizeof(*S.index));
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
