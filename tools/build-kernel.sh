#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build softrdma.ko for one kernel series in a copy of the source, so that
# builds for several kernels do not share object files with the tree's own
# (make builds in place, for one kernel).
#
# Usage: tools/build-kernel.sh SERIES [KDIR]
#   SERIES  6.1 or 6.12: Debian's newest installed headers of that series
#   KDIR    another kernel build tree instead (e.g. a mainline one)
# Prints the module's path on stdout; the compiler's output goes to stderr.
# Exits non-zero when the build fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=kernel.sh
. "$top/tools/kernel.sh"

series=${1:?usage: build-kernel.sh SERIES [KDIR]}
kdir=${2:-$(kernel_headers "$series")}
[ -n "$kdir" ] && [ -e "$kdir/Makefile" ] ||
	{ echo "build-kernel: no kernel build tree for $series (run make deps)" >&2; exit 1; }

# one copy per source tree and series: two checkouts never share objects
tree=$(printf '%s' "$top" | cksum | cut -d' ' -f1)
out=${SOFTRDMA_BUILD_ROOT:-/var/tmp/softrdma-build}/$series/$tree
mkdir -p "$out"
# by content, not by time (-t is left out): a file whose bytes changed
# gets the copy's time, newer than its object, so make rebuilds it, even
# when the source's own time is older (another branch checked out)
rsync -rlpD --checksum --delete --exclude '*.o' --exclude '*.ko' \
	--exclude '.*.cmd' --exclude '*.mod*' --exclude 'modules.order' \
	--exclude 'Module.symvers' "$top/drivers" "$top/include" "$out/" >&2
# the copy keeps its objects: make rebuilds what changed since
make -C "$kdir" M="$out/drivers/infiniband/sw/softrdma" \
	CONFIG_RDMA_SOFTRDMA=m W=1 modules >&2
echo "$out/drivers/infiniband/sw/softrdma/softrdma.ko"
