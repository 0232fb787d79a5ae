#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - build and install a 6.1 kernel with KASAN, lockdep and
# the list/object debugging on, for lab runs that turn silent memory and
# locking bugs in the data paths into kernel reports (the lab fails a run
# whose kernel log has one).  KUnit runs under the same checks, but only
# the lab drives the real receive, transmit and teardown paths.
#
#   tools/lab/debug-kernel.sh          build (cached), install, print RELEASE
#
# Debian's linux-source-6.1 and Debian's config trimmed to the modules the
# lab's guests load (make localmodconfig), plus the debug options below.
# The kernel goes to /boot/vmlinuz-RELEASE and /lib/modules/RELEASE, and a
# softrdma.ko for it to $DK_ROOT/softrdma.ko.  Then:
#
#   LAB_KVER=RELEASE tools/lab/lab run --module $DK_ROOT/softrdma.ko ...
#
# The build takes about 22 minutes on two cores; it is kept in $DK_ROOT
# and redone only when its recipe (configure() and the module list) or
# its inputs (the source tarball, Debian's config) change.
set -euo pipefail

DK_ROOT=${DK_ROOT:-/var/tmp/softrdma-debug-kernel}
SELF=$(readlink -f "${BASH_SOURCE[0]}")
LAB_DIR=$(dirname "$SELF")
REPO=$(cd "$LAB_DIR/../.." && pwd)
TARBALL=/usr/src/linux-source-6.1.tar.xz
BASECONFIG=$(find /boot -maxdepth 1 -name 'config-6.1.[0-9]*-amd64' | sort -V | tail -n1)
SUFFIX=-softrdma-debug

# What the lab's guests load (lsmod after every scenario's modprobes),
# with rdma_rxe and siw, which the guard keeps out while softrdma is in.
MODULES="9p 9pnet 9pnet_virtio 8021q brd bridge configfs crc32c_generic
crc32c_intel crc64 crc64_rocksoft crc64_rocksoft_generic crc_t10dif
crct10dif_common crct10dif_generic crct10dif_pclmul dns_resolver dummy
failover fscache grace lockd nfs nfs_acl nfsd nfsv4 rpcrdma sunrpc auth_rpcgss
ib_srp ib_srpt scsi_common scsi_mod scsi_transport_srp sd_mod target_core_mod
garp ib_cm ib_core ib_uverbs ip6_udp_tunnel ipvlan iw_cm libcrc32c llc
macvlan mrp net_failover netfs nvme_core nvme_fabrics nvme_rdma nvmet
nvmet_rdma overlay rdma_cm rdma_rxe rdma_ucm act_gact cls_u32 sch_ingress sch_netem sch_prio siw stp t10_pi tun
udp_tunnel veth virtio virtio_net virtio_pci virtio_pci_legacy_dev
virtio_pci_modern_dev virtio_ring vxlan"

die() {
	echo "debug-kernel: $*" >&2
	exit 1
}
log() { echo "debug-kernel: $*" >&2; }

