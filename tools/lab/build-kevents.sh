#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the lab's kernel consumer of QP events (tools/lab/kevents/) for one
# kernel, W=1, a warning failing the build, and cache it by its sources:
#
#   /var/tmp/softrdma-lab/<KVER>/kevents-<hash>.ko
#
# Usage: build-kevents.sh [KVER]   (default: the newest installed 6.1 kernel)
# Prints the path of the module on stdout; the compiler's output goes to
# stderr.
set -euo pipefail

here=$(dirname "$(readlink -f "$0")")
# shellcheck source=../kernel.sh
. "$here/../kernel.sh"

kver=${1:-$(kernel_release "$SOFTRDMA_DEFAULT_KERNEL")}
[ -n "$kver" ] || { echo "build-kevents: no Debian $SOFTRDMA_DEFAULT_KERNEL kernel in /boot" >&2; exit 1; }
kbuild=/lib/modules/$kver/build
[ -d "$kbuild" ] || { echo "build-kevents: $kbuild missing (install linux-headers-$kver)" >&2; exit 1; }

cache=${LAB_CACHE_ROOT:-/var/tmp/softrdma-lab}/$kver
h=$(cat "$here/kevents/kevents.c" "$here/kevents/Kbuild" | sha256sum | cut -c1-16)
out=$cache/kevents-$h.ko
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/kevents-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here/kevents/kevents.c" "$here/kevents/Kbuild" "$work/"
echo "build-kevents: building kevents.ko for $kver" >&2
make -s -C "$kbuild" M="$work" W=1 modules >"$work/build.log" 2>&1 ||
	{ cat "$work/build.log" >&2; exit 1; }
cat "$work/build.log" >&2
if grep -q 'warning:' "$work/build.log"; then
	echo "build-kevents: warnings: W=1 must be clean" >&2
	exit 1
fi
[ -f "$work/kevents.ko" ] || { echo "build-kevents: no kevents.ko" >&2; exit 1; }
cp "$work/kevents.ko" "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
# keep the cache small: drop other versions
find "$cache" -maxdepth 1 -name 'kevents-*.ko' ! -path "$out" -delete
echo "$out"
