# Host unit tests of the portable SPM logic (cmocka): make -f mk/unit-spm.mk
# Builds tests/unit/spm/test_*.c with subsys/spm/spm.c into build/unit-spm/ and runs them.
HOST_CC ?= gcc
OUT := build/unit-spm
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS_SPM := -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra -Werror $(SAN) \
	-Ikernel/include -Isubsys/spm -Isubsys/io -Isubsys/spm/include -Isubsys/io/include \
	-Itests/unit/spm
SRCS_SPM := subsys/spm/spm.c subsys/io/flow.c
TESTS := $(patsubst tests/unit/spm/%.c,%,$(wildcard tests/unit/spm/test_*.c))
BINS := $(addprefix $(OUT)/,$(TESTS))

.PHONY: run build clean
run: build
	@fail=0; for t in $(BINS); do echo "== $$t"; $$t || { fail=1; echo "FAILED: $$t"; }; done; \
	if [ $$fail -ne 0 ]; then echo "spm unit tests: FAILURES"; exit 1; fi; \
	echo "spm unit tests: all $(words $(BINS)) programs passed"

build: $(BINS)

$(OUT)/test_%: tests/unit/spm/test_%.c $(SRCS_SPM) $(wildcard subsys/*/*.h subsys/*/include/partita/*.h)
	@mkdir -p $(OUT)
	$(HOST_CC) $(CFLAGS_SPM) $< $(SRCS_SPM) -o $@ -lcmocka

clean:
	rm -rf $(OUT)
