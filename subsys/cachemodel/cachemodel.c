/*
 * cache_model: tells the cache-model QEMU plugin which thread and job run on each hart
 * (cachemodel.h), and pays back the stalls the plugin feeds back (cache_model: {feedback:
 * true}): the plugin adds every modeled stall of a hart to stall_owed[hart]; at each
 * preemption point, and before a switch away from a thread, the hart executes exactly
 * owed - paid instructions in pt_cachemodel_pay_begin..end, whose instructions the plugin
 * does not count. So stalls take guest time, on the thread that caused them, and a job can
 * miss its deadline in QEMU because of the cache — deterministically, since the model is.
 */
#include <stdbool.h>
#include <partita/subsys.h>

#include "cachemodel.h"
#include <partita/cachemodel_acct.h>

/* In .data (initialised), so the magic is in guest RAM as soon as QEMU loads the image. */
struct pt_cachemodel_area pt_cachemodel_area = {
	.magic = PT_CACHEMODEL_MAGIC,
	.ncpus = PT_MAX_CPUS,
	.nthreads = PT_MAX_THREADS,
};

/* Execute exactly 2 * iterations (>= 1) instructions with no memory access. The labels
 * delimit the loop for the plugin (pay=begin:end), which counts neither its instructions
 * nor its fetches: they stand for stall cycles already counted. */
__attribute__((noinline, noclone)) static void spin_pairs(uint64_t iterations)
{
	__asm__ volatile(".globl pt_cachemodel_pay_begin\n"
			 "pt_cachemodel_pay_begin:\n"
			 "1:\taddi %0, %0, -1\n"
			 "\tbnez %0, 1b\n"
			 ".globl pt_cachemodel_pay_end\n"
			 "pt_cachemodel_pay_end:\n"
			 : "+r"(iterations));
}

/* Pay what `cpu` owes, or forgive it when the hart was idle (idle's stalls are nobody's
 * time). An odd cycle stays owed until the next point. */
static void settle(uint32_t cpu, bool forgive)
{
	if (cpu >= PT_MAX_CPUS)
		return;
	struct pt_cachemodel_area *a = &pt_cachemodel_area;
	uint64_t owed = a->stall_owed[cpu], paid = a->stall_paid[cpu];
	if (owed <= paid)
		return;
	if (forgive) {
		a->stall_paid[cpu] = owed;
		return;
	}
	uint64_t pairs = (owed - paid) / 2;
	if (!pairs)
		return;
	a->stall_paid[cpu] = paid + 2 * pairs;
	spin_pairs(pairs);
}

static void on_preempt_point(uint32_t cpu)
{
	settle(cpu, cpu < PT_MAX_CPUS && pt_cachemodel_area.cur_tid[cpu] == 0);
}

static void on_dispatch(uint32_t cpu, uint32_t prev_tid, uint32_t next_tid)
{
	if (cpu >= PT_MAX_CPUS)
		return;
	/* the thread leaving pays its own debt before the plugin attributes work to the next */
	settle(cpu, prev_tid == 0);
	pt_cachemodel_area.cur_tid[cpu] = next_tid;
}

static void on_complete(uint32_t tid, uint64_t job, uint64_t response_cycles)
{
	(void)response_cycles;
	/* one writer per thread at a time (its instance is locked) */
	pt_cachemodel_area.done_job[tid % PT_MAX_THREADS] = job;
}

/* <partita/cachemodel_acct.h>: service harts name the thread they run. A service hart is
 * never idle in the kernel's sense, so its stalls are not forgiven; they are not paid either
 * (service harts have no preemption-point hook): feedback applies to scheduler harts only. */
void pt_cachemodel_run(uint32_t hart, uint32_t tid)
{
	if (hart < PT_MAX_CPUS)
		pt_cachemodel_area.cur_tid[hart] = tid;
}

void pt_cachemodel_job_done(uint32_t tid, uint64_t job)
{
	pt_cachemodel_area.done_job[tid % PT_MAX_THREADS] = job;
}

PT_SUBSYS_REGISTER(cachemodel) = {
	.name = "cachemodel",
	.on_dispatch = on_dispatch,
	.on_complete = on_complete,
	.on_preempt_point = on_preempt_point,
};