[ -r "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.1)"
[ -n "$BASECONFIG" ] || die "no /boot/config-6.1*-amd64 (install Debian's 6.1 kernel)"
mkdir -p "$DK_ROOT"
cd "$DK_ROOT"

# configure SRC OUT: Debian's config, trimmed, with the debug options
configure() {
	local src=$1 out=$2 m o
	mkdir -p "$out"
	cp "$BASECONFIG" "$out/.config"
	for m in $MODULES; do echo "$m 0 0"; done >"$DK_ROOT/lsmod"
	# new options take their defaults (yes dies of SIGPIPE at the end)
	{ yes '' || :; } | make -s -C "$src" O="$out" LSMOD="$DK_ROOT/lsmod" \
		localmodconfig >"$DK_ROOT/config.log" 2>&1 ||
		die "localmodconfig failed (see $DK_ROOT/config.log)"
	"$src/scripts/config" --file "$out/.config" \
		--set-str LOCALVERSION "$SUFFIX" --disable LOCALVERSION_AUTO \
		--set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" \
		--disable MODULE_SIG --disable MODULE_SIG_ALL --disable MODULE_SIG_FORCE \
		--disable SECURITY_LOCKDOWN_LSM \
		--disable DEBUG_INFO --disable DEBUG_INFO_DWARF5 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE \
		--enable DEBUG_KERNEL \
		--enable KASAN --enable KASAN_GENERIC --enable KASAN_OUTLINE \
		--disable KASAN_INLINE --enable KASAN_STACK \
		--enable PROVE_LOCKING --enable DEBUG_ATOMIC_SLEEP \
		--enable DEBUG_LIST --enable DEBUG_OBJECTS \
		--enable DEBUG_OBJECTS_FREE --enable DEBUG_OBJECTS_TIMERS \
		--enable DEBUG_OBJECTS_WORK --enable DEBUG_OBJECTS_RCU_HEAD \
		--module RDMA_RXE --module RDMA_SIW
	make -s -C "$src" O="$out" olddefconfig >>"$DK_ROOT/config.log" 2>&1
	for o in KASAN PROVE_LOCKING DEBUG_LIST DEBUG_OBJECTS; do
		grep -q "^CONFIG_$o=y" "$out/.config" ||
			die "CONFIG_$o did not stay on"
	done
}

# the build is redone when the recipe or its inputs change, not for
# edits elsewhere in this script
id=$({
	declare -f configure
	echo "$MODULES $SUFFIX"
	stat -c '%s %Y' "$TARBALL" "$BASECONFIG"
} | sha256sum | cut -c1-16)

src=$DK_ROOT/linux-source-6.1
out=$DK_ROOT/build
if [ "$(cat "$DK_ROOT/config.id" 2>/dev/null)" != "$id" ]; then
	log "configuring (source $TARBALL, base $BASECONFIG)"
	rm -rf "$src" "$out" "$DK_ROOT/installed.id"
	tar -xJf "$TARBALL"
	configure "$src" "$out"
	echo "$id" >"$DK_ROOT/config.id"
fi

# the release includes CONFIG_LOCALVERSION only once syncconfig has run
make -s -C "$src" O="$out" syncconfig >>"$DK_ROOT/config.log" 2>&1 ||
	die "syncconfig failed (see $DK_ROOT/config.log)"
release=$(make -s -C "$src" O="$out" kernelrelease)
[[ $release == *"$SUFFIX" ]] || die "kernel release '$release' lacks $SUFFIX"
if [ "$(cat "$DK_ROOT/installed.id" 2>/dev/null)" != "$id $release" ] ||
	[ ! -f "/boot/vmlinuz-$release" ]; then
	log "building $release (log: $DK_ROOT/build.log)"
	make -C "$src" O="$out" -j"$(($(nproc) + 1))" bzImage modules \
		>"$DK_ROOT/build.log" 2>&1 || die "build failed (see $DK_ROOT/build.log)"
	log "installing /boot/vmlinuz-$release and /lib/modules/$release"
	make -s -C "$src" O="$out" INSTALL_MOD_STRIP=1 modules_install \
		>>"$DK_ROOT/build.log" 2>&1 || die "modules_install failed"
	install -m 0644 "$out/arch/x86/boot/bzImage" "/boot/vmlinuz-$release"
	echo "$id $release" >"$DK_ROOT/installed.id"
fi

# softrdma.ko for it, built from a copy of this tree (the tree's own
# module stays the one for Debian's kernel)
mod=$DK_ROOT/module
rm -rf "$mod"
mkdir -p "$mod"
cp -a "$REPO/Makefile" "$REPO/Kconfig" "$REPO/include" "$REPO/drivers" "$mod/"
mkdir -p "$mod/tools"
cp -a "$REPO/tools/kdir.sh" "$mod/tools/"
make -s -C "$mod" KDIR="$out" clean >/dev/null 2>&1 || true
make -s -C "$mod" KDIR="$out" modules >"$DK_ROOT/module.log" 2>&1 ||
	die "softrdma.ko does not build for $release (see $DK_ROOT/module.log)"
cp "$mod/drivers/infiniband/sw/softrdma/softrdma.ko" "$DK_ROOT/softrdma.ko"
log "softrdma.ko for $release: $DK_ROOT/softrdma.ko"
echo "$release"
