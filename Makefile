# Partita — the only entry points a user needs: make run | make test | make bench
VENV := .venv
PARTITA := $(VENV)/bin/partita
PYTEST := $(VENV)/bin/pytest
CONFIG ?= configs/demo.yaml

.PHONY: all setup run test unit lint pytest cachesim qemu-dev qemu-dev-if-used clean-qemu bench bench-docs bench-net kernel lock clean uk bench-uk fuzz fuzz-kernel fuzz-host limits-header trace-events soak

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

pytest: setup qemu-dev-if-used
	$(PYTEST) -q -n 2 tests/python tests/system

# QEMU 7.2 built from Debian's source package with Partita's device models
# (platform/qemu-virt/devices/, GPL-2.0-or-later): build/qemu/bin/qemu-system-riscv64, once
# (10-25 min cold on 2 cores, docs/devices.md; instant while the device sources are unchanged).
# `partita run` uses it only for a configuration that declares an emulated device (and builds
# it if needed).
qemu-dev: setup
	@scripts/qemu-dev.sh

# Before the tests, only when a configuration or test of the suite uses an emulated device (a
# `backend: device` section, a test that asks for device_qemu(), or the fp implementations of
# tests/system/conftest.py, FP_IMPL_BACKEND, which include the device).
QEMU_DEV_USERS = $(shell grep -rlE '^[[:space:]]*backend:[[:space:]]*device\b|device_qemu|FP_IMPL_BACKEND' \
	configs tests/system --include='*.yaml' --include='*.py' 2>/dev/null)
qemu-dev-if-used: setup
	@if [ -n "$(strip $(QEMU_DEV_USERS))" ]; then scripts/qemu-dev.sh; fi

# The cache-model QEMU plugin (tools/cachesim, MIT): build/cachesim/libcachesim.so. `partita
# run --model cachesim` (or a cache_model: section) calls this itself when the plugin is stale.
cachesim:
	$(MAKE) -s -C tools/cachesim OUT=$(CURDIR)/build/cachesim

# The user-level kernel (brief 3, docs/proxy-kernel.md): build/uk/uk, a host program.
# `partita run CFG --uk` builds it itself when it is stale.
uk:
	$(MAKE) -s -C uk OUT=$(CURDIR)/build/uk

# Long fuzzing campaigns (not part of `make test`, which runs bounded versions of the same
# properties). fuzz-host: hypothesis on `partita config` (mutated YAML; a sample of accepted
# mutants is built and booted) and on the trace decoder (mutated and random trace files).
fuzz: fuzz-host fuzz-kernel

fuzz-host: setup
	PARTITA_FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-20000} PARTITA_FUZZ_BOOTS=$${FUZZ_BOOTS:-10} \
		$(PYTEST) -q -p no:cacheprovider tests/python/test_fuzz_config.py \
		tests/python/test_bad_inputs.py tests/system/fuzz/test_sys_fuzz_config.py

# One virtual hour of the demo with the host draining the trace rings (about two hours of
# wall time): no record lost, no release drift, no growing backlog. Not part of `make test`.
SOAK_S ?= 3600
soak: setup
	$(PARTITA) soak $(CONFIG) --virtual-s $(SOAK_S) --out out/soak

# Regenerate kernel/include/partita/limits.h from tools/partita/limits.py (committed).
limits-header: setup
	$(VENV)/bin/python -m partita.limits

# Regenerate the trace-event enums (kernel, subsystems, Python decoder) from the one table,
# kernel/trace/trace_events.yaml (committed; tests/python/test_trace_events.py checks them).
trace-events: setup
	$(VENV)/bin/python -m partita.trace.eventgen

# System-call fuzzing: seeds 2-4, a million calls each (FUZZ_SEEDS, FUZZ_CALLS to change).
FUZZ_SEEDS ?= 2-4
FUZZ_CALLS ?= 1000000
fuzz-kernel: setup
	$(PARTITA) fuzz --seeds $(FUZZ_SEEDS) --calls $(FUZZ_CALLS)

# Benchmarks (not tests): out/bench/*.json and out/bench/benchmarks.md; no tracked file changes.
bench: setup
	$(PARTITA) bench --out out/bench

# The proxy kernel's Table I (docs/proxy-kernel.md): out/bench/uk.json and uk.md; boots QEMU
# with the user-level kernel beside it (host figures depend on host load).
bench-uk: setup
	$(VENV)/bin/python -m partita.subsys.uk.bench --out out/bench

# The same, then docs/benchmarks.md and configs/overheads/kernel.json (the kernel costs that
# `partita analyze` charges by default) are rewritten from this run: commit them on purpose.
bench-docs: setup
	$(PARTITA) bench --out out/bench --doc

# I/O bandwidth with the host UDP tool through virtio-net (host-paced arrivals: a figure that
# depends on host load, so a benchmark, not a test): out/bench/netbw{400,800}.json.
bench-net: setup
	for s in 400 800; do $(VENV)/bin/python -m partita.subsys.spm.netbw \
		tests/system/spm/spm_netbw$$s.yaml --json out/bench/netbw$$s.json || exit 1; done

# Re-pin tools/requirements.lock to what .venv has (after changing tools/pyproject.toml).
lock: setup
	{ echo "# Exact versions the project is tested with (constraints for scripts/bootstrap.sh)."; \
	  echo "# Regenerate after changing tools/pyproject.toml: make lock"; \
	  $(VENV)/bin/pip freeze --exclude-editable | grep -iv '^partita'; } > tools/requirements.lock

# Build the kernel image for $(CONFIG) into build/<name>/partita.elf.
kernel: setup
	$(PARTITA) build $(CONFIG)

# build/qemu (QEMU with Partita's devices, 10-25 min to rebuild) survives `clean`: clean-qemu.
clean:
	rm -rf out
	if [ -d build ]; then find build -mindepth 1 -maxdepth 1 ! -name qemu -exec rm -rf {} +; fi

clean-qemu:
	rm -rf build/qemu
