# Partita — the only entry points a user needs: make run | make test | make bench
VENV := .venv
PARTITA := $(VENV)/bin/partita
PYTEST := $(VENV)/bin/pytest
CONFIG ?= configs/demo.yaml

.PHONY: all setup run test unit lint pytest bench kernel clean fuzz fuzz-kernel

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

# Benchmarks (not tests): out/bench/*.json and docs/benchmarks.md.
bench: setup
	$(PARTITA) bench --out out/bench

# Long fuzzing campaigns (docs/security.md); `make test` runs a bounded one.
fuzz: fuzz-kernel

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
