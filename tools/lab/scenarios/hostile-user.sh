# SPDX-License-Identifier: GPL-2.0
#
# hostile-user: an unprivileged local user attacks the device.
#   lab run --stack sroce,sroce hostile-user
#   lab run --stack siwarp,siwarp hostile-user
# guest1 runs tools/lab/hostile_user.c (built by tools/lab/lab into
# /var/tmp/softrdma-lab/hostile_user) as user nobody, RLIMIT_MEMLOCK
# 4 MiB, in a memory cgroup of 256 MiB: false current states in
# modify_qp, objects created past the limits, hostile work requests and
# foreign-PD keys, the mmap'd rings written behind the provider's back,
# and (RoCE) an RC QP's address vector flipped between IPv4 and IPv6
# under READ load.  Each attempt is one check.  guest0 runs the same
# program's peer part, also as nobody: QPs for each attempt to connect
# to, READ load on request, and its own checks (its other PD's memory
# untouched, every READ right).  Afterwards, a data-checked transfer
# between the guests (ibv_rc_pingpong -c on RoCE, rping -V on iWARP).
# Args: -x/-o lists for hostile_user (e.g. "skip=curstate",
# "only=ring,wr"); rounds=N for the AV flips.

BIN=${HOSTILE_USER_BIN:-/var/tmp/softrdma-lab/hostile_user}
port=18950
skip=
only=
rounds=40
for a in "$@"; do
	case $a in
	skip=*) skip=${a#skip=} ;;
	only=*) only=${a#only=} ;;
	rounds=*) rounds=${a#rounds=} ;;
	esac
done
gid=$(lab_gid_index "$LAB_ADDR" 2>/dev/null) || gid=
gid6=$(lab_gid_index "$LAB_ADDR6" 2>/dev/null) || gid6=
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid $gid gid6 $gid6"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --)

[ -x "$BIN" ] || lab_fail "hostile_user built on the host ($BIN)"

# a memory cgroup for the attacker: what the kernel charges to it is
# bounded there
cg=
if { mountpoint -q /sys/fs/cgroup ||
	mount -t cgroup2 none /sys/fs/cgroup; } 2>/dev/null &&
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
	mkdir -p /sys/fs/cgroup/hostile &&
	echo 256M >/sys/fs/cgroup/hostile/memory.max; then
	cg=/sys/fs/cgroup/hostile
fi
[ -n "$cg" ] || lab_note "no memory cgroup: the attacker runs without one"

# lab_pair's command (it appends -p PORT, and on guest1 guest0's
# address): the peer on guest0, the attacker on guest1; each keeps its
# output in /tmp/hostile.out for the per-attempt checks
hostile() {
	local p=$2 addr=${3:-} rc args=()
	if [ "$LAB_ID" = 0 ]; then
		lab_run "${NOBODY[@]}" "$BIN" -d "$LAB_IBDEV" -s -a "$LAB_ADDR" -p "$p" \
			>/tmp/hostile.out 2>&1
		rc=$?
	else
		[ -n "$gid" ] && args+=(-g "$gid")
		[ -n "$gid6" ] && args+=(-G "$gid6" -6 "$(lab_peer_addr6 0)")
		[ -n "$skip" ] && args+=(-x "$skip")
		[ -n "$only" ] && args+=(-o "$only")
		lab_run bash -c 'c=$1; shift
			[ -z "$c" ] || echo $$ >"$c/cgroup.procs" || exit 3
			ulimit -l 4096 || exit 3
			exec "$@"' hostile "$cg" "${NOBODY[@]}" "$BIN" \
			-d "$LAB_IBDEV" -r "$rounds" "${args[@]}" -p "$p" "$addr" \
			>/tmp/hostile.out 2>&1
		rc=$?
	fi
	cat /tmp/hostile.out
	return $rc
}

lab_pair hostile-user 300 hostile
while IFS= read -r line; do
	case $line in
	"ok - "*) lab_check "${line#ok - }" true ;;
	"not ok - "*) lab_check "${line#not ok - }" false ;;
	esac
done </tmp/hostile.out
lab_barrier hostile-done 120

# the device still carries checked data between the guests
gid_arg=${gid:-1}
if [[ $LAB_STACK == siwarp ]]; then
	lab_pair after-rping 120 lab_rping_checked 50 4096
else
	lab_pair after-pingpong 120 lab_pingpong ibv_rc_pingpong \
		-d "$LAB_IBDEV" -g "$gid_arg" -n 100 -s 4096 -c
fi
lab_barrier hostile-end 120
