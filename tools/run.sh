#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make run": two guests, an sroce device on each (rdma link add sr0 type
# sroce netdev eth0), what the stock rdma-core sees of them, and a results
# table.  The perftest matrix joins the table once RoCEv2 traffic flows
# (issue #3).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
runs=/var/tmp/softrdma-lab/runs

"$top/tools/lab/lab" run --stack sroce run
rc=$?
rundir=$(readlink -f "$runs/latest")

echo
for report in "$rundir"/lab/guest*/report; do
	[ -f "$report" ] && cat "$report" && echo
done

field() { # FILE KEY: value of "KEY: value" in ibv_devinfo output
	sed -n "s/^[[:space:]]*$2:[[:space:]]*//p" "$1" | head -n 1
}

echo "=== results"
printf '%-7s %-6s %-9s %-14s %-12s %-8s %-10s %s\n' guest device transport state active_mtu max_mtu fw_ver "IPv4 GID index"
for dir in "$rundir"/lab/guest*; do
	info=$dir/devinfo
	[ -f "$info" ] || continue
	g=${dir##*/}
	idx=$(grep -o 'index [0-9]*: 0000:0000:0000:0000:0000:ffff' "$dir/report" |
		head -n 1 | sed 's/index \([0-9]*\):.*/\1/')
	printf '%-7s %-6s %-9s %-14s %-12s %-8s %-10s %s\n' "$g" \
		"$(field "$info" hca_id)" "$(field "$info" transport | cut -d' ' -f1)" \
		"$(field "$info" state | cut -d' ' -f1)" \
		"$(field "$info" active_mtu | cut -d' ' -f1)" \
		"$(field "$info" max_mtu | cut -d' ' -f1)" \
		"$(field "$info" fw_ver)" "${idx:-none}"
done
echo
echo "(run directory: $rundir)"
exit $rc
