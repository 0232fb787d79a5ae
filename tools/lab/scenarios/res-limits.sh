# SPDX-License-Identifier: GPL-2.0
#
# res-limits: what one unprivileged process can make the driver keep.
#   lab run --guests 1 --stack sroce res-limits
#   lab run --guests 1 --stack siwarp res-limits
# tools/lab/res_limits.c (built by lab into /var/tmp/softrdma-lab/
# res_limits), run as user nobody:
#  ctx     user contexts of the device stop at 512
#  pd      PDs stop at the advertised max_pd, with ENOMEM
#  charge  a CQ of max_cqe entries is charged to its creator's memory
#          cgroup (a cgroup of its own), ring included
# Each of its checks becomes a lab check.  Afterwards the device holds
# what it held before (rdma resource) and is removable.

BIN=${RES_LIMITS_BIN:-/var/tmp/softrdma-lab/res_limits}

[ "$LAB_ID" = 0 ] || exit 0

dev=$LAB_IBDEV
# two descriptors per context (the device and its async events)
ulimit -n 4096

# run res_limits as nobody; each "ok - / not ok - " line is one check
limits() {
	local part=$1 out=/tmp/res_limits.$1.out rc n=0 line
	shift
	lab_timeout 300 "$@" >"$out" 2>&1
	rc=$?
	cp "$out" "$LAB_OUT/checks/" 2>/dev/null
	while IFS= read -r line; do
		case $line in
		"ok - "*)
			n=$((n + 1))
			lab_check "res_limits: ${line#ok - }" true ;;
		"not ok - "*)
			n=$((n + 1))
			lab_check "res_limits: ${line#not ok - }" false ;;
		esac
	done <"$out"
	lab_check "res_limits $part ran to its end ($n checks) and exited 0" \
		bash -c "cat $out; [ $rc -eq 0 ] && grep -q '^res_limits: 0 failed$' $out"
}
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)

held_before=$(rdma resource show "$dev")
lab_note "$dev before: $held_before"

limits ctx "${nobody[@]}" "$BIN" -d "$dev" ctx 600
limits pd "${nobody[@]}" "$BIN" -d "$dev" pd 70000

# a memory cgroup with only res_limits in it
cg=/sys/fs/cgroup
grep -q "^[^ ]* $cg cgroup2 " /proc/mounts || mount -t cgroup2 none "$cg"
echo +memory >"$cg/cgroup.subtree_control"
mkdir -p "$cg/res-limits"
# shellcheck disable=SC2016
in_cgroup=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg/res-limits")
limits charge "${in_cgroup[@]}" "${nobody[@]}" "$BIN" -d "$dev" charge \
	"$cg/res-limits/memory.current"

same_as_before() {
	local now
	now=$(rdma resource show "$dev")
	echo "before: $held_before"
	echo "now:    $now"
	[ "$now" = "$held_before" ]
}
lab_check "$dev: holds what it held before" same_as_before
lab_check "rdma link del $dev" rdma link del "$dev"
lab_check "rmmod softrdma" rmmod softrdma
