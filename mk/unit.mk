# Host unit tests of the portable core (cmocka). From the repo root: make -f mk/unit.mk
# The tests mirror the kernel: tests/unit/<part>/test_*.c (sched, mm, trace, core, svc, apps,
# cachesim (the timing model's core, tools/cachesim);
# spm/ has its own suite, mk/unit-spm.mk). Builds each into build/unit/<part>/ and runs them
# all; prints cmocka's summary per program and exits non-zero if any test failed (all programs
# run even after a failure). A new test program tests/unit/<part>/test_foo.c names the kernel
# sources it links in test_foo_SRCS; the shared helpers stay in tests/unit/ (fake_hal.c, a
# settable cpu id and clock, is linked into every program; test_util.h, rb_check.h).
# Leak checking is off (LeakSanitizer needs ptrace, which some CI sandboxes forbid); ASan and
# UBSan errors abort the program.
HOST_CC ?= gcc
OUT := build/unit
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS_UNIT := -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra -Werror $(SAN) \
	-Ikernel/include -Ikernel -Iapps/automotive -Itests/unit -DPT_SCHED_COUNT_STEPS -MMD -MP
LDFLAGS_UNIT := $(SAN)
LDLIBS_UNIT := -lcmocka -lm -pthread

SCHED_SRCS := kernel/sched/sched.c kernel/sched/fp/fp.c kernel/sched/edf/edf_rq.c \
	kernel/sched/edf/edf.c kernel/sched/gedf/gedf.c kernel/sched/tdm/tdm.c
MM_SRCS := kernel/mm/colors.c kernel/mm/page_alloc.c kernel/mm/heap.c
TRACE_SRCS := kernel/trace/trace.c
SVC_SRCS := $(sort $(wildcard kernel/svc/*.c))
APP_SRCS := $(wildcard apps/automotive/*.c)
COMMON_SRCS := tests/unit/fake_hal.c

# test program -> the kernel sources it links
# policy tests without the core: its services for policies recorded (policy_services.c)
POLICY_TEST_SRCS := $(SCHED_SRCS) tests/unit/sched/policy_services.c
test_fp_SRCS := $(POLICY_TEST_SRCS)
test_edf_SRCS := $(POLICY_TEST_SRCS)
test_gedf_SRCS := $(POLICY_TEST_SRCS)
test_tdm_SRCS := $(POLICY_TEST_SRCS)
test_colors_SRCS := $(MM_SRCS)
test_page_alloc_SRCS := $(MM_SRCS)
test_heap_SRCS := $(MM_SRCS)
test_trace_SRCS := $(TRACE_SRCS)
test_apps_SRCS := $(APP_SRCS)
test_subsys_SRCS := kernel/core/subsys.c
test_svc_ring_SRCS := kernel/svc/ring.c kernel/svc/console.c
test_svc_lock_SRCS := kernel/svc/lock.c kernel/svc/wait.c
test_svc_lifecycle_SRCS := kernel/svc/svc.c kernel/svc/wait.c
test_cachesim_SRCS := tools/cachesim/cache_model.c
# coproc/: the coprocessor interface (subsys/coproc) with a fake service and the scheduler
# service (kernel/sched/offload/schedsvc.c)
OFFLOAD_SRCS := kernel/sched/offload/offload.c kernel/sched/offload/schedsvc.c
COPROC_SRCS := subsys/coproc/coproc.c kernel/svc/ring.c kernel/svc/lock.c kernel/svc/wait.c \
	$(SCHED_SRCS) $(OFFLOAD_SRCS) tests/unit/sched/policy_services.c
test_coproc_SRCS := $(COPROC_SRCS)
# core/test_core: the job and dispatch logic of kernel/core (the real scheduler core, job and
# time code, policies and trace writer) against the fake HAL
CORE_SRCS := kernel/core/sched_core.c kernel/core/job.c kernel/core/time.c kernel/core/irq.c \
	kernel/core/subsys.c $(TRACE_SRCS) $(SCHED_SRCS) tests/unit/core/core_harness.c
test_core_SRCS := $(CORE_SRCS)
test_irq_SRCS := $(CORE_SRCS)
# core/test_sync: kernel/sync (wait queues, semaphores, mutexes, queues) on the same harness
test_sync_SRCS := $(CORE_SRCS) $(sort $(wildcard kernel/sync/*.c))

# every tests/unit/<part>/test_*.c but spm/ and dataflow/ (their own suites, below)
TEST_SRCS := $(sort $(filter-out tests/unit/spm/% tests/unit/dataflow/%,$(wildcard tests/unit/*/test_*.c)))
BINS := $(patsubst tests/unit/%.c,$(OUT)/%,$(TEST_SRCS))
ifneq ($(wildcard tests/unit/test_*.c),)
$(error $(wildcard tests/unit/test_*.c): a test program belongs in tests/unit/<part>/ (the \
	kernel folder it tests), or it would not be built)
