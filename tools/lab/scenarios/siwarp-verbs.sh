# SPDX-License-Identifier: GPL-2.0
#
# siwarp-verbs: a softrdma iWARP device driven by stock libsiw (rdma-core
# 44) through the siw user ABI, without a connection:
#   lab run --guests 1 --stack siwarp siwarp-verbs
# - ibv_devinfo -v: transport iWARP, the siw ABI's limits;
# - tools/lab/siwarp_verbs.c (built by lab into
#   /var/tmp/softrdma-lab/siwarp_verbs): PD, MR, CQs and QPs of several
#   sizes and their refusals, modify_qp as the iWARP connection managers
#   do it, polling and arming, receives to capacity, post_send while not
#   connected, flushes checked entry by entry through the shared rings,
#   CQ overflow, destruction.  Each of its checks becomes a lab check;
# - the device is removable afterwards (rdma link del);
# - the lab itself checks that the kernel log stays clean.

VERBS_BIN=${SIWARP_VERBS_BIN:-/var/tmp/softrdma-lab/siwarp_verbs}

[ "$LAB_ID" = 0 ] || exit 0

dev=$LAB_IBDEV
devinfo() { ibv_devinfo -v -d "$dev"; }
attr_is() { # NAME VALUE (an ERE; the whole value)
	devinfo | grep -Eq "^[[:space:]]*$1:[[:space:]]+$2[[:space:]]*\$"
}
devinfo_clean() {
	IBV_SHOW_WARNINGS=1 ibv_devinfo -v -d "$dev" >/tmp/devinfo.out \
		2>/tmp/devinfo.err || return 1
	cat /tmp/devinfo.out /tmp/devinfo.err
	[ -s /tmp/devinfo.out ] && [ ! -s /tmp/devinfo.err ]
}

lab_check "$dev: ibv_devinfo -v binds libsiw without warnings" devinfo_clean
lab_check "$dev: transport iWARP" attr_is transport 'iWARP \(1\)'
lab_check "$dev: max_qp_wr 16384" attr_is max_qp_wr 16384
lab_check "$dev: max_cqe 32768" attr_is max_cqe 32768
lab_check "$dev: max_sge 6" attr_is max_sge 6
lab_check "$dev: max_sge_rd 1" attr_is max_sge_rd 1
lab_check "$dev: atomic_cap ATOMIC_NONE" attr_is atomic_cap 'ATOMIC_NONE \(0\)'
lab_check "$dev: link_layer Ethernet" attr_is link_layer Ethernet

# Each "ok - / not ok - " line of the program becomes one check.
ulimit -l unlimited
"$VERBS_BIN" -d "$dev" >/tmp/siwarp_verbs.out 2>&1
verbs_rc=$?
cp /tmp/siwarp_verbs.out "$LAB_OUT/checks/siwarp_verbs.out" 2>/dev/null
n=0
while IFS= read -r line; do
	case $line in
	"ok - "*)
		n=$((n + 1))
		lab_check "siwarp_verbs: ${line#ok - }" true ;;
	"not ok - "*)
		n=$((n + 1))
		lab_check "siwarp_verbs: ${line#not ok - }" false ;;
	esac
done </tmp/siwarp_verbs.out
lab_check "siwarp_verbs ran to its end ($n checks) and exited 0" \
	bash -c "cat /tmp/siwarp_verbs.out; [ $verbs_rc -eq 0 ] && grep -q '^siwarp_verbs: 0 failed$' /tmp/siwarp_verbs.out"

# "0: sw0: pd 0 cq 0 qp 0 cm_id 0 mr 0 ctx 0 ..."
nothing_left() {
	local s
	s=$(rdma resource show "$dev")
	echo "$s"
	for r in pd cq qp mr ctx; do
		echo "$s" | grep -q " $r 0\b" || return 1
	done
}
lab_check "$dev: no PD, CQ, QP, MR or context is left" nothing_left
lab_check "rdma link del $dev" rdma link del "$dev"
lab_check "$dev is gone" bash -c "[ ! -e /sys/class/infiniband/$dev ]"
lab_check "rmmod softrdma" rmmod softrdma
