/*
 * Boot of the portable kernel (S-mode, every hart). Hart 0 builds the trace area, the page
 * pool, the kernel page table (from pages of the kernel data colors), maps the kernel data
 * window (kdata.c), then the scheduler instances, the partitions and the static threads, fixes
 * the time origin (pt_epoch), then releases the other harts. Each hart then enables paging,
 * switches to its per-cpu data in the window, arms its timer and enters its idle thread, from
 * which the scheduler runs.
 */
#include "kernel.h"

PT_KDATA struct pt_cpu pt_cpus[PT_MAX_CPUS];
static volatile uint32_t boot_go;
PT_KDATA static struct hal_ctx boot_ctx[PT_MAX_CPUS];
/* The hart's per-cpu data until pt_cpus (kernel data window) is mapped: a whole, zeroed
 * struct pt_cpu, so that an early panic finds no current thread (pt_this_cpu casts). */
static struct pt_cpu boot_cpu[PT_MAX_CPUS];
extern uint32_t pt_user_icount_shift;

/* A page for a partition's private copy of the application globals, from its own colors. */
static uintptr_t partition_page(void *ctx)
{
	const struct pt_partition *p = ctx;
	return pt_page_alloc_in(p->colors);
}

static void partitions_init(void)
{
	if (pt_config.npartitions > PT_MAX_PARTITIONS)
		pt_panic("%u partitions, at most %u", pt_config.npartitions, PT_MAX_PARTITIONS);
	for (uint32_t i = 0; i < pt_config.npartitions; i++) {
		const struct pt_partition_cfg *pc = &pt_config.partitions[i];
		struct pt_partition *p = &pt_partitions[i];
		p->cfg = pc;
		p->id = (uint16_t)i;
		p->user = pc->user;
		p->fault_policy = pc->fault_policy;
		p->colors = pc->colors;
		p->trace_tokens = pc->trace_burst;
		if (!p->user)
			continue;
		p->as = hal_as_create((uint16_t)(i + 1));
		if (!p->as)
			pt_panic("partition %s: out of page tables", pc->name);
		if (hal_as_private_data(p->as, partition_page, p))
			pt_panic("partition %s: no memory for its private data pages", pc->name);
		/* heap: the first pages of the partition region */
		p->heap_lo = p->heap_hi = HAL_USER_VA;
		for (uint32_t off = 0; off < pc->heap_bytes; off += HAL_PAGE_SIZE) {
			uintptr_t pa = pt_page_alloc_in(p->colors);
			if (!pa || hal_as_map(p->as, HAL_USER_VA + off, pa, HAL_PAGE_SIZE,
					      HAL_MAP_R | HAL_MAP_W | HAL_MAP_U))
				pt_panic("partition %s: no memory for heap", pc->name);
			memset((void *)pa, 0, HAL_PAGE_SIZE);
			p->heap_hi += HAL_PAGE_SIZE;
		}
	}
}

static void threads_init(void)
{
	pt_irq_init();
	for (uint32_t i = 0; i < pt_config.nthreads; i++) {
		const struct pt_thread_cfg *tc = &pt_config.threads[i];
		if (tc->partition >= pt_config.npartitions || tc->sched >= pt_config.nscheds)
			pt_panic("thread %s: bad partition or scheduler index", tc->name);
		int tid = pt_thread_create_cfg(tc, &pt_partitions[tc->partition],
					       &pt_scheds[tc->sched], tc->name, true);
		if (tid < 0)
			pt_panic("thread %s: create failed (%d)", tc->name, tid);
		if (tc->irq)
			pt_irq_bind(tc, pt_thread_get(tid));
	}
	pt_irq_boot();
}

static void cpu_start(struct pt_cpu *c)
{
	c->online = 1;
	pt_time_start(c->id);
	pt_timer_reprogram(c);
	/* enter the idle thread; its first act releases the instance lock we take here */
	if (c->sched)
		pt_sched_lock(c->sched);
	c->hal.kstack_top = c->idle->kstack_top;
	c->hal.kstack_lo = c->idle->kstack_lo;
	hal_ctx_switch(&boot_ctx[c->id], &c->idle->ctx);
	pt_panic("boot context resumed");
}

/* Switch the hart's per-cpu word to its entry of pt_cpus (mapped by now). */
static struct pt_cpu *cpu_enter(uint32_t cpu)
{
	struct pt_cpu *c = &pt_cpus[cpu];
	c->id = cpu;
	c->hal.cpu = cpu;
	hal_percpu_set(&c->hal);
	return c;
}

void pt_kmain(uint32_t cpu)
{
	struct pt_cpu *c;
	boot_cpu[cpu].id = cpu;
	boot_cpu[cpu].hal.cpu = cpu;
	hal_percpu_set(&boot_cpu[cpu].hal);

	if (cpu == 0) {
		pt_user_icount_shift = pt_config.icount_shift;
		pt_printk("\nPartita: config '%s', %u harts, icount shift %u, %lu cycles/s\n",
			  pt_config.name, pt_config.ncpus, pt_config.icount_shift,
			  hal_cycles_per_sec());
		pt_trace_init(pt_config.ncpus);
		/* the page pool first: page tables and kernel data come from its kernel colors */
		pt_mem_init();
		if (hal_mmu_init(pt_kdata_tables_colored() ? pt_kdata_page : 0))
			pt_panic("no page of the kernel data colors for the kernel page table");
		hal_mmu_enable();
		pt_kdata_init();
		pt_kdata_trace_rings();
		c = cpu_enter(cpu);
		pt_job_counters_init();
		pt_sched_init();
		for (uint32_t i = 0; i < pt_config.ncpus; i++) {
			pt_cpus[i].id = i;
			pt_cpus[i].hal.cpu = i;
			pt_list_init(&pt_cpus[i].alarms);
			pt_cpus[i].sched_event_cycles = pt_cpus[i].budget_end_cycles = UINT64_MAX;
			pt_idle_create(&pt_cpus[i]);
		}
		partitions_init();
		pt_heaps_init();
		/* time origin: releases with offset 0 happen here */
		pt_epoch = hal_cycles() + 1000;
		threads_init();
		pt_subsys_boot_all(); /* the linked subsystems (<partita/subsys.h>) */
		pt_sched_subsys_hooks();
		pt_trace_emit(PT_EV_BOOT, 0, pt_config.ncpus, pt_epoch);
		pt_printk("boot: %u threads, %u partitions, %u schedulers, epoch %lu\n",
			  pt_config.nthreads, pt_config.npartitions, pt_config.nscheds, pt_epoch);
		hal_fence();
		boot_go = 1;
		for (uint32_t i = 1; i < pt_config.ncpus; i++)
			hal_ipi_send(i);
	} else {
		/* Sleep, do not spin: under icount a spinning hart consumes the virtual time
		 * of all harts (docs/kernel.md). The IPI above wakes us. */
		while (!boot_go)
			hal_wait_for_interrupt_masked();
		hal_fence();
		hal_mmu_enable();
		c = cpu_enter(cpu);
	}
	pt_subsys_cpu_entry_all(cpu); /* does not return on a hart a subsystem owns */
	cpu_start(c);
}
