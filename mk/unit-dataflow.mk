# Host unit tests of the data-flow subsystem (cmocka): make -f mk/unit-dataflow.mk
# Builds tests/unit/dataflow/test_*.c with the portable sources of subsys/dataflow/ into
# build/unit-dataflow/ and runs them (mk/unit.mk runs this suite too).
HOST_CC ?= gcc
OUT := build/unit-dataflow
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS_DF := -std=c11 -D_DEFAULT_SOURCE -O1 -g -Wall -Wextra -Werror $(SAN) -pthread \
	-Ikernel/include -Isubsys/dataflow -Isubsys/dataflow/include -Itests/unit/dataflow
SRCS_DF := subsys/dataflow/tsm.c
TESTS := $(patsubst tests/unit/dataflow/%.c,%,$(wildcard tests/unit/dataflow/test_*.c))
BINS := $(addprefix $(OUT)/,$(TESTS))

.PHONY: run build clean
run: build
	@fail=0; for t in $(BINS); do echo "== $$t"; $$t || { fail=1; echo "FAILED: $$t"; }; done; \
	if [ $$fail -ne 0 ]; then echo "dataflow unit tests: FAILURES"; exit 1; fi; \
	echo "dataflow unit tests: all $(words $(BINS)) programs passed"

build: $(BINS)

$(OUT)/test_%: tests/unit/dataflow/test_%.c $(SRCS_DF) $(wildcard subsys/dataflow/*.h subsys/dataflow/include/partita/*.h tests/unit/dataflow/*.h)
	@mkdir -p $(OUT)
	$(HOST_CC) $(CFLAGS_DF) $< $(SRCS_DF) -o $@ -lcmocka

clean:
	rm -rf $(OUT)