endif
# Other components' host suites (mk/unit-<name>.mk, e.g. unit-spm.mk) run from here too, so
# `make test` (which calls only this file) covers them; each must exit non-zero on failure.
SUITES := $(sort $(wildcard mk/unit-*.mk))

.PHONY: run build clean freestanding
.SECONDARY:
run: build freestanding
	@fail=0; for t in $(BINS); do \
		echo "== $$t"; \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 $$t || { fail=1; echo "FAILED: $$t"; }; \
	done; \
	for m in $(SUITES); do \
		echo "== suite $$m"; \
		$(MAKE) --no-print-directory -f $$m || { fail=1; echo "FAILED: suite $$m"; }; \
	done; \
	if [ $$fail -ne 0 ]; then echo "unit tests: FAILURES"; exit 1; fi; \
	echo "unit tests: all $(words $(BINS)) programs and $(words $(SUITES)) suites passed"

build: $(BINS)

obj = $(patsubst %.c,$(OUT)/obj/%.o,$(1))

$(OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	@$(HOST_CC) $(CFLAGS_UNIT) -c $< -o $@

.SECONDEXPANSION:
$(BINS): $(OUT)/%: $$(call obj,tests/unit/$$*.c $$($$(notdir $$*)_SRCS) $(COMMON_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LD    $@"
	@$(HOST_CC) $(LDFLAGS_UNIT) $^ -o $@ $(LDLIBS_UNIT)

# The same portable sources, cross-compiled freestanding for riscv64 at -O2 and -Os: they must
# reference nothing but the HAL and each other (no memcpy/memset, no libgcc helpers), and the
# apps nothing outside apps/ (their code is mapped into user partitions alone).
CROSS_CC ?= riscv64-unknown-elf-gcc
CROSS_NM ?= riscv64-unknown-elf-nm
CROSS_FLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -std=c11 -Wall -Wextra \
	-Werror -ffreestanding -nostdlib -Ikernel/include -Ikernel
KERNEL_PORTABLE := $(SCHED_SRCS) $(OFFLOAD_SRCS) subsys/coproc/coproc.c $(MM_SRCS) $(TRACE_SRCS) $(SVC_SRCS)
freestanding:
	@if ! command -v $(CROSS_CC) >/dev/null; then echo "freestanding: $(CROSS_CC) missing, skipped"; exit 0; fi; \
	set -e; d=$(OUT)/cross; mkdir -p $$d; bad=0; \
	for O in -O2 -Os; do \
		rm -f $$d/*.o; \
		for f in $(KERNEL_PORTABLE); do $(CROSS_CC) $(CROSS_FLAGS) $$O -c $$f -o $$d/k_$$(basename $$f .c).o; done; \
		for f in $(APP_SRCS); do $(CROSS_CC) $(CROSS_FLAGS) $$O -c $$f -o $$d/a_$$(basename $$f .c).o; done; \
		k=$$($(CROSS_NM) -u $$d/k_*.o | awk 'NF==2 {print $$2}' | grep -v '^hal_\|^pt_' | sort -u); \
		a=$$($(CROSS_NM) -u $$d/a_*.o | awk 'NF==2 {print $$2}' | grep -v '^app_' | sort -u); \
		if [ -n "$$k$$a" ]; then echo "freestanding $$O: unexpected external symbols: $$k $$a"; bad=1; fi; \
	done; \
	if [ $$bad -ne 0 ]; then exit 1; fi; \
	echo "freestanding: sched, mm, trace, svc and apps cross-compile for riscv64 with no outside symbols"

clean:
	rm -rf $(OUT)

-include $(shell find $(OUT)/obj -name '*.d' 2>/dev/null)
