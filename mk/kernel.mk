# Build the kernel image: make -f mk/kernel.mk BUILD=build/<cfg>
# Inputs: kernel/ arch/riscv64/ platform/qemu-virt/ apps/ and $(BUILD)/gen/pt_config.c.
# Output: $(BUILD)/partita.elf (objects under $(BUILD)/obj).
BUILD ?= build/default
CROSS ?= riscv64-unknown-elf-
CC := $(CROSS)gcc
OBJDUMP := $(CROSS)objdump
OBJCOPY := $(CROSS)objcopy

# Soft-float ABI: no FPU state to switch; libgcc's soft-float lives in user-accessible text.
ARCHFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
# C code may use Zbb (ctz/clz/orc.b, min/max): QEMU 7.2's default `virt` cpu implements it, and
# the FP ready queue's peek is two ctz instructions with it. libgcc is still picked for the
# plain ISA (LIBGCC below), so nothing outside the kernel's own objects changes.
CFLAGS_MARCH := -march=rv64imac_zicsr_zifencei_zbb -mabi=lp64 -mcmodel=medany
# PT_TRACE=0 compiles every trace record out (kernel/trace/trace.h); `partita bench` builds
# that variant in its own directory (build/<name>-notrace) for its "tracing off" figures.
PT_TRACE ?= 1
# PT_ASSERTS=0 compiles the core's invariant checks (PT_ASSERT, kernel/core/kernel.h) out; the
# lean "tracing off" image drops them with the trace, every tested image keeps them.
PT_ASSERTS ?= $(PT_TRACE)
# PT_SPM_MUTANT=n builds one of the deliberate SPM protocol bugs of subsys/spm/spm.h for the
# mutation check of the soundness tests (PARTITA_MAKE_VARS=PT_SPM_MUTANT=n, built in
# build/<name>-PT_SPM_MUTANTn); 0 = none (every other build).
PT_SPM_MUTANT ?= 0
CFLAGS := $(CFLAGS_MARCH) -DPT_TRACE=$(PT_TRACE) -DPT_ASSERTS=$(PT_ASSERTS) \
	-DPT_SPM_MUTANT=$(PT_SPM_MUTANT) -std=c11 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdlib \
	-fno-common -fno-stack-protector -fno-pic -fno-pie -fno-jump-tables \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
	-Ikernel/include -Ikernel -MMD -MP
# The HAL's hot accessors inline (partita/hal.h): only this header of arch/ is visible to all.
CFLAGS += -DPT_HAL_INLINE -Iarch/riscv64/include
# Subsystems publish their headers for applications in subsys/<name>/include/partita/
# (tools/partita/layers.py keeps kernel/ from including them).
CFLAGS += $(addprefix -I,$(wildcard subsys/*/include))
ASFLAGS := $(ARCHFLAGS) -Ikernel/include -Ikernel -MMD -MP
LDSCRIPT := arch/riscv64/kernel.ld
# The multilib is chosen by the plain -march=rv64imac: with the _zicsr_zifencei suffix GCC 12
# matches no multilib and returns the default (hard-float) libgcc, which has no soft-float
# routines, so no application could use floating point.
LIBGCC := $(shell $(CC) -march=rv64imac -mabi=lp64 -print-libgcc-file-name)

# The subsystems this configuration uses (PT_SUBSYS, written by partita config): only their
# folders are compiled and linked; each registers itself (<partita/subsys.h>).
-include $(BUILD)/gen/subsys.mk
# Application directories linked into the image: `partita build` writes $(BUILD)/apps.mk with
# APP_DIRS (apps/lib, the directories the configuration names, and the in-tree ones defining an
# entry; out-of-tree directories as absolute paths; see tools/partita/config/apps.py) and
# rewrites it only when the list changes, so the image is relinked exactly then. Without it
# (plain `make -f mk/kernel.mk`), every in-tree application is linked.
APP_DIRS := apps/automotive apps/bench apps/coloring apps/examples apps/lib
-include $(BUILD)/apps.mk
# platform/qemu-virt/devices/ is QEMU's code (device models built into build/qemu), not the kernel's.
SRCS := $(shell find kernel arch/riscv64 platform/qemu-virt $(addprefix subsys/,$(PT_SUBSYS)) \
	-path platform/qemu-virt/devices -prune -o \( -name '*.c' -o -name '*.S' \) -print | sort)
APP_SRCS := $(shell find $(APP_DIRS) -name '*.c' -o -name '*.S' | grep -v '/configs/' | sort)
OBJ := $(BUILD)/obj
OBJS := $(patsubst %,$(OBJ)/%.o,$(SRCS) $(filter-out /%,$(APP_SRCS))) \
	$(patsubst /%,$(OBJ)/apps/_ext/%.o,$(filter /%,$(APP_SRCS))) \
	$(patsubst $(BUILD)/gen/%.c,$(OBJ)/gen/%.c.o,$(wildcard $(BUILD)/gen/*.c))
# brief 0: SPM task images (position-independent, checked) and generated image blobs
include mk/spm.mk

# Only the HAL implementation may see platform headers; kernel/ talks to partita/hal*.h.
$(OBJ)/arch/%: CFLAGS += -Iarch/riscv64 -Iplatform/qemu-virt
$(OBJ)/arch/%: ASFLAGS += -Iarch/riscv64 -Iplatform/qemu-virt
$(OBJ)/platform/%: CFLAGS += -Iarch/riscv64 -Iplatform/qemu-virt

.PHONY: all
all: $(BUILD)/partita.elf

$(BUILD)/partita.elf: $(OBJS) $(LDSCRIPT) mk/kernel.mk $(wildcard $(BUILD)/apps.mk) \
		$(wildcard $(BUILD)/gen/subsys.mk)
	$(CC) $(CFLAGS) -T $(LDSCRIPT) -Wl,--gc-sections -Wl,-Map,$(BUILD)/partita.map \
		-o $@ $(OBJS) $(LIBGCC)

$(OBJ)/%.c.o: %.c mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Application code runs in U-mode too: its calls to the string helpers must reach the copies
# in the user window (kernel/core/string.c), never the kernel's.
USTRING := $(foreach f,memset memcpy memmove memcmp strlen,--redefine-sym $(f)=pt_u_$(f))
$(OBJ)/apps/%.c.o: apps/%.c mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<
	$(OBJCOPY) $(USTRING) $@

# Out-of-tree applications (partita build --app-dir, or apps: in the configuration): like apps/
# (objects under obj/apps/, so the linker script puts them in the user window),
# plus their own directory, then every out-of-tree directory of the image (an API layer such
# as compat/freertos and the application it serves see each other's headers: FreeRTOS.h
# includes the application's FreeRTOSConfig.h), and apps/ on the include path ("lib/ufmt.h").
EXT_APP_INC := $(addprefix -I,$(filter /%,$(APP_DIRS)))
$(OBJ)/apps/_ext/%.c.o: /%.c mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(dir $<) $(EXT_APP_INC) -Iapps -c -o $@ $<
	$(OBJCOPY) $(USTRING) $@

$(OBJ)/apps/_ext/%.S.o: /%.S mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -I$(dir $<) -c -o $@ $<

$(OBJ)/%.S.o: %.S mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c -o $@ $<

$(OBJ)/gen/%.c.o: $(BUILD)/gen/%.c mk/kernel.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

-include $(OBJS:.o=.d)
