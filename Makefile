# Partita — the only entry points a user needs: make run | make test | make bench
VENV := .venv
PARTITA := $(VENV)/bin/partita
PYTEST := $(VENV)/bin/pytest
CONFIG ?= configs/demo.yaml

.PHONY: all setup run test unit lint pytest bench kernel clean fuzz fuzz-kernel fuzz-host limits-header soak

all: run

setup:
	@scripts/bootstrap.sh

# Boot the default system for a few virtual seconds; prints the report,
# writes out/trace.json and out/gantt.png.
run: setup
	$(PARTITA) run $(CONFIG) --out out

# Every test: host unit tests of the portable core, lint, Python and QEMU system tests.
test: setup unit lint pytest

unit: setup
	$(MAKE) -f mk/unit.mk

lint: setup
	$(VENV)/bin/ruff check tools tests
	$(VENV)/bin/python -m partita.layers

pytest: setup
	$(PYTEST) -q -n 2 tests/python tests/system

# Long fuzzing campaigns (not part of `make test`, which runs bounded versions of the same
# properties). fuzz-host: hypothesis on `partita config` (mutated YAML; a sample of accepted
# mutants is built and booted) and on the trace decoder (mutated and random trace files).
fuzz: fuzz-host fuzz-kernel

fuzz-host: setup
	PARTITA_FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-20000} PARTITA_FUZZ_BOOTS=$${FUZZ_BOOTS:-10} \
		$(PYTEST) -q -p no:cacheprovider tests/python/test_fuzz_config.py \
		tests/python/test_bad_inputs.py tests/system/test_sys_fuzz_config.py

# One virtual hour of the demo with the host draining the trace rings (about two hours of
# wall time): no record lost, no release drift, no growing backlog. Not part of `make test`.
SOAK_S ?= 3600
soak: setup
	$(PARTITA) soak $(CONFIG) --virtual-s $(SOAK_S) --out out/soak

# Regenerate kernel/include/partita/limits.h from tools/partita/limits.py (committed).
limits-header: setup
	$(VENV)/bin/python -m partita.limits

# Benchmarks (not tests): out/bench/*.json and docs/benchmarks.md.
bench: setup
	$(PARTITA) bench --out out/bench

# System-call fuzzing: seeds 2-4, a million calls each (FUZZ_SEEDS, FUZZ_CALLS to change).
FUZZ_SEEDS ?= 2-4
FUZZ_CALLS ?= 1000000
fuzz-kernel: setup
	$(PARTITA) fuzz --seeds $(FUZZ_SEEDS) --calls $(FUZZ_CALLS)

# Build the kernel image for $(CONFIG) into build/<name>/partita.elf.
kernel: setup
	$(PARTITA) build $(CONFIG)

clean:
	rm -rf build out
