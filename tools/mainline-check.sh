#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile softrdma against the newest kernel source Debian carries, so that
# API drift shows before users meet it.  Compile only: the bar is a W=1
# build without warnings.
#
# The newest linux-source-X.Y of Debian's archive (bookworm's own entry,
# looked up in the suites below with a private apt state, so the host's
# apt configuration is left alone) is unpacked, configured with defconfig
# plus what softrdma needs and modules_prepare'd once, and cached under
# /var/tmp/softrdma-mainline/<version>.  Prints "ok - ..." or "not ok - ..."
# lines; exits non-zero when the build fails or warns.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=${SOFTRDMA_MAINLINE_ROOT:-/var/tmp/softrdma-mainline}
suites="sid trixie-backports trixie"
mkdir -p "$root/apt/lists/partial" "$root/apt/cache/archives/partial"

uri=$(awk '/^URIs:/ { u = $2 }
	/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print u; exit } }
	/^$/ { u = "" }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
	/etc/apt/sources.list 2>/dev/null)
[ -n "$uri" ] || { echo "not ok - mainline: no bookworm entry in apt's sources"; exit 1; }
for s in $suites; do
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $s main"
done >"$root/apt/sources.list"
apt=(-o "Dir::State::Lists=$root/apt/lists" -o "Dir::Cache=$root/apt/cache"
     -o "Dir::Etc::SourceList=$root/apt/sources.list"
     -o "Dir::Etc::SourceParts=/nonexistent")
apt-get "${apt[@]}" -qq update
pkg=$(apt-cache "${apt[@]}" search --names-only '^linux-source-[0-9]+\.[0-9]+$' |
	cut -d' ' -f1 | sort -V | tail -n 1)
[ -n "$pkg" ] || { echo "not ok - mainline: no linux-source package found"; exit 1; }
ver=${pkg#linux-source-}
src=$root/$ver/src

if [ ! -f "$src/.softrdma-prepared" ]; then
	echo "# mainline: preparing $pkg (once)" >&2
	rm -rf "${root:?}/$ver"
	mkdir -p "$root/$ver"
	(cd "$root/$ver" && apt-get "${apt[@]}" -qq download "$pkg" >&2)
	dpkg-deb --fsys-tarfile "$root/$ver"/"$pkg"_*.deb |
		tar -x -C "$root/$ver" --wildcards '*.tar.xz'
	mkdir -p "$src"
	tar -xJf "$root/$ver/usr/src/$pkg.tar.xz" -C "$src" --strip-components=1
	rm -rf "${root:?}/$ver/usr" "${root:?}/$ver"/*.deb
	make -s -C "$src" defconfig >&2
	"$src/scripts/config" --file "$src/.config" -e MODULES -e INET -e IPV6 \
		-e INFINIBAND -e INFINIBAND_USER_ACCESS -e NET_UDP_TUNNEL \
		-e CRC32 -e LIBCRC32C -e CRYPTO_CRC32C
	make -s -C "$src" olddefconfig >&2
	make -s -C "$src" -j"$(nproc)" modules_prepare >&2
	touch "$src/.softrdma-prepared"
fi

log=$root/$ver/build.log
# A modules_prepare'd tree has no Module.symvers: modpost cannot resolve
# the kernel's symbols there, and says so (in capitals) without failing.
if KBUILD_MODPOST_WARN=1 SOFTRDMA_BUILD_ROOT=$root/$ver/build "$top/tools/build-kernel.sh" "$ver" "$src" \
	>/dev/null 2>"$log"; then
	echo "ok - mainline: softrdma.ko builds against Debian's $pkg"
else
	grep -E 'error|warning:' "$log" | sed 's/^/# /' | head -n 60
	echo "not ok - mainline: softrdma.ko builds against Debian's $pkg (log $log)"
	exit 1
fi
if grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" | sed 's/^/# /' | head -n 60
	echo "not ok - mainline: no compiler warnings with W=1 against $pkg"
	exit 1
fi
echo "ok - mainline: no compiler warnings with W=1 against $pkg"
