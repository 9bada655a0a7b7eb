#!/usr/bin/env bash
# QEMU with Partita's device models (platform/qemu-virt/devices/, GPL-2.0-or-later), built from
# Debian's own source package of the installed qemu-system-misc, riscv64-softmmu only:
#   build/qemu/bin/qemu-system-riscv64
# Idempotent: a stamp keyed on the QEMU version, our device sources and this script makes the
# second run return at once. `make qemu-dev` calls it; `partita run` too, when a configuration
# declares a device back end. A lock serializes concurrent callers (parallel tests).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEV=platform/qemu-virt/devices
OUT=build/qemu
BIN=$OUT/bin/qemu-system-riscv64
JOBS=${QEMU_DEV_JOBS:-2}

# The source version of the installed binary package (without a binNMU suffix such as +b3).
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-misc 2>/dev/null || true)
if [ -z "$ver" ]; then
  echo "qemu-dev: qemu-system-misc is not installed (run scripts/bootstrap.sh first)" >&2
  exit 1
fi
want=$( { echo "$ver"; cat "$0" "$DEV"/*.c "$DEV"/meson.build "$DEV"/*.patch; } \
        | sha256sum | cut -c1-16)
stamp=$OUT/.stamp
if [ -x "$BIN" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

mkdir -p "$OUT"
exec 9>"$OUT/.lock"
flock 9
# Another caller may have finished the build while this one waited for the lock.
if [ -x "$BIN" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

# Build dependencies of a riscv64-softmmu build with every optional feature off (what
# `configure --without-default-features` still needs): meson/ninja, glib, pixman, zlib, libfdt
# (the virt machine builds its device tree), libslirp (`-netdev user`, used by the virtio-net
# tests), pkg-config, and dpkg-dev for dpkg-source.
DEPS=(dpkg-dev meson ninja-build pkg-config gcc make python3 libglib2.0-dev libpixman-1-dev
      zlib1g-dev libfdt-dev libslirp-dev)
missing=()
for p in "${DEPS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# Debian's source packages: a deb-src twin of the deb822 sources (or of sources.list lines).
srcfile=/etc/apt/sources.list.d/partita-deb-src.sources
need_update=0
if ! apt-cache showsrc qemu 2>/dev/null | grep -qx "Version: $ver"; then
  if [ ! -f "$srcfile" ]; then
    echo "qemu-dev: adding deb-src entries ($srcfile)"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed -e 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        | $SUDO tee "$srcfile" >/dev/null
    else
      grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
        | $SUDO tee "${srcfile%.sources}.list" >/dev/null
    fi
  fi
  need_update=1
fi
if [ ${#missing[@]} -gt 0 ] || [ $need_update = 1 ]; then
  $SUDO apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "qemu-dev: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# Debian's source tree of exactly the installed version (Debian's patches applied).
SRC=$OUT/src/qemu
if [ ! -f "$SRC/.partita-version" ] || [ "$(cat "$SRC/.partita-version")" != "$ver" ]; then
  echo "qemu-dev: fetching Debian's source of qemu $ver"
  rm -rf "$OUT/src" "$OUT/obj"
  mkdir -p "$OUT/src"
  # (apt-get warns on stderr that root downloads unsandboxed; kept in the log, not shown)
  (cd "$OUT/src" && apt-get source -qq --download-only "qemu=$ver" > fetch.log 2>&1 \
     && dpkg-source -q -x qemu_*.dsc qemu >> fetch.log 2>&1) || {
    cat "$OUT/src/fetch.log" >&2; echo "qemu-dev: fetching qemu $ver failed" >&2; exit 1; }
  echo "$ver" > "$SRC/.partita-version"
fi

# Our devices: hw/partita/ is a copy of platform/qemu-virt/devices/ (refreshed every build);
# qemu-7.2.patch hooks it into hw/meson.build (applied once).
rm -rf "$SRC/hw/partita"
mkdir -p "$SRC/hw/partita"
cp "$DEV"/*.c "$DEV"/meson.build "$DEV"/LICENSE "$SRC/hw/partita/"
if ! (cd "$SRC" && patch -p1 -R -s -f --dry-run < "$ROOT/$DEV/qemu-7.2.patch" >/dev/null 2>&1); then
  (cd "$SRC" && patch -p1 -s -f < "$ROOT/$DEV/qemu-7.2.patch")
fi

CONFIGURE=(--target-list=riscv64-softmmu --without-default-features --enable-tcg
           --enable-fdt=system --enable-slirp --enable-plugins --disable-docs --disable-tools
           --disable-werror "--with-pkgversion=Debian $ver + Partita devices")
mkdir -p "$OUT/obj"
if [ ! -f "$OUT/obj/build.ninja" ] || [ "$(cat "$OUT/obj/.partita-configure" 2>/dev/null)" != "${CONFIGURE[*]}" ]; then
  echo "qemu-dev: configure ${CONFIGURE[*]}"
  (cd "$OUT/obj" && nice "$ROOT/$SRC/configure" "${CONFIGURE[@]}" > configure.log 2>&1) || {
    echo "qemu-dev: configure failed, see $OUT/obj/configure.log" >&2; exit 1; }
  echo "${CONFIGURE[*]}" > "$OUT/obj/.partita-configure"
fi

echo "qemu-dev: building $BIN (nice make -j$JOBS; a cold build takes 10-25 min on 2 cores)"
start=$(date +%s)
# Only the emulator: not QEMU's own test programs.
if ! (cd "$OUT/obj" && nice make -j"$JOBS" qemu-system-riscv64 > build.log 2>&1); then
  tail -30 "$OUT/obj/build.log" >&2
  echo "qemu-dev: build failed, see $OUT/obj/build.log" >&2
  exit 1
fi
mkdir -p "$OUT/bin"
cp "$OUT/obj/qemu-system-riscv64" "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
"$BIN" -device help | grep -q '"partita-sched"' || {
  echo "qemu-dev: $BIN lacks the partita-sched device" >&2; exit 1; }
echo "$want" > "$stamp"
echo "qemu-dev: built $BIN in $(( $(date +%s) - start )) s"
