#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the stock siw (Soft-iWARP) driver of a Debian kernel out of tree.
# Debian does not ship CONFIG_RDMA_SIW, so the lab builds it from the
# kernel's own linux-source-<series> against its headers and caches it:
#
#   /var/tmp/softrdma-lab/<KVER>/siw.ko
#
# Usage: build-siw.sh [KVER]   (default: the newest installed 6.1 kernel)
# Prints the path of siw.ko on stdout.  Rebuilds only when siw.ko is missing.
set -euo pipefail

# shellcheck source=../kernel.sh
. "$(dirname "$(readlink -f "$0")")/../kernel.sh"

kver=${1:-$(kernel_release "$SOFTRDMA_DEFAULT_KERNEL")}
[ -n "$kver" ] || { echo "build-siw: no Debian $SOFTRDMA_DEFAULT_KERNEL kernel in /boot" >&2; exit 1; }
# siw from the source of the kernel's own series (6.1.0-57-amd64: 6.1)
series=$(echo "$kver" | cut -d. -f1-2)
series=${series%%-*}

cache=${LAB_CACHE_ROOT:-/var/tmp/softrdma-lab}/$kver
out=$cache/siw.ko
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi

tarball=/usr/src/linux-source-$series.tar.xz
kbuild=/lib/modules/$kver/build
[ -r "$tarball" ] || { echo "build-siw: $tarball missing (apt-get install linux-source-$series)" >&2; exit 1; }
[ -d "$kbuild" ] || { echo "build-siw: $kbuild missing (install linux-headers-$kver)" >&2; exit 1; }

mkdir -p "$cache"
work=$(mktemp -d "$cache/siw-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "build-siw: extracting drivers/infiniband/sw/siw from $tarball" >&2
tar -xJf "$tarball" -C "$work" --wildcards "linux-source-$series/drivers/infiniband/sw/siw/*"
src=$work/linux-source-$series/drivers/infiniband/sw/siw
[ -f "$src/Makefile" ] || { echo "build-siw: siw sources not found in tarball" >&2; exit 1; }

echo "build-siw: building siw.ko for $kver" >&2
make -s -C "$kbuild" M="$src" CONFIG_RDMA_SIW=m modules >&2
[ -f "$src/siw.ko" ] || { echo "build-siw: build produced no siw.ko" >&2; exit 1; }
cp "$src/siw.ko" "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
echo "$out"
