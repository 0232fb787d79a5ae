# SPDX-License-Identifier: GPL-2.0
#
# What "make run" shows: two guests, an sroce device on each, what the
# stock rdma-core sees of them.  The report goes to $LAB_OUT/report.
#
# Runs with --stack sroce.

report=$LAB_OUT/report

lab_check "guest$LAB_ID: sr0 is up" bash -c 'rdma link show | grep -q "^link sr0/1 state ACTIVE"'
lab_check "guest$LAB_ID: ibv_devinfo -v -d sr0" bash -c "ibv_devinfo -v -d sr0 >'$LAB_OUT/devinfo'"
{
	echo "=== guest$LAB_ID ($LAB_ADDR, $LAB_ADDR6)"
	echo "--- rdma link show"
	rdma link show
	echo "--- ibv_devinfo -d sr0 (-v for the full list)"
	ibv_devinfo -d sr0
	echo "--- GID table of sr0"
	for f in /sys/class/infiniband/sr0/ports/1/gids/*; do
		gid=$(cat "$f" 2>/dev/null) || continue
		[ "$gid" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
		echo "  index ${f##*/}: $gid ($(cat /sys/class/infiniband/sr0/ports/1/gid_attrs/types/${f##*/} 2>/dev/null))"
	done
} >"$report" 2>&1
lab_barrier reported || exit 1
