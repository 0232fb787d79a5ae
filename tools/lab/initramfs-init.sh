#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the lab's busybox initramfs (built by tools/lab/lab into the
# cache dir).  Loads the virtio/9p/overlay modules listed in /modules.list,
# mounts the host root (9p tag "hostroot", read-only) under a tmpfs overlay,
# mounts the per-run lab share (9p tag "lab") at /lab in it, and
# switch_root's to "bash <lab.init=PATH>" (default /lab/guest-init.sh).
export PATH=/bin

fail() {
	echo "lab-initramfs: FATAL: $*"
	echo "lab-initramfs: dropping to a shell (powering off if none)"
	sh
	poweroff -f
}

mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys

while read -r m; do
	[ -n "$m" ] || continue
	insmod "/lib/modules/$m" || fail "insmod $m"
done </modules.list

init=/lab/guest-init.sh
# shellcheck disable=SC2013 # words, not lines
for arg in $(cat /proc/cmdline); do
	case $arg in
	lab.init=*) init=${arg#lab.init=} ;;
	esac
done

mkdir -p /lower /rw /newroot
# The host root is read-only and does not change under a run: let 9p cache.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro,cache=loose \
	hostroot /lower || fail "mount hostroot"
mount -t tmpfs -o mode=0755 tmpfs /rw || fail "mount tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay overlay \
	-o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /newroot ||
	fail "mount overlay"
mkdir -p /newroot/lab
# The lab share is written by every guest and the host: no caching.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none \
	lab /newroot/lab || fail "mount lab share"

umount /proc
umount /sys
mount --move /dev /newroot/dev || fail "move /dev"
exec switch_root /newroot /bin/bash "$init"
