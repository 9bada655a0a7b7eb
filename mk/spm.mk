# Brief 0: SPM task images and the SPM/I/O subsystem, included by mk/kernel.mk.
# Each image in apps/spm/ is linked at base 0 and again at another base; the relocation
# checker (tools/partita/subsys/spm/reloc.py) fails the build if an absolute relocation is left in
# its objects or if the two links differ. The images a configuration uses are then placed in
# main memory by the generated $(BUILD)/gen/pt_spm_images.S.
PYTHON ?= .venv/bin/python
.DEFAULT_GOAL := all
SPM_OUT := $(BUILD)/spm
SPM_ALT_BASE := 0x10000
SPM_CFLAGS := $(ARCHFLAGS) -std=c11 -O2 -Wall -Wextra -Werror -ffreestanding -nostdlib \
	-fno-common -fno-stack-protector -fno-pic -fno-pie -mno-relax -fno-jump-tables \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns -Iapps/spm \
	-Isubsys/spm/include -Isubsys/io/include
SPM_LDFLAGS := -nostdlib -Wl,--no-relax -Wl,--gc-sections -Wl,--no-warn-rwx-segments \
	-T apps/spm/image.ld

-include $(BUILD)/gen/pt_spm_images.mk
SPM_IMAGES := $(SPM_IMAGES_USED)
SPM_BINS := $(addprefix $(SPM_OUT)/,$(addsuffix .bin,$(SPM_IMAGES)))

# image -> objects: a wrapper in apps/spm/ plus the automotive kernel it runs
spm_objs = $(SPM_OUT)/obj/$(1).o $(if $(wildcard apps/automotive/$(1).c),\
	$(SPM_OUT)/obj/auto_$(1).o $(SPM_OUT)/obj/auto_tables.o)

$(SPM_OUT)/obj/%.o: apps/spm/%.c subsys/spm/include/partita/spm_task.h mk/spm.mk
	@mkdir -p $(dir $@)
	$(CC) $(SPM_CFLAGS) -c -o $@ $<

$(SPM_OUT)/obj/auto_%.o: apps/automotive/%.c mk/spm.mk
	@mkdir -p $(dir $@)
	$(CC) $(SPM_CFLAGS) -c -o $@ $<

.SECONDEXPANSION:
$(SPM_OUT)/%.elf: $$(call spm_objs,$$*) apps/spm/image.ld
	$(CC) $(SPM_CFLAGS) $(SPM_LDFLAGS) -o $@ $(call spm_objs,$*) $(LIBGCC)
	$(CC) $(SPM_CFLAGS) $(SPM_LDFLAGS) -Wl,--defsym=__image_base=$(SPM_ALT_BASE) \
		-o $(SPM_OUT)/$*.alt.elf $(call spm_objs,$*) $(LIBGCC)

$(SPM_OUT)/%.bin: $(SPM_OUT)/%.elf tools/partita/subsys/spm/reloc.py
	$(CROSS)objcopy -O binary $< $@
	$(CROSS)objcopy -O binary $(SPM_OUT)/$*.alt.elf $(SPM_OUT)/$*.alt.bin
	$(PYTHON) -m partita.subsys.spm.reloc --image $@ --image-at $(SPM_OUT)/$*.alt.bin \
		$(call spm_objs,$*) || { rm -f $@; exit 1; }

.PHONY: spm-images
spm-images: $(SPM_BINS)

# the generated image blobs and tables
GEN_S := $(wildcard $(BUILD)/gen/*.S)
OBJS += $(patsubst $(BUILD)/gen/%.S,$(OBJ)/gen/%.S.o,$(GEN_S))
$(OBJ)/gen/%.S.o: $(BUILD)/gen/%.S $(SPM_BINS) mk/spm.mk
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c -o $@ $<

# generated SPM tables include subsys/spm/spm_config.h
$(OBJ)/gen/%: CFLAGS += -Isubsys
.PRECIOUS: $(SPM_OUT)/%.elf $(SPM_OUT)/obj/%.o
