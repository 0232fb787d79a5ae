# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Which Debian kernel of a series is installed here, sourced by the build
# and the lab.  A series is a major.minor: 6.1 (Debian 12's own) or 6.12
# (bookworm-backports).  Releases are matched with the dot after the
# series, so that 6.1 never takes 6.12's files.

# shellcheck disable=SC2034 # read by the scripts that source this
SOFTRDMA_KERNELS="6.1 6.12"
# shellcheck disable=SC2034
SOFTRDMA_DEFAULT_KERNEL=6.1

# kernel_series_ok SERIES: is SERIES one softrdma supports?
kernel_series_ok() {
	case " $SOFTRDMA_KERNELS " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# Kernel images are looked for in SOFTRDMA_BOOT (default /boot), their
# modules in /lib/modules.
SOFTRDMA_BOOT=${SOFTRDMA_BOOT:-/boot}

# kernel_release SERIES: the newest installed release of SERIES, or nothing.
kernel_release() {
	find "$SOFTRDMA_BOOT" -maxdepth 1 -name "vmlinuz-$1.[0-9]*-amd64" 2>/dev/null |
		sed 's|^.*/vmlinuz-||' | sort -V | tail -n 1
}

# kernel_headers SERIES: the newest installed Debian headers of SERIES.
kernel_headers() {
	find /usr/src -maxdepth 1 -name "linux-headers-$1.[0-9]*-amd64" 2>/dev/null |
		sort -V | tail -n 1
}

# kernel_source_tarball SERIES: Debian's linux-source-SERIES tarball.
kernel_source_tarball() {
	ls /usr/src/linux-source-"$1".tar.xz 2>/dev/null
}
