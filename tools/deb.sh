#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build softrdma-dkms_<VERSION>_all.deb with Debian's own tooling
# (dpkg-buildpackage, debhelper, dh_dkms): the module's source for DKMS,
# the modprobe.d file that keeps rdma_rxe and siw away, and the docs.
# Usage: tools/deb.sh [OUTDIR]   (default: the top of the tree)
#
# The package is built from a staged copy holding only what it ships, so
# that the tree's own build products never end up in it and the build
# writes nothing beside the tree.  The version is VERSION's, written into
# debian/changelog here.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:-$top}" && pwd)
ver=$(cat "$top/VERSION")
[[ $ver =~ ^[0-9][0-9A-Za-z.+~]*$ ]] ||
	{ echo "deb: VERSION '$ver' is not a Debian native version" >&2; exit 1; }
for t in dpkg-buildpackage dh dh_dkms; do
	command -v "$t" >/dev/null ||
		{ echo "deb: $t missing (run tools/deps.sh)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/softrdma-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/softrdma-$ver
drv=drivers/infiniband/sw/softrdma

# what DKMS needs to build the module: the driver's sources and Kbuild
# files, and include/ (its tracepoint header); no build products
mkdir -p "$stage/$drv"
(cd "$top/$drv" && find . -maxdepth 1 -type f \
	\( -name '*.[ch]' ! -name '*.mod.c' -o -name Makefile -o -name Kconfig \) \
	-exec cp -p {} "$stage/$drv/" \;)
(cd "$top" && find include -type f -name '*.h' -exec cp -p --parents {} "$stage/" \;)
cp -p "$top/dkms.conf" "$top/VERSION" "$top/README.md" "$stage/"
(cd "$top" && cp -p --parents Documentation/*.md Documentation/*.rst "$stage/")
mkdir -p "$stage/tools"
cp -p "$top/tools/softrdma-modprobe.conf" "$stage/tools/"
cp -a "$top/packaging/debian" "$stage/debian"

# the changelog's date is the last commit's, so that a rebuild of the same
# tree gives the same package
when=$(git -C "$top" log -1 --format=%cD 2>/dev/null || true)
[ -n "$when" ] || when=$(date -R)
maint=$(sed -n 's/^Maintainer: //p' "$stage/debian/control")
cat >"$stage/debian/changelog" <<CHANGES
softrdma ($ver) unstable; urgency=medium

  * softrdma $ver.

 -- $maint  $when
CHANGES

log=$work/build.log
if ! (cd "$stage" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1; then
	cat "$log" >&2
	echo "deb: dpkg-buildpackage failed" >&2
	exit 1
fi
deb=softrdma-dkms_${ver}_all.deb
mv "$work/$deb" "$out/$deb"
echo "$out/$deb"
