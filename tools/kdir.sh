#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build directory to build softrdma against.
# Usage: kdir.sh [SERIES]
# With a series (6.1, 6.12), the newest installed Debian headers of that
# series; without, the running kernel's build tree if it has one, else
# the newest Debian 6.1 headers.
. "$(dirname "$0")/kernel.sh"
if [ -z "${1:-}" ]; then
	build=/lib/modules/$(uname -r)/build
	if [ -e "$build/Makefile" ]; then
		echo "$build"
		exit 0
	fi
fi
kernel_headers "${1:-$SOFTRDMA_DEFAULT_KERNEL}"
