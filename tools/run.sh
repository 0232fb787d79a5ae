#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make run": two guests, an sroce device on each (rdma link add sr0 type
# sroce netdev eth0), what the stock rdma-core sees of them, a device
# table, then the perftest matrix (tools/bench/bench) for sroce, rxe and
# TCP, each pairing in its own pair of guests, and the same stacks'
# bandwidth at every message size from 2 B to 4 MiB, plotted (bench
# --sweep).  A pairing or figure that does not work shows "n/a" or
# "fail"; nothing is asserted.
# Exit status: non-zero if the device report or the bench could not run.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS

echo "=== [1/3] devices: two guests with an sroce device each (about 1 min)"
lablog=$(mktemp /tmp/softrdma-run.XXXXXX)
"$top/tools/lab/lab" run --stack sroce run 2>&1 | tee "$lablog"
rc=${PIPESTATUS[0]}
# this run's directory (runs/latest may already be another lab run's)
rundir=$(sed -n 's/.*, run dir \(.*\)$/\1/p' "$lablog" | head -n 1)
rm -f "$lablog"
[ -n "$rundir" ] || echo "(the device lab run did not start)"

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

echo
echo "=== [2/3] perftest matrix: sroce<->sroce, rxe<->rxe, TCP (iperf3);"
echo "    one lab run per pairing, about 2 min each (a hanging pairing is cut short)"
"$top/tools/bench/bench" --stacks sroce,rxe,tcp
bench_rc=$?
echo
echo "=== [3/3] bandwidth against message size, 2 B to 4 MiB: sroce, rxe, TCP;"
echo "    one lab run per pairing, about 3 min each; the plot is named below"
"$top/tools/bench/bench" --sweep --stacks sroce,rxe,tcp || bench_rc=1
echo
echo "make run: $((SECONDS - start))s"
[ "$rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
