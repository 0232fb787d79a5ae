#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the stock siw (Soft-iWARP) driver of Debian's 6.1 kernel out of tree.
# Debian does not ship CONFIG_RDMA_SIW, so the lab builds it from
# linux-source-6.1 against the installed headers and caches the result:
#
#   /var/tmp/softrdma-lab/<KVER>/siw.ko
#
# Usage: build-siw.sh [KVER]   (default: newest /boot/vmlinuz-6.1*-amd64)
# Prints the path of siw.ko on stdout.  Rebuilds only when siw.ko is missing.
set -euo pipefail

kver=${1:-}
if [ -z "$kver" ]; then
	img=$(find /boot -maxdepth 1 -name 'vmlinuz-6.1*-amd64' | sort -V | tail -n1)
	[ -n "$img" ] || { echo "build-siw: no /boot/vmlinuz-6.1*-amd64" >&2; exit 1; }
	kver=${img#/boot/vmlinuz-}
fi

cache=${LAB_CACHE_ROOT:-/var/tmp/softrdma-lab}/$kver
out=$cache/siw.ko
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi

tarball=/usr/src/linux-source-6.1.tar.xz
kbuild=/lib/modules/$kver/build
[ -r "$tarball" ] || { echo "build-siw: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
[ -d "$kbuild" ] || { echo "build-siw: $kbuild missing (install linux-headers-$kver)" >&2; exit 1; }

mkdir -p "$cache"
work=$(mktemp -d "$cache/siw-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "build-siw: extracting drivers/infiniband/sw/siw from $tarball" >&2
tar -xJf "$tarball" -C "$work" --wildcards 'linux-source-6.1/drivers/infiniband/sw/siw/*'
src=$work/linux-source-6.1/drivers/infiniband/sw/siw
[ -f "$src/Makefile" ] || { echo "build-siw: siw sources not found in tarball" >&2; exit 1; }

echo "build-siw: building siw.ko for $kver" >&2
make -s -C "$kbuild" M="$src" CONFIG_RDMA_SIW=m modules >&2
[ -f "$src/siw.ko" ] || { echo "build-siw: build produced no siw.ko" >&2; exit 1; }
cp "$src/siw.ko" "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
echo "$out"
