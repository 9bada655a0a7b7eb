# Partita — the only entry points a user needs: make run | make test | make bench
VENV := .venv
PARTITA := $(VENV)/bin/partita
PYTEST := $(VENV)/bin/pytest
CONFIG ?= configs/demo.yaml

.PHONY: all setup run test unit lint pytest bench bench-docs bench-net kernel lock clean

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

pytest: setup
	$(PYTEST) -q -n 2 tests/python tests/system

# Benchmarks (not tests): out/bench/*.json and out/bench/benchmarks.md; no tracked file changes.
bench: setup
	$(PARTITA) bench --out out/bench

# The same, then docs/benchmarks.md and configs/overheads/kernel.json (the kernel costs that
# `partita analyze` charges by default) are rewritten from this run: commit them on purpose.
bench-docs: setup
	$(PARTITA) bench --out out/bench --doc

# I/O bandwidth with the host UDP tool through virtio-net (host-paced arrivals: a figure that
# depends on host load, so a benchmark, not a test): out/bench/netbw{400,800}.json.
bench-net: setup
	for s in 400 800; do $(VENV)/bin/python -m partita.spm.netbw \
		tests/system/spm_configs/spm_netbw$$s.yaml --json out/bench/netbw$$s.json || exit 1; done

# Re-pin tools/requirements.lock to what .venv has (after changing tools/pyproject.toml).
lock: setup
	{ echo "# Exact versions the project is tested with (constraints for scripts/bootstrap.sh)."; \
	  echo "# Regenerate after changing tools/pyproject.toml: make lock"; \
	  $(VENV)/bin/pip freeze --exclude-editable | grep -iv '^partita'; } > tools/requirements.lock

# Build the kernel image for $(CONFIG) into build/<name>/partita.elf.
kernel: setup
	$(PARTITA) build $(CONFIG)

clean:
	rm -rf build out
