#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building softrdma, running the QEMU lab
# and running the tests need.  Idempotent: when everything is present it only
# runs dpkg-query and returns.
set -euo pipefail

PKGS=(
	# build: Debian's 6.1 kernel, its headers and its source (6.12's come
	# from bookworm-backports, below)
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils
	# 6.12's headers carry a vmlinux: modules get BTF, made by pahole
	dwarves
	python3 rsync
	# make deb: the DKMS package (dh_dkms), and DKMS itself, which the
	# lab's dkms scenario runs in the guests
	dkms debhelper dh-dkms
	# lab
	qemu-system-x86 busybox-static iproute2 iputils-ping procps ethtool
	# RDMA userspace used inside the guests
	rdma-core ibverbs-providers ibverbs-utils perftest rdmacm-utils
	# guest-side test programs built by the lab
	libibverbs-dev librdmacm-dev
	iperf3 tshark tcpdump
	# tools/bench/bench --sweep's plot (make run)
	gnuplot-nox
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

# shellcheck source=kernel.sh
. "$(dirname "$0")/kernel.sh"

# Debian's 6.12 LTS for bookworm: headers, image and source of one release
# from bookworm-backports (apt keeps preferring bookworm for the rest)
need612=0
if [ -z "$(kernel_headers 6.12)" ] || [ -z "$(kernel_release 6.12)" ] ||
	[ -z "$(kernel_source_tarball 6.12)" ]; then
	need612=1
fi

[ ${#missing[@]} -eq 0 ] && [ "$need612" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install: ${missing[*]} (6.12 kernel: $need612)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
backports=/etc/apt/sources.list.d/softrdma-bookworm-backports.sources
updated=0
if [ "$need612" -eq 1 ] &&
	! grep -rqs '^Suites:.*bookworm-backports\|^deb .* bookworm-backports ' \
		/etc/apt/sources.list /etc/apt/sources.list.d/; then
	# the same archive as bookworm's own entry, whichever format has it
	uri=$(awk '/^URIs:/ { u = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print u; exit } }
		/^$/ { u = "" }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || { echo "deps: no bookworm entry in apt's sources" >&2; exit 1; }
	printf '%s\n' 'Types: deb' "URIs: $uri" 'Suites: bookworm-backports' \
		'Components: main' \
		'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$backports"
fi

if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	echo 'wireshark-common wireshark-common/install-setuid boolean false' |
		debconf-set-selections
	apt-get update -qq
	updated=1
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$need612" -eq 1 ]; then
	[ "$updated" -eq 1 ] || apt-get update -qq
	rel=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
		cut -d' ' -f1 | sed 's/^linux-headers-//' | sort -V | tail -n 1)
	[ -n "$rel" ] || { echo "deps: no 6.12 kernel in bookworm-backports" >&2; exit 1; }
	echo "deps: installing Debian's $rel kernel, headers and linux-source-6.12"
	apt-get install -y -qq --no-install-recommends -t bookworm-backports \
		"linux-image-$rel" "linux-headers-$rel" linux-source-6.12 >/dev/null
fi
