#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build directory to build softrdma against: the running
# kernel's, else the newest installed Debian linux-headers-6.1*-amd64.
build=/lib/modules/$(uname -r)/build
if [ -e "$build/Makefile" ]; then
	echo "$build"
	exit 0
fi
ls -d /usr/src/linux-headers-6.1*-amd64 2>/dev/null | sort -V | tail -n 1
