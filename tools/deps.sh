#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building softrdma, running the QEMU lab
# and running the tests need.  Idempotent: when everything is present it only
# runs dpkg-query and returns.
set -euo pipefail

PKGS=(
	# build: Debian's 6.1 kernel, its headers and its source
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils
	python3 rsync
	# lab
	qemu-system-x86 busybox-static iproute2 iputils-ping procps ethtool
	# RDMA userspace used inside the guests
	rdma-core ibverbs-providers ibverbs-utils perftest rdmacm-utils
	# guest-side test programs built by the lab
	libibverbs-dev librdmacm-dev
	iperf3 tshark tcpdump
	# libraries of the NFS server tools tools/lab/nfs-utils.sh unpacks
	# from nfs-kernel-server (not installed: it would start an NFS
	# server on the host)
	libwrap0 libtirpc3 libgssapi-krb5-2
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
		grep -qx installed; then
		missing+=("$p")
	fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install: ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
echo 'wireshark-common wireshark-common/install-setuid boolean false' |
	debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
