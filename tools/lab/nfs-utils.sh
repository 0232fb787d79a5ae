#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The NFS server's user-space tools for the lab's NFS/RDMA scenario
# (exportfs, rpc.mountd), unpacked from Debian's nfs-kernel-server
# package into the lab's cache rather than installed: installing the
# package would start an NFS server and rpcbind on the host, and the
# lab loads nothing into the host's kernel.  The guests see the host's
# files, so they run the tools from the cache:
#
#   /var/tmp/softrdma-lab/nfs-utils/usr/sbin/{exportfs,rpc.mountd}
#
# Their shared libraries come with tools/deps.sh.  Prints the sbin
# directory on stdout; downloads only when the tools are missing.
set -euo pipefail

root=${LAB_CACHE_ROOT:-/var/tmp/softrdma-lab}/nfs-utils
sbin=$root/usr/sbin
if [ -x "$sbin/exportfs" ] && [ -x "$sbin/rpc.mountd" ]; then
	echo "$sbin"
	exit 0
fi

tmp=$(mktemp -d "${root%/*}/nfs-utils.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's download sandbox user must be able to write there
chmod 0777 "$tmp"
download() { (cd "$tmp" && apt-get download -q nfs-kernel-server) >&2; }
# without package lists (a machine whose lists were cleaned), fetch them
download || { apt-get update -qq >&2 && download; } ||
	{ echo "nfs-utils: apt-get download nfs-kernel-server failed" >&2; exit 1; }
mkdir "$tmp/root"
dpkg-deb -x "$tmp"/nfs-kernel-server_*.deb "$tmp/root"
for b in exportfs rpc.mountd; do
	[ -x "$tmp/root/usr/sbin/$b" ] ||
		{ echo "nfs-utils: the package has no usr/sbin/$b" >&2; exit 1; }
done
if ldd "$tmp/root/usr/sbin/rpc.mountd" | grep -q 'not found'; then
	echo "nfs-utils: rpc.mountd lacks libraries (run tools/deps.sh):" >&2
	ldd "$tmp/root/usr/sbin/rpc.mountd" | grep 'not found' >&2
	exit 1
fi
rm -rf "$root"
mv "$tmp/root" "$root"
echo "$sbin"
