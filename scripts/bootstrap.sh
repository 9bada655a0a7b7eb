#!/usr/bin/env bash
# Idempotent set-up: Debian packages (once, only what is missing) and the Python venv.
# A stamp file keyed on the inputs makes the second run return at once.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PKGS=(qemu-system-misc gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf
          libcmocka-dev python3-venv make gcc gdb-multiarch)
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=.venv/.partita-stamp
want=$(cat tools/pyproject.toml tools/requirements.lock | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: creating .venv"
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/pip install -q --upgrade pip >/dev/null
  # ranges in pyproject.toml, exact versions from the lock file
  .venv/bin/pip install -q -c tools/requirements.lock -e "tools[dev]"
  echo "$want" > "$stamp"
fi
